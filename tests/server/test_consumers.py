"""The match websocket (games/live/consumers.py) and its authentication (games/live/ws_auth.py).

In process, through ``config.asgi.application`` with Channels' communicator; the
channel layer is the Redis one when REDIS_URL is set (``make test`` sets it), so the
broadcasts travel exactly as between daphne processes.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import AccessToken
from games.models import Match, MatchEvent
from games.play.services import do_command, do_create_match
from tests.asgi_app import application
from tests.server.conftest import LIVE

pytestmark = LIVE  # transactions, the live channel layer

JSON = dict[str, Any]
TIMEOUT = 5


# ------------------------------------------------------------------ helpers

class Players:
    def __init__(self) -> None:
        self.alice = User.objects.create_user("alice")
        self.bob = User.objects.create_user("bob")
        self.carol = User.objects.create_user("carol")  # a spectator
        self.tokens = {user.username: AccessToken.issue(user, "tests")[1]
                       for user in (self.alice, self.bob, self.carol)}
        self.match = do_create_match(self.alice, self.bob, rated=False)
        self.users = (self.alice, self.bob)

    def session_cookie(self, user: User) -> str:
        client = Client()
        client.force_login(user)
        return client.cookies[django_settings.SESSION_COOKIE_NAME].value


@pytest.fixture
def players() -> Players:
    return Players()


def path(match_id: Any) -> str:
    return f"/ws/matches/{match_id}/"


def token_headers(token: str, origin: str | None = None,
                  host: str = "localhost") -> list[tuple[bytes, bytes]]:
    headers = [(b"authorization", f"Bearer {token}".encode()), (b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return headers


def session_headers(sessionid: str, origin: str | None,
                    host: str = "localhost") -> list[tuple[bytes, bytes]]:
    headers = [(b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={sessionid}".encode()),
               (b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return headers


async def open_socket(match_id: Any, headers: list[tuple[bytes, bytes]]) -> tuple[
        WebsocketCommunicator, JSON]:
    """Connect and read the snapshot every connection gets first."""
    comm = WebsocketCommunicator(application(), path(match_id), headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    first = await comm.receive_json_from(timeout=TIMEOUT)
    assert first["type"] == "state", first
    return comm, first


async def receive_until(comm: WebsocketCommunicator, predicate: Callable[[JSON], bool],
                        timeout: float = TIMEOUT) -> tuple[JSON, list[JSON]]:
    """Read until a message matches (broadcasts and results come in any order)."""
    seen: list[JSON] = []
    while True:
        message = await comm.receive_json_from(timeout=timeout)
        seen.append(message)
        if predicate(message):
            return message, seen


async def drain(comm: WebsocketCommunicator, quiet: float = 0.5) -> list[JSON]:
    """Everything that arrives until the socket has been quiet for ``quiet`` seconds.

    (A timeout on ``receive_json_from`` would cancel the consumer, so this polls.)
    """
    seen: list[JSON] = []
    while not await comm.receive_nothing(timeout=quiet):
        seen.append(await comm.receive_json_from(timeout=TIMEOUT))
    return seen


def is_type(kind: str, **fields: Any) -> Callable[[JSON], bool]:
    def check(message: JSON) -> bool:
        return message.get("type") == kind and all(message.get(k) == v for k, v in fields.items())

    return check


async def current(match_id: Any) -> Match:
    return await database_sync_to_async(Match.objects.get)(pk=match_id)


async def fingerprint(match_id: Any) -> tuple[Any, ...]:
    def read() -> tuple[Any, ...]:
        match = Match.objects.get(pk=match_id)
        return (match.version, bytes(match.state or b""), match.status,
                MatchEvent.objects.filter(match=match).count())

    return await database_sync_to_async(read)()


@asynccontextmanager
async def unchanged_socket(players: Players, name: str
                           ) -> AsyncIterator[tuple[WebsocketCommunicator, JSON]]:
    """``name``'s socket on the match and its snapshot; the match must be unchanged when
    the block ends."""
    comm, snap = await open_socket(players.match.pk, token_headers(players.tokens[name]))
    try:
        before = await fingerprint(players.match.pk)
        yield comm, snap
        assert await fingerprint(players.match.pk) == before
    finally:
        await comm.disconnect()


async def assert_forbidden(comm: WebsocketCommunicator, match_id: Any, command: JSON) -> None:
    """``command`` is refused as forbidden and changes nothing."""
    before = await fingerprint(match_id)
    await comm.send_json_to(command)
    error, _ = await receive_until(comm, lambda m: m["type"] in ("error", "result"))
    assert (error["type"], error["code"]) == ("error", "forbidden")
    assert await fingerprint(match_id) == before


async def start_hand(players: Players) -> None:
    for seat in (0, 1):
        result = await database_sync_to_async(do_command)(
            players.match.pk, players.users[seat], {"action": {"seat": seat, "type": "continue"}})
        assert result.ok, result


# -------------------------------------------------------------------- tests

async def test_a_token_socket_gets_its_seat_snapshot(players) -> None:
    comm, snap = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    try:
        match = await current(players.match.pk)
        assert snap["version"] == match.version
        assert snap["match"]["id"] == str(players.match.pk)
        assert snap["match"]["players"] == ["alice", "bob"]
        assert snap["view"]["seat"] == 0
        assert len(snap["view"]["hand"]) == 7
        assert snap["view"]["legal"] == [{"seat": 0, "type": "continue"}]
        assert "views" not in snap
        await comm.send_json_to({"type": "ping"})
        pong, _ = await receive_until(comm, is_type("pong"))
        assert isinstance(pong["server_time"], float)
        await comm.send_json_to({"type": "sync"})
        again, _ = await receive_until(comm, is_type("state"))
        assert again["view"] == snap["view"]
    finally:
        await comm.disconnect()


async def test_a_session_socket_from_an_allowed_origin_gets_its_seat(players) -> None:
    sessionid = await database_sync_to_async(players.session_cookie)(players.bob)
    comm, snap = await open_socket(players.match.pk,
                                   session_headers(sessionid, "http://localhost"))
    try:
        assert snap["view"]["seat"] == 1
        assert "hand" in snap["view"]
        await comm.send_json_to({"type": "command", "id": "c1", "version": snap["version"],
                                 "action": {"seat": 1, "type": "continue"}})
        result, _ = await receive_until(comm, is_type("result"))
        assert (result["id"], result["ok"], result["code"]) == ("c1", True, "ok")
    finally:
        await comm.disconnect()


@pytest.mark.parametrize("origin", ["http://evil.example", None])
async def test_a_session_socket_from_a_foreign_or_no_origin_is_a_spectator(players,
                                                                           origin) -> None:
    sessionid = await database_sync_to_async(players.session_cookie)(players.alice)
    comm, snap = await open_socket(players.match.pk, session_headers(sessionid, origin))
    try:
        assert snap["view"]["seat"] is None
        assert "hand" not in snap["view"]
        assert snap["view"]["legal"] == []
        await assert_forbidden(comm, players.match.pk, {
            "type": "command", "id": "x", "version": snap["version"],
            "action": {"seat": 0, "type": "continue"}})
    finally:
        await comm.disconnect()


@pytest.mark.parametrize("how", ["bad_token", "revoked_token", "token_foreign_origin"])
async def test_a_socket_without_valid_credentials_is_a_spectator(players, how) -> None:
    token = players.tokens["alice"]
    origin = None
    if how == "bad_token":
        token = "sbt_" + "x" * 43
    elif how == "revoked_token":
        await database_sync_to_async(
            AccessToken.objects.filter(user=players.alice).update)(revoked_at=timezone.now())
    else:
        origin = "http://evil.example"
    comm, snap = await open_socket(players.match.pk, token_headers(token, origin))
    try:
        assert snap["view"]["seat"] is None
        assert "hand" not in snap["view"]
        await assert_forbidden(comm, players.match.pk, {
            "type": "command", "version": snap["version"],
            "action": {"seat": 0, "type": "continue"}})
    finally:
        await comm.disconnect()


async def test_a_token_socket_from_an_allowed_origin_keeps_its_seat(players) -> None:
    comm, snap = await open_socket(players.match.pk,
                                   token_headers(players.tokens["bob"], "http://127.0.0.1:8000",
                                                 host="127.0.0.1:8000"))
    try:
        assert snap["view"]["seat"] == 1
    finally:
        await comm.disconnect()


async def test_an_unknown_match_is_refused(players) -> None:
    comm = WebsocketCommunicator(application(), path(uuid.uuid4()),
                                 headers=token_headers(players.tokens["alice"]))
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert (connected, code) == (False, 4404)


async def test_malformed_messages_get_errors(players) -> None:
    async with unchanged_socket(players, "alice") as (comm, _):
        cases: list[tuple[dict[str, Any], str]] = [
            ({"text_data": "{not json"}, "bad_json"),
            ({"text_data": json.dumps({"type": "dance"})}, "unknown_type"),
            ({"text_data": json.dumps([1, 2, 3])}, "unknown_type"),
            ({"text_data": json.dumps("command")}, "unknown_type"),
            ({"text_data": json.dumps({"no": "type"})}, "unknown_type"),
            ({"bytes_data": b'{"type": "ping"}'}, "bad_request"),
            ({"text_data": json.dumps({"type": "ping", "pad": "x" * 5000})}, "bad_request"),
        ]
        for frame, code in cases:
            await comm.send_to(**frame)
            message = await comm.receive_json_from(timeout=TIMEOUT)
            assert (message["type"], message["code"]) == ("error", code), frame
            assert message["message"]
        # A malformed command is answered with a result, not applied.
        await comm.send_json_to({"type": "command", "id": "m1", "action": {"seat": 0},
                                 "version": 1})
        result, _ = await receive_until(comm, is_type("result"))
        assert (result["id"], result["ok"], result["code"]) == ("m1", False, "bad_request")
        await comm.send_json_to({"type": "command", "id": "m2"})
        result, _ = await receive_until(comm, is_type("result"))
        assert (result["id"], result["code"]) == ("m2", "bad_request")


async def test_a_command_for_the_other_seat_is_forbidden(players) -> None:
    async with unchanged_socket(players, "alice") as (comm, snap):
        await comm.send_json_to({"type": "command", "id": "f1", "version": snap["version"],
                                 "action": {"seat": 1, "type": "continue"}})
        result, _ = await receive_until(comm, is_type("result"))
        assert (result["id"], result["ok"], result["code"]) == ("f1", False, "forbidden")
        assert result["message"]


async def test_a_replayed_version_is_stale_and_resyncs(players) -> None:
    await start_hand(players)
    match = await current(players.match.pk)
    from games.play.store import load_engine

    engine = await database_sync_to_async(load_engine)(match)
    seat = engine.to_act()
    assert seat is not None
    action = engine.view(seat)["legal"][0]
    name = players.users[seat].username
    comm, snap = await open_socket(players.match.pk, token_headers(players.tokens[name]))
    other, _ = await open_socket(players.match.pk,
                                 token_headers(players.tokens[players.users[1 - seat].username]))
    try:
        assert snap["version"] == match.version
        # Apply it once, then replay the very same message.
        message = {"type": "command", "id": "s1", "version": snap["version"], "action": action}
        await comm.send_json_to(message)
        result, seen = await receive_until(comm, is_type("result", id="s1"))
        assert result["ok"], result
        applied = result["version"]
        assert applied > snap["version"]
        after_first = await fingerprint(players.match.pk)
        await comm.send_json_to({**message, "id": "s2"})
        stale, more = await receive_until(comm, is_type("result", id="s2"))
        assert (stale["ok"], stale["code"], stale["version"]) == (False, "stale", applied)
        seen += more + await drain(comm)
        # The broadcast of the first command, and a fresh snapshot after the stale result.
        states = [m for m in seen if m["type"] == "state"]
        assert [m["version"] for m in states] == [applied, applied]
        assert all(m["view"]["seat"] == seat for m in states)
        assert [m["id"] for m in seen if m["type"] == "result"] == ["s1", "s2"]
        assert await fingerprint(players.match.pk) == after_first
        # The other seat saw the first command's broadcast, and only one.
        states = [m for m in await drain(other) if m["type"] == "state"]
        assert [m["version"] for m in states] == [applied]
    finally:
        await comm.disconnect()
        await other.disconnect()


async def test_a_valid_command_reaches_both_players_and_spectators(players) -> None:
    a, snap_a = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    b, snap_b = await open_socket(players.match.pk, token_headers(players.tokens["bob"]))
    s, snap_s = await open_socket(players.match.pk, token_headers(players.tokens["carol"]))
    try:
        assert (snap_a["view"]["seat"], snap_b["view"]["seat"], snap_s["view"]["seat"]) == (
            0, 1, None)
        version = snap_a["version"]
        await a.send_json_to({"type": "command", "id": "v1", "version": version,
                              "action": {"seat": 0, "type": "continue"}})
        result, seen_a = await receive_until(a, is_type("result", id="v1"))
        assert result["ok"] and result["version"] == version + 1
        state_a = next((m for m in seen_a if m["type"] == "state"), None)
        if state_a is None:
            state_a, _ = await receive_until(a, is_type("state"))
        state_b, _ = await receive_until(b, is_type("state"))
        state_s, _ = await receive_until(s, is_type("state"))
        for state in (state_a, state_b, state_s):
            assert state["version"] == version + 1
            assert state["view"]["continued"] == [True, False]
        assert state_a["view"]["seat"] == 0 and state_a["view"]["legal"] == []
        assert state_b["view"]["seat"] == 1
        assert state_b["view"]["legal"] == [{"seat": 1, "type": "continue"}]
        assert state_a["view"]["hand"] == snap_a["view"]["hand"]
        assert state_b["view"]["hand"] == snap_b["view"]["hand"]
        assert "hand" not in state_s["view"] and state_s["view"]["legal"] == []

        # Bob starts the hand: the forced opening is played, everybody gets the new state.
        await b.send_json_to({"type": "command", "id": "v2", "version": version + 1,
                              "action": {"seat": 1, "type": "continue"}})
        result, _ = await receive_until(b, is_type("result", id="v2"))
        assert result["ok"]
        for comm in (a, b, s):
            state, _ = await receive_until(
                comm, lambda m: m["type"] == "state" and m["version"] == result["version"])
            assert state["view"]["phase"] == "play"
            assert len(state["view"]["board"]["tiles"]) == 1
        # Nothing else is pending for the spectator: no results, no errors.
        assert all(m["type"] == "state" for m in await drain(s, quiet=0.3))
    finally:
        for comm in (a, b, s):
            await comm.disconnect()


async def test_a_spectator_cannot_send_commands(players) -> None:
    async with unchanged_socket(players, "carol") as (comm, snap):
        assert snap["view"]["seat"] is None and snap["view"]["legal"] == []
        for seat, kind in ((0, "continue"), (1, "continue"), (0, "resign"), (1, "abort")):
            await assert_forbidden(comm, players.match.pk, {
                "type": "command", "version": snap["version"],
                "action": {"seat": seat, "type": kind}})


async def test_a_flood_is_rate_limited_and_changes_nothing(players) -> None:
    flood = 200
    async with unchanged_socket(players, "alice") as (comm, snap):
        # Every one of them would be illegal (a pass is never chosen) if processed.
        for i in range(flood):
            await comm.send_json_to({"type": "command", "id": f"f{i}", "version": snap["version"],
                                     "action": {"seat": 0, "type": "pass"}})
        seen = await drain(comm)
        results = [m for m in seen if m["type"] == "result"]
        errors = [m for m in seen if m["type"] == "error"]
        assert len(results) + len(errors) == len(seen), seen
        assert {m["code"] for m in results} <= {"illegal"}
        assert {m["code"] for m in errors} == {"rate_limited"}
        dropped = flood - len(results)
        assert dropped > 100  # the burst is 20, refilled at 10 per second
        assert len(errors) == (dropped + 19) // 20  # one error per 20 dropped messages
        # Still connected and served once the flood stops.
        await comm.send_json_to({"type": "ping"})
        pong = await comm.receive_json_from(timeout=TIMEOUT)
        assert pong["type"] == "pong"


async def test_a_one_device_socket_gets_both_views(players) -> None:
    from games.play.lobby import do_one_device

    match = await database_sync_to_async(do_one_device)(players.alice)
    comm, snap = await open_socket(match.pk, token_headers(players.tokens["alice"]))
    try:
        assert "view" not in snap
        assert [view["seat"] for view in snap["views"]] == [0, 1]
        await comm.send_json_to({"type": "command", "id": "d1", "version": snap["version"],
                                 "action": {"seat": 1, "type": "continue"}})
        result, _ = await receive_until(comm, is_type("result", id="d1"))
        assert result["ok"], result
        state, _ = await receive_until(
            comm, lambda m: m["type"] == "state" and m["version"] == result["version"])
        assert [view["continued"] for view in state["views"]] == [[False, True]] * 2
    finally:
        await comm.disconnect()
    # Bob may only watch Alice's one-device game.
    comm, snap = await open_socket(match.pk, token_headers(players.tokens["bob"]))
    try:
        assert snap["view"]["seat"] is None
    finally:
        await comm.disconnect()


async def test_a_token_in_the_query_string(players) -> None:
    comm = WebsocketCommunicator(application(),
                                 f"{path(players.match.pk)}?token={players.tokens['bob']}")
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    try:
        snap = await comm.receive_json_from(timeout=TIMEOUT)
        assert snap["view"]["seat"] == 1
    finally:
        await comm.disconnect()


async def test_an_idle_socket_survives_a_quiet_spell(players) -> None:
    comm, _ = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    try:
        await asyncio.sleep(6.5)  # a player thinking, nobody moving
        await comm.send_json_to({"type": "ping"})
        pong = await comm.receive_json_from(timeout=TIMEOUT)
        assert pong["type"] == "pong"
    finally:
        await comm.disconnect()


@pytest.fixture
async def one_writer_thread(monkeypatch) -> AsyncIterator[None]:
    """One writer thread that keeps its PostgreSQL connection between calls, as in
    production; nothing left open on the test database afterwards."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection, connections

    from games.reads import db_calls

    if connection.vendor != "postgresql":
        pytest.skip("ending another session's connection needs PostgreSQL")
    writer = ThreadPoolExecutor(1)
    monkeypatch.setattr(db_calls, "_executor", writer)
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 60)
    yield
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)

    def close_this_threads_connection() -> None:
        connection.close()

    await db_calls.run_in_writer(close_this_threads_connection)
    await database_sync_to_async(close_this_threads_connection)()
    writer.shutdown()


async def end_the_writers_session() -> None:
    """Terminate the PostgreSQL session of the (single) writer thread, as a restart would."""
    from django.db import connection

    from games.reads import db_calls

    def backend_pid() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return int(cursor.fetchone()[0])

    def end_session(pid: int) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            return bool(cursor.fetchone()[0])

    writer_pid = await db_calls.run_in_writer(backend_pid)
    assert await database_sync_to_async(end_session)(writer_pid)


async def test_a_command_after_the_database_connection_died_is_applied_once(
        players, one_writer_thread) -> None:
    """A writer's connection killed while idle (a database restart) costs one retry, no move."""
    a, snap = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    b, _ = await open_socket(players.match.pk, token_headers(players.tokens["bob"]))
    try:
        version = snap["version"]
        await a.send_json_to({"type": "command", "id": "c1", "version": version,
                              "action": {"seat": 0, "type": "continue"}})
        first, _ = await receive_until(a, is_type("result", id="c1"))
        assert first["ok"]
        await end_the_writers_session()
        await b.send_json_to({"type": "command", "id": "c2", "version": first["version"],
                              "action": {"seat": 1, "type": "continue"}})
        second, _ = await receive_until(b, is_type("result", id="c2"))
        assert second["ok"], second
        match = await current(players.match.pk)
        assert match.version == second["version"]
        events = await database_sync_to_async(
            lambda: list(MatchEvent.objects.filter(match=match, kind="action")
                         .values_list("seat", flat=True)))()
        assert events == [0, 1]  # each continue once, in order
    finally:
        for comm in (a, b):
            await comm.disconnect()


async def test_a_socket_opened_after_the_database_connection_died_gets_its_snapshot(
        players, one_writer_thread) -> None:
    """The connect's reads (token, match, snapshot) run on the writer threads: a connection
    killed while idle costs them one retry, not a refused socket."""
    comms = []
    try:
        a, snap = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
        comms.append(a)
        await end_the_writers_session()
        b, snap_b = await open_socket(players.match.pk, token_headers(players.tokens["bob"]))
        comms.append(b)
        assert snap_b["type"] == "state" and snap_b["version"] == snap["version"]
        assert "view" in snap_b
    finally:
        for comm in comms:
            await comm.disconnect()


async def test_stopping_the_writers_gives_back_their_connections(players) -> None:
    """What a test run does before it drops its database (tests/conftest.py): the writer
    threads keep their connections checked out for the life of the process otherwise."""
    from django.db import connection

    from games.reads import db_calls

    def select_one() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return 1

    await db_calls.run_in_writer(select_one)
    held = [wrapper for wrapper in db_calls._writer_connections
            if wrapper.connection is not None]
    assert held, "the writer thread holds no connection"
    await asyncio.get_running_loop().run_in_executor(None, db_calls.stop_writers)
    assert all(wrapper.connection is None for wrapper in held)
    assert db_calls._writer_connections == []
    # The next command starts the writers again.
    assert await db_calls.run_in_writer(select_one) == 1
