"""Ending a credential ends its sockets.

Every match socket joins the group of the credential that opened it: its access token,
or its browser session. Revoking the token or logging the session out sends that group
a ``credential.revoked`` message after the change commits, and each socket in it closes
at once (close code 4401), so nothing is done with rights that are gone.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from .models import AccessToken

REVOKED_CLOSE_CODE = 4401


def token_group(token_id: int) -> str:
    return f"credential.token.{token_id}"


def session_group(session_key: str) -> str:
    return f"credential.session.{session_key}"


def credential_group(scope: dict[str, Any]) -> str | None:
    """The group of the credential a socket was opened with (None: anonymous)."""
    token_id = scope.get("token_id")
    if token_id is not None:
        return token_group(int(token_id))
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    user = scope.get("user")
    if key and user is not None and user.is_authenticated:
        return session_group(key)
    return None


def _close_group_after_commit(group: str) -> None:
    def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, {"type": "credential.revoked"})

    transaction.on_commit(send)


def do_revoke_token(user: AbstractBaseUser, token_id: Any) -> bool:
    """Revoke one of ``user``'s tokens; its sockets close. False if there was none."""
    try:
        pk = int(token_id)
    except (TypeError, ValueError):
        return False
    with transaction.atomic():
        count = AccessToken.objects.filter(user=user, pk=pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now())
        if count:
            _close_group_after_commit(token_group(pk))
    return bool(count)


@receiver(user_logged_out)
def close_session_sockets(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        _close_group_after_commit(session_group(key))
