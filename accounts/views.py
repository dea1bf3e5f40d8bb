"""The account page: display name and personal access tokens."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .credentials import do_revoke_token
from .models import AccessToken, Profile
from .usernames import clean_display_name


class DisplayNameForm(forms.ModelForm):  # type: ignore[type-arg]
    """A display name by the username rules (accounts/usernames.py): normalized, nothing
    invisible, not reserved, no look-alike of another player's username or display name."""

    class Meta:
        model = Profile
        fields = ["display_name"]

    def clean_display_name(self) -> str:
        return clean_display_name(str(self.cleaned_data["display_name"]),
                                  user_id=self.instance.user_id)


class TokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Token name"), max_length=60)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    profile, _created = Profile.objects.get_or_create(user=request.user)
    name_form = DisplayNameForm(instance=profile)
    token_form = TokenForm()
    new_token = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "name":
            name_form = DisplayNameForm(request.POST, instance=profile)
            if name_form.is_valid():
                name_form.save()
                messages.success(request, _("Your display name was saved."))
                return redirect("account")
        elif action == "token":
            token_form = TokenForm(request.POST)
            if token_form.is_valid():
                _token, new_token = AccessToken.issue(request.user, token_form.cleaned_data["name"])
                token_form = TokenForm()
        elif action == "revoke":
            if do_revoke_token(request.user, request.POST.get("token")):  # its sockets close
                messages.success(request, _("The token was revoked."))
            else:
                messages.error(request, _("There is no such token."))
            return redirect("account")
    return render(request, "account.html", {
        "name_form": name_form,
        "token_form": token_form,
        "new_token": new_token,
        "tokens": AccessToken.objects.filter(user=request.user, revoked_at__isnull=True),
    })
