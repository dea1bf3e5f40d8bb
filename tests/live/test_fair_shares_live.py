"""Fair shares and lost rights across two daphne processes (the real stack).

One account's sockets are capped across both processes, its commands share one budget on
both, and a password changed through one process closes the other sessions' sockets on
both within a second.
"""

from __future__ import annotations

import asyncio
import http.cookies
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import websockets
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import AccessToken
from bench.stack import Stack
from games.play.services import do_create_match
from tests.conftest import TEST_COMMAND_BUDGET

from .helpers import make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
PASSWORD = "pw-live-alice-4321"


@pytest.fixture(scope="module")
def default_stack(live_stack: Stack, tmp_path_factory: pytest.TempPathFactory,
                  ) -> Iterator[Stack]:
    """Two daphnes at the platform's own fair-share defaults (the shared stack lifts the
    command budget for the other tests' fast players), on the same database and Redis."""
    env = dict(live_stack.env)
    for name in TEST_COMMAND_BUDGET:
        env.pop(name, None)
    stack = Stack(env, tmp_path_factory.mktemp("fair-shares"), web_processes=2)
    stack.start_web()
    try:
        stack.wait_ready()
        yield stack
    finally:
        stack.stop()


def ws_url(base: str, match_id: Any) -> str:
    return "ws" + base[len("http"):] + f"/ws/matches/{match_id}/"


async def open_socket(url: str, headers: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    sock = await websockets.connect(url, additional_headers=headers)
    return sock, orjson.loads(await sock.recv())


async def close_code(sock: Any, timeout: float = 5) -> int | None:
    try:
        while True:
            await asyncio.wait_for(sock.recv(), timeout)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


def test_one_accounts_sockets_are_capped_across_both_processes(default_stack: Stack) -> None:
    alice, token = make_player("alice")
    bob, _ = make_player("bob")
    match = do_create_match(alice, bob, rated=False)
    cap = settings.MAX_SOCKETS_PER_USER
    # The cap is the account's, whatever credential opens the sockets: several tokens, so
    # that no one token opens more at once than it may (4429).
    tokens = [token, *(AccessToken.issue(alice, f"t{i}")[1] for i in range(5))]

    async def flood() -> tuple[int, list[int | None]]:
        accepted, refusals, opened = 0, [], []
        for index in range(cap + 6):
            url = ws_url(default_stack.urls[index % 2], match.pk)
            credential = {"Authorization": f"Bearer {tokens[index % len(tokens)]}"}
            sock, first = await open_socket(url, credential)
            if first["type"] == "state":
                accepted += 1
                opened.append(sock)
            else:
                assert first["code"] == "too_many_sockets", first
                refusals.append(await close_code(sock))
        # Room again once one closes (on either process).
        await opened.pop().close()
        await asyncio.sleep(0.2)
        sock, first = await open_socket(ws_url(default_stack.urls[0], match.pk),
                                        {"Authorization": f"Bearer {token}"})
        assert first["type"] == "state"
        opened.append(sock)
        for sock in opened:
            await sock.close()
        return accepted, refusals

    accepted, refusals = asyncio.run(flood())
    assert accepted == cap
    assert refusals == [4430] * 6


def test_one_command_budget_across_both_processes(default_stack: Stack) -> None:
    alice, token = make_player("alice")
    bob, _ = make_player("bob")
    match = do_create_match(alice, bob, rated=False)
    burst, rate = 30, 10  # the platform's defaults (config/settings.py)

    async def syncs() -> tuple[int, int, float]:
        headers = {"Authorization": f"Bearer {token}"}
        sockets = [(await open_socket(ws_url(default_stack.urls[i % 2], match.pk), headers))[0]
                   for i in range(4)]
        served = limited = 0
        started = time.monotonic()
        for _ in range(12):  # 48 syncs in all, under each socket's own limit of 20
            for sock in sockets:
                await sock.send('{"type": "sync"}')
        for sock in sockets:
            for _ in range(12):
                message = orjson.loads(await asyncio.wait_for(sock.recv(), 5))
                if message["type"] == "state":
                    served += 1
                elif message.get("code") == "rate_limited":
                    limited += 1
        elapsed = time.monotonic() - started
        for sock in sockets:
            await sock.close()
        return served, limited, elapsed

    served, limited, elapsed = asyncio.run(syncs())
    assert served + limited == 48
    assert served <= burst + rate * elapsed + 1
    assert limited >= 48 - burst - rate * elapsed - 1


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def post_form(base: str, session_key: str, path: str, fields: dict[str, str]) -> int:
    """A form of the live server posted by a signed-in browser (its CSRF token first)."""
    session = f"{settings.SESSION_COOKIE_NAME}={session_key}"
    with urllib.request.urlopen(urllib.request.Request(
            base + path, headers={"Cookie": session}), timeout=10) as page:
        html = page.read().decode()
        cookies = http.cookies.SimpleCookie()
        for header in page.headers.get_all("Set-Cookie") or []:
            cookies.load(header)
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert csrf is not None and settings.CSRF_COOKIE_NAME in cookies, html[:500]
    body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": csrf.group(1)}).encode()
    request = urllib.request.Request(base + path, data=body, method="POST", headers={
        "Cookie": f"{session}; {settings.CSRF_COOKIE_NAME}="
                  f"{cookies[settings.CSRF_COOKIE_NAME].value}",
        "Referer": base + path, "Content-Type": "application/x-www-form-urlencoded"})
    try:
        return int(urllib.request.build_opener(NoRedirect).open(request, timeout=10).status)
    except urllib.error.HTTPError as answer:
        return int(answer.code)


def signed_in_session() -> str:
    client = Client()
    assert client.login(username="alice", password=PASSWORD)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def test_a_password_change_on_one_process_closes_other_sessions_on_both(
        default_stack: Stack) -> None:
    alice = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = User.objects.create_user("bob")
    match = do_create_match(alice, bob, rated=False)
    session_a, session_b = signed_in_session(), signed_in_session()
    urls = default_stack.urls

    def cookie(key: str, base: str) -> dict[str, str]:
        return {"Cookie": f"{settings.SESSION_COOKIE_NAME}={key}", "Origin": base}

    async def run() -> tuple[list[int | None], float, bool]:
        b_sockets = []
        for base in urls:  # session B on both processes
            sock, first = await open_socket(ws_url(base, match.pk), cookie(session_b, base))
            assert first["view"]["seat"] == 0, first
            b_sockets.append(sock)
        changed = await asyncio.to_thread(
            post_form, urls[0], session_a, "/accounts/password/change/",
            {"oldpassword": PASSWORD, "password1": "new-live-pw-8765", "password2":
             "new-live-pw-8765"})
        assert changed == 302
        answered = time.monotonic()
        codes = await asyncio.gather(*(close_code(sock, timeout=3) for sock in b_sockets))
        within = time.monotonic() - answered
        # B cannot act any more: a socket it opens now is a spectator's.
        sock, first = await open_socket(ws_url(urls[1], match.pk), cookie(session_b, urls[1]))
        spectator = first["view"]["seat"] is None
        await sock.close()
        return list(codes), within, spectator

    codes, within, spectator = asyncio.run(run())
    assert codes == [4401, 4401]
    assert within < 1.0
    assert spectator
