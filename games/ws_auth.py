"""Websocket authentication: the session (browsers, origin-checked) or a token (clients).

Browsers always send an Origin header; a socket that carries the session cookie is
accepted only from an allowed origin, so another site cannot open a socket as the
user. A token proves itself, so token clients may omit Origin.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from channels.auth import AuthMiddlewareStack
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import is_same_domain

from accounts.tokens import token_for_raw, token_from_scope
from games.db_calls import read_in_writer


def origin_allowed(origin: str | None) -> bool:
    """The page that opens the socket must be served from one of our own hosts."""
    if not origin:
        return False
    host = urlparse(origin).hostname or ""
    return any(
        pattern == "*" or is_same_domain(host, pattern.strip("[]").split(":")[0])
        for pattern in settings.ALLOWED_HOSTS
    )


class TokenOrSessionMiddleware:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        scope = dict(scope)
        origin = None
        for name, value in scope.get("headers", []):
            if name == b"origin":
                origin = value.decode("latin-1")
        raw_token = token_from_scope(scope)
        if raw_token:
            token = await read_in_writer(token_for_raw, raw_token)
            scope["user"] = AnonymousUser() if token is None else token.user
            scope["auth"] = "token" if token is not None else "bad_token"
            if token is not None:
                scope["token_id"] = token.pk  # its sockets close when it is revoked
            if origin is not None and not origin_allowed(origin):
                scope["user"] = AnonymousUser()
                scope["auth"] = "bad_origin"
                scope.pop("token_id", None)
        elif origin is None or not origin_allowed(origin):
            scope["user"] = AnonymousUser()
            scope["auth"] = "bad_origin" if origin else "none"
        else:
            scope["auth"] = "session"  # the session middleware below fills scope["user"]
        return await self.inner(scope, receive, send)


def websocket_auth(inner: Any) -> Any:
    """Session auth for same-origin browsers; tokens for everybody else."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        return await TokenOrSessionMiddleware(_Session(inner))(scope, receive, send)

    return app


class _Session:
    def __init__(self, inner: Any) -> None:
        self.session_stack = AuthMiddlewareStack(inner)
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("auth") == "session":
            return await self.session_stack(scope, receive, send)
        return await self.inner(scope, receive, send)
