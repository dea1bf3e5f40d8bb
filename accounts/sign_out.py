"""Sign out everywhere: every session of the account ends, every token is revoked, and
every socket opened with them closes (accounts/credentials.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .credentials import do_sign_out_everywhere


@require_POST
@login_required
def sign_out_everywhere(request: HttpRequest) -> HttpResponse:
    do_sign_out_everywhere(request.user)  # type: ignore[arg-type]
    logout(request)  # this browser's session too, and a fresh, anonymous one for the message
    messages.success(request, _("You were signed out everywhere, and all your access tokens "
                                "were revoked."))
    return redirect("account_login")
