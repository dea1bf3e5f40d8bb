"""The local outbox: where mail goes while the server has none configured.

On the embedded default (no EMAIL_BACKEND, no EMAIL_HOST) nothing could deliver a
confirmation mail, so each message is kept as a JSON file in ``settings.OUTBOX_DIR``
(var/outbox/) and ``/outbox/`` shows it (accounts/outbox_view.py). Who sees what: a mail
that confirms an address is shown to the browser whose sign-up (or request) sent it,
tagged with a token kept in that browser's session (``tag_for_sender``); staff see every
mail. A password-reset link is never shown to whoever asked for it: anybody may ask for
anybody's, so only staff see those.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.http import HttpRequest

# The header that carries the sender's token into the backend; never stored or sent on.
SENDER_HEADER = "X-Outbox-Sender"
SESSION_KEY = "outbox_sender"
# Mails shown to the browser that made them be sent: an address to confirm.
SHOWN_TO_SENDER = ("account/email/email_confirmation_signup", "account/email/email_confirmation")
KEEP = 200  # the newest mails kept; older ones are removed as new ones come


def is_enabled() -> bool:
    """Whether mail goes to the outbox (none configured), so the outbox page exists."""
    return bool(settings.EMAIL_BACKEND == settings.OUTBOX_BACKEND)


def folder() -> Path:
    return Path(settings.OUTBOX_DIR)


def sender_token(request: HttpRequest, create: bool) -> str | None:
    """This browser's outbox token (kept in its session, which signing in keeps)."""
    session = getattr(request, "session", None)
    if session is None:
        return None
    token = session.get(SESSION_KEY)
    if token is None and create:
        token = session[SESSION_KEY] = secrets.token_urlsafe(16)
    return str(token) if token is not None else None


def tag_for_sender(request: HttpRequest | None, template_prefix: str,
                   message: EmailMessage) -> None:
    """Mark ``message`` as one the requesting browser may read in the outbox."""
    if request is None or not is_enabled() or template_prefix not in SHOWN_TO_SENDER:
        return
    token = sender_token(request, create=True)
    if token:
        message.extra_headers[SENDER_HEADER] = token


@dataclass(frozen=True)
class Mail:
    name: str  # the file's name: its time, then a random part
    sent: float
    to: list[str]
    subject: str
    body: str
    sender: str | None


def _record(message: EmailMessage) -> dict[str, Any]:
    headers = dict(message.extra_headers)
    sender = headers.pop(SENDER_HEADER, None)
    return {"sent": time.time(), "to": list(message.to), "subject": str(message.subject),
            "body": str(message.body), "sender": sender}


class OutboxBackend(BaseEmailBackend):
    """Each message written whole (then renamed into place) as one file of the outbox."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        target = folder()
        target.mkdir(parents=True, exist_ok=True)
        for message in email_messages:
            name = f"{time.time_ns():020d}-{secrets.token_hex(4)}.json"
            partial = target / f".{name}.partial"
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w") as out:
                json.dump(_record(message), out)
            partial.replace(target / name)
        _prune(target)
        return len(email_messages)


def _prune(target: Path) -> None:
    for old in sorted(target.glob("*.json"))[:-KEEP]:
        old.unlink(missing_ok=True)


def read_all() -> list[Mail]:
    """Every mail in the outbox, newest first (an unreadable file is skipped)."""
    mails = []
    for path in sorted(folder().glob("*.json"), reverse=True):
        try:
            data = json.loads(path.read_text())
            mails.append(Mail(path.stem, float(data["sent"]), list(data["to"]),
                              str(data["subject"]), str(data["body"]), data.get("sender")))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return mails


def visible_to(request: HttpRequest) -> list[Mail]:
    """The mails this browser may read: staff all, anybody else those it made be sent."""
    mails = read_all()
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        return mails
    token = sender_token(request, create=False)
    return [mail for mail in mails if token is not None and mail.sender == token]
