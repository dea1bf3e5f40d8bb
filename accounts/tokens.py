"""Authenticating API clients by personal access token (HTTP and websocket)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from .models import AccessToken, hash_token

LAST_USED_RESOLUTION = timedelta(minutes=1)


def user_for_token(raw: str | None) -> AbstractBaseUser | None:
    token = token_for_raw(raw)
    return None if token is None else token.user  # type: ignore[no-any-return]


def token_for_raw(raw: str | None) -> AccessToken | None:
    """The live token ``raw`` names, its user active (last use noted), or None."""
    if not raw or not raw.startswith(AccessToken.PREFIX):
        return None
    token = (
        AccessToken.objects.select_related("user")
        .filter(digest=hash_token(raw), revoked_at__isnull=True)
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    # Noted to the minute: a write on every call and socket was most of what a flood of
    # connections cost the database.
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def token_from_header(value: str | bytes | None) -> str | None:
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    if not value:
        return None
    scheme, _, raw = value.partition(" ")
    if scheme.lower() in ("bearer", "token") and raw:
        return raw.strip()
    return None


def token_from_scope(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return token_from_header(value)

    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("token")
    return values[0] if values else None
