"""Websocket authentication: the session (browsers, origin-checked) or a token (clients).

Browsers always send an Origin header; a socket that carries the session cookie is
accepted only from its own origin (scheme, host and port) or a trusted one, so another
site, even one on another port of the same host, cannot open a socket as the user. A
token proves itself, so token clients may omit Origin.
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from channels.auth import AuthMiddlewareStack
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import is_same_domain, split_domain_port, validate_host

from accounts.tokens import token_for_raw, token_from_scope
from games.live import live_limits
from games.reads.db_calls import read_in_writer


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _session_cookie(scope: dict[str, Any]) -> str | None:
    cookies = _header(scope, b"cookie")
    if not cookies:
        return None
    jar = SimpleCookie()
    try:
        jar.load(cookies)
    except CookieError:
        return None
    found = jar.get(settings.SESSION_COOKIE_NAME)
    return found.value if found is not None else None


def _is_secure(scope: dict[str, Any]) -> bool:
    """As Django's request.is_secure(): the TLS proxy's header if configured, else the scheme."""
    proxy_header = settings.SECURE_PROXY_SSL_HEADER
    if proxy_header:
        meta_name, secure_value = proxy_header
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        value = _header(scope, name)
        if value is not None:
            return bool(value.split(",", 1)[0].strip() == secure_value)
    return scope.get("scheme") in ("wss", "https")


def _host(scope: dict[str, Any]) -> str | None:
    """The Host the socket was opened to, if it is one of ours (ALLOWED_HOSTS)."""
    host = _header(scope, b"host")
    if host is None and scope.get("server"):
        name, port = scope["server"][0], scope["server"][1]
        host = f"{name}:{port}" if port else str(name)
    if not host:
        return None
    domain, _port = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]  # as Django's get_host()
    return host.lower() if domain and validate_host(domain, allowed) else None


def _origin_tuple(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin or URL; the port filled in when default."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def _trusted(origin: str) -> bool:
    """In CSRF_TRUSTED_ORIGINS, exactly or as a subdomain of a ``scheme://*.domain`` entry."""
    parsed = _origin_tuple(origin)
    if parsed is None:
        return False
    netloc = urlsplit(origin).netloc.lower()
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:
            pattern = urlsplit(trusted)
            if pattern.scheme == parsed[0] and is_same_domain(netloc, pattern.netloc.lstrip("*")):
                return True
        elif _origin_tuple(trusted) == parsed:
            return True
    return False


def origin_allowed(origin: str | None, scope: dict[str, Any]) -> bool:
    """The page that opens the socket must come from the socket's own origin (scheme,
    host and port, as Django's CSRF check compares them) or from CSRF_TRUSTED_ORIGINS."""
    if not origin:
        return False
    host = _host(scope)
    if host is not None:
        own = _origin_tuple(f"{'https' if _is_secure(scope) else 'http'}://{host}")
        if own is not None and _origin_tuple(origin) == own:
            return True
    return _trusted(origin)


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
        credential = live_limits.credential_of(raw_token, _session_cookie(scope))
        if credential is not None and not live_limits.CONNECTS.allow(credential):
            return await live_limits.refuse_connection(
                receive, send, live_limits.FLOOD_CLOSE_CODE, live_limits.too_many_connections())
        if raw_token:
            token = await read_in_writer(token_for_raw, raw_token)
            scope["user"] = AnonymousUser() if token is None else token.user
            scope["auth"] = "token" if token is not None else "bad_token"
            if token is not None:
                scope["token_id"] = token.pk  # its sockets close when it is revoked
                if (credential is not None and not live_limits.CONNECTS.is_exempt(credential)
                        and await read_in_writer(live_limits.is_exempt, token.user)):
                    live_limits.CONNECTS.exempt(credential)
            elif credential is not None:  # a revoked token is counted again
                live_limits.CONNECTS.forget_exemption(credential)
            if origin is not None and not origin_allowed(origin, scope):
                scope["user"] = AnonymousUser()
                scope["auth"] = "bad_origin"
                scope.pop("token_id", None)
        elif origin is None or not origin_allowed(origin, scope):
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
