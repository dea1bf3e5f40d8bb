"""Fuzzing the match websocket of a live daphne with Hypothesis.

Every message field gets a strategy: type, action and each action field, version, id,
plus junk of every JSON type, huge numbers, NUL bytes, deep nesting, text that is not
JSON and binary frames. Each message is sent over a real socket (players of both seats
and a spectator) and must be answered (`result`, `error`, `state` or `pong`), never by
closing the socket with 1011 or a traceback in the server's log; a refused command must
leave the match's version as it was (read back with GET /api/matches/<id>).
"""

from __future__ import annotations

import itertools
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bots.client import Api

from .helpers import make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# WS_FUZZ_EXAMPLES raises it for a longer run by hand.
EXAMPLES = int(os.environ.get("WS_FUZZ_EXAMPLES", "200"))
ANSWER_TIMEOUT_S = 10
MIN_GAP_S = 0.12  # per socket: under the server's 10 messages a second
# A table that no clock moves while the test runs: only commands change its version.
SLOW = {"bank_s": 86_400, "delay_s": 3_600, "grace_s": 3_600}
ANSWERS = {"result", "error", "state", "pong"}

# ------------------------------------------------------------------ strategies

HUGE = st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**30, 1e308, -1e308, 5e-324, 2**53 + 1])
NUL_TEXT = st.text(max_size=8).map(lambda s: s + "\x00" + s)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False,
                    allow_infinity=False), st.text(max_size=12), HUGE, NUL_TEXT)


def nested(depth: int) -> Any:
    """``depth`` lists or objects inside each other (deeper ones are in RAW, as text)."""
    value: Any = 0
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value


DEEP = st.sampled_from([10, 100, 300]).map(nested)
JUNK = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)
ANY = st.one_of(SCALARS, JUNK, DEEP)

TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
PORTS = ["high", "low", "line_a", "line_b", "branch_a", "branch_b"]
ACTION_TYPES = ["play", "draw", "pass", "bid", "accept", "decline", "continue", "reveal",
                "resign", "abort"]


def field_of(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a well-formed value, sometimes anything at all."""
    return st.one_of(good, good, ANY)


ACTION = st.fixed_dictionaries({}, optional={
    "seat": field_of(st.sampled_from([0, 1])),
    "type": field_of(st.sampled_from(ACTION_TYPES)),
    "tile": field_of(st.sampled_from([*TILES, "6-1", "7-7", "1-²", "\x00"])),
    "target": field_of(st.sampled_from(TILES)),
    "port": field_of(st.sampled_from(PORTS)),
    "amount": field_of(st.integers(-5, 400).map(lambda v: v - v % 5) | HUGE),
})
COMMAND = st.fixed_dictionaries({"type": st.just("command")}, optional={
    "action": field_of(ACTION),
    "version": field_of(st.integers(-2, 40)),
    "id": field_of(st.text(max_size=70)),
    "extra": ANY,
})
OTHER = st.fixed_dictionaries({"type": field_of(st.sampled_from(["sync", "ping", "bogus"]))},
                              optional={"id": ANY, "version": ANY})


def as_text(value: Any) -> str:
    # Python's encoder: it writes integers past 64 bits, which orjson refuses to.
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def deep_text(depth: int, inside: str) -> str:
    """A command with ``depth`` nested lists as one field (orjson refuses past 1024)."""
    return f'{{"type": "command", "id": "deep", {inside}: {"[" * depth}{"]" * depth}}}'


RAW = st.sampled_from([
    "{not json", "", "null", "[]", '"command"', "7", '{"type": "command", "version": NaN}',
    '{"type": "command", "version": 1e309}', '{"type": "command", "action": Infinity}',
    '{"type": "\\u0000"}', '{"type": "command", "id": "\\ud800"}', "[" * 1100 + "]" * 1100,
    deep_text(1000, '"action"'), deep_text(1020, '"version"'), deep_text(1030, '"action"'),
    '{"type": "command", "action": {"seat": 0, "type": "bid", "amount": 1' + "0" * 400 + "}}",
    "x" * 5000,
])
# What each example sends, drawn first (an even choice, unlike one_of's leaning to its
# first branch): a legal command, a legal one with one field broken, or the rest. The
# draws never depend on the match (Hypothesis replays them): the legal action and the
# field to break are picked by index.
KINDS = ["legal", "legal", "stale", "broken", "broken", "command", "command", "other",
         "junk", "raw", "binary"]
ACTING = ("legal", "stale", "broken")  # sent by a player who has legal actions
INDEX = st.integers(0, 2**16)


def broken(data: st.DataObject, message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with one field of it or of its action replaced by junk, or left out."""
    target = message
    if data.draw(st.booleans(), label="in the action"):
        target = message["action"] = dict(message["action"])
    keys = sorted(target)
    key = keys[data.draw(INDEX, label="field") % len(keys)]
    junk = data.draw(ANY, label="junk")
    if data.draw(st.booleans(), label="left out") and key != "type":
        del target[key]
    else:
        target[key] = junk
    return message


def draw_message(data: st.DataObject, kind: str, legal: list[dict[str, Any]], version: int,
                 ) -> str | bytes:
    if kind in ACTING:
        pick = data.draw(INDEX, label="legal action")
        action = legal[pick % len(legal)] if legal else {"seat": 0, "type": "draw"}
        if kind == "stale":
            version += data.draw(st.sampled_from([-1, 1, 1000]), label="off by")
        message = {"type": "command", "action": action, "version": version,
                   "id": data.draw(st.text(max_size=8), label="id")}
        return as_text(broken(data, message) if kind == "broken" else message)
    if kind == "binary":
        return data.draw(st.binary(max_size=16), label="binary")
    if kind == "raw":
        return data.draw(RAW, label="raw")
    strategy = {"other": OTHER, "junk": ANY}.get(kind, COMMAND)
    return as_text(data.draw(strategy, label=kind))


# ------------------------------------------------------------------ the table

@dataclass
class Socket:
    conn: ClientConnection
    player: str
    last_send: float = 0.0


@dataclass
class Table:
    """A running match, its players' and a spectator's sockets, and who is who."""

    url: str
    tokens: dict[str, str]
    match_id: str = ""
    sockets: list[Socket] = field(default_factory=list)
    turn: itertools.cycle[int] = field(default_factory=lambda: itertools.cycle(range(5)))

    def open(self) -> None:
        self.close()
        alice = Api(self.url, self.tokens["alice"])
        bob = Api(self.url, self.tokens["bob"])
        seek = alice.call("POST", "/api/seeks", {"opponent": "bob", "rated": False,
                                                 "rules": SLOW})["seek"]
        self.match_id = str(bob.call("POST", f"/api/seeks/{seek}/accept")["match"]["id"])
        ws = "ws" + self.url[len("http"):] + f"/ws/matches/{self.match_id}/"
        for name in ("alice", "alice", "bob", "bob", "carol"):  # carol watches
            conn = connect(ws, additional_headers={"Authorization": f"Bearer {self.tokens[name]}"},
                           proxy=None, open_timeout=10, max_size=2**22, legacy=True)
            first = orjson.loads(conn.recv(timeout=ANSWER_TIMEOUT_S))
            assert first["type"] == "state", first
            self.sockets.append(Socket(conn, name))

    def close(self) -> None:
        for socket in self.sockets:
            socket.conn.close()
        self.sockets.clear()

    def snapshot(self, player: str = "alice") -> dict[str, Any]:
        return Api(self.url, self.tokens[player]).call("GET", f"/api/matches/{self.match_id}")

    def next_socket(self, acting: bool) -> tuple[Socket, dict[str, Any]]:
        """The next socket (for ``acting``, one of a player with legal actions), paced under
        the rate limit, and its player's snapshot."""
        for _ in range(len(self.sockets)):
            socket = self.sockets[next(self.turn)]
            seen = self.snapshot(socket.player)
            if not acting or seen.get("view", {}).get("legal"):
                break
        wait = socket.last_send + MIN_GAP_S - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        socket.last_send = time.monotonic()
        return socket, seen


def answer_to(socket: Socket, sent: str | bytes) -> dict[str, Any]:
    """The server's answer to what was just sent (broadcast states of others skipped)."""
    try:
        parsed = orjson.loads(sent)
    except orjson.JSONDecodeError:
        parsed = None
    kind = parsed.get("type") if isinstance(parsed, dict) else None
    end = time.monotonic() + ANSWER_TIMEOUT_S
    while True:
        try:
            raw = socket.conn.recv(timeout=max(0.0, end - time.monotonic()))
        except ConnectionClosed as exc:
            raise AssertionError(
                f"the server closed the socket ({exc.rcvd}) on {sent!r:.300}") from None
        except TimeoutError:
            raise AssertionError(f"no answer in {ANSWER_TIMEOUT_S} s to {sent!r:.300}") from None
        message = orjson.loads(raw)
        assert message.get("type") in ANSWERS, message
        if message["type"] == "state" and kind != "sync":
            continue  # a move broadcast, or the fresh snapshot after a stale command
        return dict(message)


def check_shape(message: dict[str, Any]) -> None:
    if message["type"] == "error":
        assert isinstance(message.get("code"), str) and message["code"], message
        assert isinstance(message.get("message"), str) and message["message"], message
    elif message["type"] == "result":
        assert isinstance(message["ok"], bool) and isinstance(message["code"], str), message
        assert isinstance(message["version"], int), message
        assert message["ok"] or message["message"], message


# ------------------------------------------------------------------ the test

@pytest.fixture
def table(live_stack: Any) -> Any:
    tokens = {name: make_player(name)[1] for name in ("alice", "bob", "carol")}
    made = Table(live_stack.url, tokens)
    made.open()
    logs = sorted(live_stack.workdir.glob("web*.log"))
    sizes = {log: log.stat().st_size for log in logs}
    yield made
    made.close()
    for log in logs:  # nothing the fuzzer sent may reach the server's error log
        written = log.read_bytes()[sizes[log]:].decode(errors="replace")
        assert "Traceback" not in written, written[-4000:]


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_message_is_answered_and_a_refused_one_changes_nothing(
        table: Table, data: st.DataObject) -> None:
    # A fuzzed resign or abort ended the match, or an earlier failing example got its
    # socket closed (Hypothesis then replays it): a new table, new sockets.
    closed = any(socket.conn.close_code is not None for socket in table.sockets)
    if closed or table.snapshot()["match"]["status"] != "active":
        table.open()
    kind = data.draw(st.sampled_from(KINDS), label="kind")
    socket, seen = table.next_socket(acting=kind in ACTING)
    before = seen["version"]
    message = draw_message(data, kind, seen.get("view", {}).get("legal", []), before)
    socket.conn.send(message)
    answer = answer_to(socket, message)
    check_shape(answer)
    refused = answer["type"] == "error" or (answer["type"] == "result" and not answer["ok"])
    if refused or answer["type"] in ("pong", "state"):
        assert table.snapshot()["version"] == before, (message, answer)
