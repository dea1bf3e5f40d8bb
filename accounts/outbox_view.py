"""``/outbox/``: the mail this server would have sent, while it has none configured."""

from __future__ import annotations

import datetime

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from . import outbox


@never_cache
def outbox_page(request: HttpRequest) -> HttpResponse:
    """The mails this browser may read, newest first; no page at all once mail is set up."""
    if not outbox.is_enabled():
        raise Http404("mail is configured: there is no outbox")
    mails = [
        {"to": ", ".join(mail.to), "subject": mail.subject, "body": mail.body,
         "sent": datetime.datetime.fromtimestamp(mail.sent, tz=datetime.UTC)}
        for mail in outbox.visible_to(request)
    ]
    staff = bool(request.user.is_authenticated and request.user.is_staff)
    return render(request, "account/outbox.html", {"mails": mails, "staff": staff})
