"""Fair shares: one account's sockets are capped, its commands share one budget across its
sockets and HTTP, every socket type is rate limited, and what a socket sent before it
closed is dropped, not run (``games/live/live_limits.py``, ``games/live/socket_inbox.py``).

In process, with the Redis channel layer and Redis limits of the running configuration;
``tests/live/test_flood.py`` checks the same across two daphne processes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from accounts.models import AccessToken, Profile
from games.live import live_limits
from games.live.socket_inbox import SocketInbox
from tests.asgi_app import application
from tests.server.conftest import LIVE

from .test_consumers import TIMEOUT, Players, drain, fingerprint, path, token_headers

pytestmark = LIVE  # transactions, the live channel layer


@pytest.fixture
def players() -> Players:
    return Players()


@pytest.fixture
def small_shares(settings: Any) -> Any:
    settings.MAX_SOCKETS_PER_USER = 3
    settings.USER_COMMANDS_PER_S = 0.5  # a command every 2 s once the burst is spent
    settings.USER_COMMAND_BURST = 4.0
    return settings


@pytest.fixture(autouse=True)
def _fresh_shares(redis_url: str) -> Any:
    """No socket members or budgets left from an earlier test's users (ids are reused)."""
    import redis

    client = redis.Redis.from_url(redis_url)

    def clear() -> None:
        for key in client.scan_iter("live:*"):
            client.delete(key)

    clear()
    live_limits._bots = (0.0, frozenset())
    live_limits._over_budget_until.clear()
    yield
    clear()


async def connect(match_id: Any, token: str) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    comm = WebsocketCommunicator(application(), path(match_id), headers=token_headers(token))
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert connected, code
    return comm, await comm.receive_json_from(timeout=TIMEOUT)


async def closed_code(comm: WebsocketCommunicator) -> int | None:
    output = await comm.receive_output(timeout=TIMEOUT)
    assert output["type"] == "websocket.close", output
    return output.get("code")


async def test_past_the_cap_a_socket_is_refused_with_a_reason(players: Players,
                                                                small_shares: Any) -> None:
    token = players.tokens["alice"]
    open_ones = [await connect(players.match.pk, token) for _ in range(3)]
    assert all(first["type"] == "state" for _, first in open_ones)
    refused, message = await connect(players.match.pk, token)
    assert (message["type"], message["code"]) == ("error", "too_many_sockets")
    assert "3" in message["message"]
    assert await closed_code(refused) == live_limits.TOO_MANY_SOCKETS_CLOSE_CODE
    # Closing one makes room for one more.
    await open_ones[0][0].disconnect()
    again, first = await connect(players.match.pk, token)
    assert first["type"] == "state"
    for comm, _ in [*open_ones[1:], (again, None)]:
        await comm.disconnect()


async def test_the_cap_counts_each_account_apart(players: Players, small_shares: Any) -> None:
    alice = [await connect(players.match.pk, players.tokens["alice"]) for _ in range(3)]
    bob, first = await connect(players.match.pk, players.tokens["bob"])
    assert first["type"] == "state"
    for comm, _ in [*alice, (bob, None)]:
        await comm.disconnect()


async def test_notification_sockets_count_in_the_same_cap(players: Players,
                                                          small_shares: Any) -> None:
    token = players.tokens["alice"]
    matches = [await connect(players.match.pk, token) for _ in range(3)]
    notify = WebsocketCommunicator(application(), "/ws/notifications/",
                                   headers=token_headers(token))
    connected, _ = await notify.connect(timeout=TIMEOUT)
    assert connected
    message = await notify.receive_json_from(timeout=TIMEOUT)
    assert message["code"] == "too_many_sockets"
    assert await closed_code(notify) == live_limits.TOO_MANY_SOCKETS_CLOSE_CODE
    for comm, _ in matches:
        await comm.disconnect()


async def test_a_socket_that_fails_gives_its_place_back(players: Players, small_shares: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A handler that raises skips Channels' ``disconnect``: without PlatformConsumer the
    account's place stayed held, and a page reconnecting each time locked the account out."""
    from tournaments import consumers as notification_consumers

    def broken(user_id: int) -> list[dict[str, Any]]:
        raise RuntimeError("a failing query")

    monkeypatch.setattr(notification_consumers, "pending_for", broken)
    token = players.tokens["alice"]
    for _ in range(4):  # more than the cap of 3
        notify = WebsocketCommunicator(application(), "/ws/notifications/",
                                       headers=token_headers(token))
        connected, _ = await notify.connect(timeout=TIMEOUT)
        assert connected
        with pytest.raises(RuntimeError):
            await notify.receive_output(timeout=TIMEOUT)
    open_ones = [await connect(players.match.pk, token) for _ in range(3)]
    assert all(first["type"] == "state" for _, first in open_ones)
    for comm, _ in open_ones:
        await comm.disconnect()


async def test_the_platforms_computer_player_has_no_cap(players: Players,
                                                        small_shares: Any) -> None:
    await database_sync_to_async(
        lambda: Profile.objects.filter(user=players.alice).update(is_bot=True))()
    sockets = [await connect(players.match.pk, players.tokens["alice"]) for _ in range(5)]
    assert all(first["type"] == "state" for _, first in sockets)
    for comm, _ in sockets:
        await comm.disconnect()


async def test_one_command_budget_across_an_accounts_sockets(players: Players,
                                                             small_shares: Any) -> None:
    first, _ = await connect(players.match.pk, players.tokens["alice"])
    second, _ = await connect(players.match.pk, players.tokens["alice"])
    before = await fingerprint(players.match.pk)
    try:
        for _ in range(4):  # the burst, spent on the first socket
            await first.send_json_to({"type": "sync"})
        states = [m for m in await drain(first) if m["type"] == "state"]
        assert len(states) == 4
        await second.send_json_to({"type": "sync"})
        await second.send_json_to({"type": "command", "id": "c1", "version": 10**9,
                                   "action": {"seat": 0, "type": "pass"}})
        answers = await drain(second)
        assert [(m["type"], m["code"]) for m in answers] == [
            ("error", "rate_limited"), ("result", "rate_limited")]
        assert answers[1]["id"] == "c1" and answers[1]["ok"] is False
        assert await fingerprint(players.match.pk) == before
    finally:
        await first.disconnect()
        await second.disconnect()


async def test_http_commands_share_the_sockets_budget(players: Players,
                                                      small_shares: Any) -> None:
    sock, _ = await connect(players.match.pk, players.tokens["alice"])
    try:
        for _ in range(4):
            await sock.send_json_to({"type": "sync"})
        assert len(await drain(sock)) == 4
    finally:
        await sock.disconnect()

    def post() -> Any:
        return Client().post(f"/api/matches/{players.match.pk}/commands",
                             data={"version": 10**9, "action": {"seat": 0, "type": "pass"}},
                             content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {players.tokens['alice']}")

    response = await database_sync_to_async(post)()
    assert response.status_code == 429
    assert response.json()["code"] == "rate_limited"
    assert response["Retry-After"] == "1"
    await asyncio.sleep(2.1)  # two seconds refill one command
    assert (await database_sync_to_async(post)()).status_code == 409  # stale, but served


async def test_the_notification_socket_is_rate_limited(players: Players) -> None:
    notify = WebsocketCommunicator(application(), "/ws/notifications/",
                                   headers=token_headers(players.tokens["alice"]))
    connected, _ = await notify.connect(timeout=TIMEOUT)
    assert connected
    try:
        for _ in range(40):
            await notify.send_json_to({"type": "ping"})
        seen = await drain(notify)
        pongs = [m for m in seen if m["type"] == "pong"]
        limited = [m for m in seen if m.get("code") == "rate_limited"]
        assert 5 <= len(pongs) <= 7  # the burst of 5, and what a second refills
        assert limited
    finally:
        await notify.disconnect()


async def test_a_revoked_tokens_budget_and_sockets_are_released(players: Players,
                                                                 small_shares: Any) -> None:
    """A socket's member goes when it closes, however it closes (here: revoked)."""
    from accounts.credentials import do_revoke_token

    token, raw = await database_sync_to_async(AccessToken.issue)(players.alice, "extra")
    sockets = [await connect(players.match.pk, raw) for _ in range(3)]
    await database_sync_to_async(do_revoke_token)(players.alice, token.pk)
    for comm, _ in sockets:
        assert await closed_code(comm) == 4401
        await comm.disconnect()
    again, first = await connect(players.match.pk, players.tokens["alice"])
    assert first["type"] == "state"
    await again.disconnect()


# --- the inbox: what a closed socket had sent is dropped ---

class FakeConnection:
    """What daphne hands a consumer: messages that arrived, in order."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def receive(self) -> dict[str, Any]:
        return await self.queue.get()


async def test_messages_waiting_when_the_socket_closes_are_dropped() -> None:
    connection = FakeConnection()
    inbox = SocketInbox(connection.receive)
    await connection.queue.put({"type": "websocket.connect"})
    assert (await inbox.receive())["type"] == "websocket.connect"
    for index in range(50):  # sent while the consumer was busy with something else
        await connection.queue.put({"type": "websocket.receive", "text": str(index)})
    await connection.queue.put({"type": "websocket.disconnect", "code": 1000})
    await asyncio.sleep(0.05)  # the inbox reads them as they arrive
    assert (await inbox.receive())["type"] == "websocket.disconnect"
    assert inbox.dropped == 50
    inbox.close()


async def test_the_inbox_hands_on_messages_in_order() -> None:
    connection = FakeConnection()
    inbox = SocketInbox(connection.receive)
    for index in range(5):
        await connection.queue.put({"type": "websocket.receive", "text": str(index)})
    received = [(await inbox.receive())["text"] for _ in range(5)]
    assert received == ["0", "1", "2", "3", "4"]
    assert inbox.dropped == 0
    inbox.close()


async def test_the_inbox_bounds_what_waits() -> None:
    connection = FakeConnection()
    inbox = SocketInbox(connection.receive, max_pending=8)
    await connection.queue.put({"type": "websocket.connect"})
    await inbox.receive()
    for index in range(20):
        await connection.queue.put({"type": "websocket.receive", "text": str(index)})
    await asyncio.sleep(0.05)
    received = [(await inbox.receive())["text"] for _ in range(8)]
    assert received == [str(i) for i in range(8)]
    assert inbox.dropped == 12
    inbox.close()


async def test_a_burst_of_openings_is_refused_before_any_lookup(
        players: Players, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_limits, "CONNECTS", live_limits.ConnectLimiter(rate=0.01, burst=2))
    token = players.tokens["alice"]
    opened = [await connect(players.match.pk, token) for _ in range(2)]
    refused, message = await connect(players.match.pk, token)
    assert (message["type"], message["code"]) == ("error", "rate_limited")
    assert await closed_code(refused) == live_limits.FLOOD_CLOSE_CODE
    # Another credential of the same account is counted apart (its cap still applies).
    bob, first = await connect(players.match.pk, players.tokens["bob"])
    assert first["type"] == "state"
    for comm, _ in [*opened, (bob, None)]:
        await comm.disconnect()


def test_the_connect_limiter_forgets_the_oldest_credentials() -> None:
    limiter = live_limits.ConnectLimiter(rate=0.01, burst=1, remembered=2)
    assert limiter.allow("a") and limiter.allow("b")
    assert not limiter.allow("a")
    assert limiter.allow("c")  # "b" was the least recently seen: forgotten
    assert limiter.allow("b")


async def test_a_computer_players_token_opens_past_the_burst(
        players: Players, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once its token is known to be a computer account's, the runner's sockets (one a
    match) are not held back by the openings' limit."""
    from accounts.computer import computer_account
    from accounts.models import AccessToken
    from games.reads.db_calls import read_in_writer

    monkeypatch.setattr(live_limits, "CONNECTS", live_limits.ConnectLimiter(rate=0.01, burst=1))
    monkeypatch.setattr(live_limits, "_bots", (0.0, frozenset()))  # read the bots again
    computer = await read_in_writer(computer_account)
    _row, raw = await read_in_writer(AccessToken.issue, computer, "tests")
    opened = [await connect(players.match.pk, raw) for _ in range(4)]
    assert all(message["type"] != "error" or message["code"] != "rate_limited"
               for _, message in opened)
    for comm, _ in opened:
        await comm.disconnect()
    # Revoked, the token is counted like any other again.
    await read_in_writer(lambda: AccessToken.objects.filter(pk=_row.pk).update(
        revoked_at=timezone.now()))
    answers = []
    for _ in range(3):
        comm = WebsocketCommunicator(application(), path(players.match.pk),
                                     headers=token_headers(raw))
        connected, _code = await comm.connect(timeout=TIMEOUT)
        answers.append(await comm.receive_json_from(timeout=TIMEOUT) if connected else None)
        await comm.disconnect()
    assert answers[-1] is not None and answers[-1].get("code") == "rate_limited", answers
