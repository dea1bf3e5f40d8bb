"""The websocket's Origin check (games/live/ws_auth.py): same origin, as Django's CSRF check.

A page on another port of the same host (http://127.0.0.1:9999) must not open a socket
with the player's session cookie to the platform on http://127.0.0.1:8000.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.live.ws_auth import TokenOrSessionMiddleware, origin_allowed

JSON = dict[str, Any]


def scope(host: str | None, *, scheme: str = "ws",
          extra: tuple[tuple[bytes, bytes], ...] = ()) -> JSON:
    headers = [(b"host", host.encode())] if host is not None else []
    return {"type": "websocket", "scheme": scheme, "headers": [*headers, *extra]}


@pytest.fixture(autouse=True)
def hosts(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "example.org"]
    settings.CSRF_TRUSTED_ORIGINS = []
    settings.SECURE_PROXY_SSL_HEADER = None


@pytest.mark.parametrize(("origin", "host", "allowed"), [
    ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
    ("http://127.0.0.1:9999", "127.0.0.1:8000", False),  # the finding: another port
    ("http://127.0.0.1", "127.0.0.1:8000", False),
    ("https://127.0.0.1:8000", "127.0.0.1:8000", False),  # another scheme
    ("http://localhost:8000", "127.0.0.1:8000", False),   # another host
    ("http://LOCALHOST:8000", "localhost:8000", True),
    ("http://localhost:80", "localhost", True),           # the default port, spelled out
    ("http://[::1]:8000", "[::1]:8000", True),
    ("http://evil.example", "evil.example", False),       # a host that is not ours
    ("null", "localhost", False),
    ("http://[broken", "localhost", False),
    ("", "localhost", False),
    (None, "localhost", False),
])
def test_same_origin_only(origin: str | None, host: str, allowed: bool) -> None:
    assert origin_allowed(origin, scope(host)) is allowed


def test_without_a_host_header_the_server_address_counts() -> None:
    bare = {"type": "websocket", "headers": [], "server": ("127.0.0.1", 8000)}
    assert origin_allowed("http://127.0.0.1:8000", bare)
    assert not origin_allowed("http://127.0.0.1:9999", bare)
    assert not origin_allowed("http://127.0.0.1:8000", scope(None))


def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = scope("example.org", extra=((b"x-forwarded-proto", b"https"),))
    assert origin_allowed("https://example.org", proxied)
    assert not origin_allowed("http://example.org", proxied)
    assert not origin_allowed("https://example.org:8443", proxied)
    # Without the header the socket's own scheme decides.
    assert origin_allowed("http://example.org", scope("example.org"))
    assert origin_allowed("https://example.org", scope("example.org", scheme="wss"))


def test_trusted_origins_as_csrf_trusts_them(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org", "https://*.club.example.org"]
    ours = scope("example.org")
    assert origin_allowed("https://play.example.org", ours)
    assert not origin_allowed("https://play.example.org:444", ours)
    assert not origin_allowed("http://play.example.org", ours)
    assert origin_allowed("https://a.club.example.org", ours)
    assert origin_allowed("https://club.example.org", ours)
    assert not origin_allowed("http://a.club.example.org", ours)
    assert not origin_allowed("https://notclub.example.org", ours)


async def seen_by_the_app(headers: list[tuple[bytes, bytes]]) -> JSON:
    """The scope the consumer gets after the middleware, for a socket without a token."""
    seen: JSON = {}

    async def inner(scope: JSON, receive: Any, send: Any) -> None:
        seen.update(scope)

    await TokenOrSessionMiddleware(inner)(
        {"type": "websocket", "scheme": "ws", "path": "/ws/", "headers": headers}, None, None)
    return seen


async def test_a_session_socket_from_another_port_is_anonymous() -> None:
    cookie = (b"cookie", b"sessionid=whatever")
    host = (b"host", b"127.0.0.1:8000")
    foreign = await seen_by_the_app([cookie, host, (b"origin", b"http://127.0.0.1:9999")])
    assert foreign["auth"] == "bad_origin"
    assert not foreign["user"].is_authenticated
    own = await seen_by_the_app([cookie, host, (b"origin", b"http://127.0.0.1:8000")])
    assert own["auth"] == "session"  # the session middleware then finds the user
