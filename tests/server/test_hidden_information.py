"""Nobody is ever sent a tile they may not see (spec §2), over a real match.

Two greedy clients play a rated match through the live stack (two daphne processes,
the Celery worker and beat) while a third user watches; every message each socket
received is kept. Afterwards the log is replayed event by event, which gives the true
position at every version. For each message, every tile-shaped string anywhere in it
(keys included) must be on the board at that version or in the recipient's own hand;
only the summary of a settled hand may show that hand's final hands and final board
(public once settled, and only there: a tile of a settled hand may be hidden again in
the next deal). A
tile leaked under any key, old or new, is caught; the board, the hand, the counts
must also be the true ones.
"""

from __future__ import annotations

import asyncio
import copy
import re
from dataclasses import dataclass
from typing import Any

import pytest

from games.dominoes.tiles import tile_name, tiles_in
from games.models import Match, MatchEvent
from games.play.services import do_create_match
from games.play.store import load_engine, rebuild, rules_of
from games.spectacular_bid import actions as A
from games.spectacular_bid.bot import choose
from games.spectacular_bid.record import deal_from_dict
from games.spectacular_bid.state import Match as Engine
from tests.live.helpers import connect, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

JSON = dict[str, Any]
TILE = re.compile(r"^[0-6]-[0-6]$")
HANDS_TO_PLAY = 2


@dataclass(frozen=True)
class Truth:
    """What the server knew after one version of the log."""

    board: frozenset[str]
    hands: tuple[frozenset[str], frozenset[str]]
    settled: frozenset[str]  # the final hands of settled hands: public
    final_hands: dict[int, list[list[str]]]  # hand index -> both final hands, once settled
    public_after: dict[int, frozenset[str]]  # hand index -> its final hands and final board
    hand_counts: tuple[int, int]
    boneyard_count: int


def names(mask: int) -> frozenset[str]:
    return frozenset(tile_name(t) for t in tiles_in(mask))


def truths_by_version(match: Match) -> dict[int, Truth]:
    """Replay the log one event at a time (as games.play.store does) and note each position."""
    engine = Engine(rules_of(match))
    out: dict[int, Truth] = {}
    for event in MatchEvent.objects.filter(match=match).order_by("seq"):
        if event.kind == MatchEvent.Kind.CHANCE:
            engine.deal(deal_from_dict(event.payload))
        elif event.kind == MatchEvent.Kind.ACTION:
            seat, code = A.action_from_dict(event.payload)
            engine.apply(seat, code, event.t_us)
        elif event.kind == MatchEvent.Kind.TIME:
            engine.advance(event.t_us)
        elif event.kind == MatchEvent.Kind.ANNUL:
            engine.annul(event.t_us)
        settled: set[str] = set()
        final_hands: dict[int, list[list[str]]] = {}
        public_after: dict[int, frozenset[str]] = {}
        for index, summary in enumerate(engine.hands_summary):
            if summary.final_hands is not None:
                shown = names(summary.final_hands[0]) | names(summary.final_hands[1])
                settled |= shown
                final_hands[index] = [sorted(names(mask)) for mask in summary.final_hands]
                final_board = getattr(summary, "final_board", None)
                if final_board is not None:
                    shown |= {tile_name(link.tile) for link in final_board.links}
                public_after[index] = frozenset(shown)
        out[event.seq] = Truth(
            board=frozenset(tile_name(link.tile) for link in engine.board.links),
            hands=(names(engine.hand_masks[0]), names(engine.hand_masks[1])),
            settled=frozenset(settled),
            final_hands=final_hands,
            public_after=public_after,
            hand_counts=(engine.hand_masks[0].bit_count(), engine.hand_masks[1].bit_count()),
            boneyard_count=engine.boneyard_left(),
        )
    return out


def tiles_and_keys(value: Any, tiles: set[str], keys: set[str]) -> None:
    """Every tile-shaped string anywhere in a JSON value (keys included), and every key."""
    if isinstance(value, dict):
        for key, item in value.items():
            keys.add(key)
            if TILE.match(key):
                tiles.add(key)
            tiles_and_keys(item, tiles, keys)
    elif isinstance(value, list):
        for item in value:
            tiles_and_keys(item, tiles, keys)
    elif isinstance(value, str) and TILE.match(value):
        tiles.add(value)


def leaks(message: JSON, seat: int | None, truths: dict[int, Truth]) -> list[str]:
    """What is wrong with one message for the recipient at ``seat`` (None: a spectator)."""
    tiles: set[str] = set()
    keys: set[str] = set()
    tiles_and_keys(message, tiles, keys)
    problems = [f"key {key!r}" for key in keys if "boneyard" in key and key != "boneyard_count"]
    if message.get("type") != "state":
        if tiles:
            problems.append(f"tiles {sorted(tiles)} in a {message.get('type')} message")
        return problems
    view = message.get("view")
    if "views" in message or not isinstance(view, dict):
        return [*problems, "not a single view"]
    truth = truths[message["version"]]
    # Settled hands are public, but only in the view's hand summaries: elsewhere a tile
    # must be on the board or in the recipient's own hand (a tile of a settled hand may
    # be hidden again in the next deal).
    summaries = view.get("hands", [])
    rest = copy.deepcopy(message)
    rest["view"].pop("hands", None)
    tiles = set()
    tiles_and_keys(rest, tiles, set())
    allowed = set(truth.board)
    if seat is not None:
        allowed |= truth.hands[seat]
    if tiles - allowed:
        problems.append(f"version {message['version']}: tiles {sorted(tiles - allowed)} "
                        f"leaked to seat {seat}")
    for summary in summaries:
        index = summary["hand"]
        shown: set[str] = set()
        tiles_and_keys(summary, shown, set())
        public = truth.public_after.get(index, frozenset())
        if shown - public:
            problems.append(f"version {message['version']}: hand {index} shows "
                            f"{sorted(shown - public)}")
        if "hands" in summary and [sorted(h) for h in summary["hands"]] != truth.final_hands.get(
                index):
            problems.append(f"version {message['version']}: hand {index} shows wrong hands")
        if "hands" not in summary and index in truth.final_hands:
            problems.append(f"version {message['version']}: settled hand {index} not shown")
    if view.get("seat") != seat:
        problems.append(f"the view of seat {view.get('seat')} went to seat {seat}")
    if seat is None:
        problems += [f"a spectator got {key!r}" for key in ("hand", "must_play") if key in view]
        if view.get("legal"):
            problems.append("a spectator got legal actions")
    elif view.get("phase") != "deal" and "hand" in view and set(view["hand"]) != truth.hands[seat]:
        problems.append(f"version {message['version']}: seat {seat} was sent a wrong hand")
    if "board" in view:
        board = {link["tile"] for link in view["board"]["tiles"]}
        if board != truth.board:
            problems.append(f"version {message['version']}: the board is not the true board")
        if tuple(view["hand_counts"]) != truth.hand_counts:
            problems.append(f"version {message['version']}: wrong hand counts")
        if view["boneyard_count"] != truth.boneyard_count:
            problems.append(f"version {message['version']}: wrong boneyard count")
    return problems


async def play_greedy(conn: Any, stop: Any, timeout: float = 45) -> JSON:
    """The greedy policy, acting once per version on the newest view only.

    Broadcasts from two daphne processes may arrive out of order and after the result
    of a later command, and a socket may send 10 messages a second (the client also
    syncs after each result): so this acts only on a state at least as new as the last
    result, once, never while a command is unanswered, at most 5 commands a second.
    """
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    acted = -1  # the version last acted on
    floor = 0  # the server was at this version when it last answered
    last_sent = 0.0
    while loop.time() < end:
        try:
            message = await conn.receive(timeout=1.5)
        except TimeoutError:
            conn.forget_command()  # a command without an answer was dropped
            acted = -1
            await conn.sync()
            continue
        kind = message.get("type")
        if kind == "error":  # rate_limited: the message was dropped
            conn.forget_command()
            acted = -1
            await asyncio.sleep(0.5)
            await conn.sync()
            continue
        if kind == "result":
            floor = max(floor, message["version"])
            if not message["ok"]:
                acted = -1
            continue
        if kind != "state" or message["version"] < max(conn.version, floor):
            continue
        view = message["view"]
        if stop(view):
            return dict(view)
        if conn.awaiting_result or message["version"] == acted:
            continue
        action = choose(view)
        if action is not None:
            await asyncio.sleep(max(0.0, last_sent + 0.2 - loop.time()))
            last_sent = loop.time()
            await conn.send_command(action)
            acted = message["version"]
    raise TimeoutError("the match did not reach the expected point in time")


async def collect(conn: Any, done: asyncio.Event) -> None:
    """Read a socket until ``done`` and then until it is quiet (on_message keeps them)."""
    while True:
        try:
            await conn.receive(timeout=0.5)
        except TimeoutError:
            if done.is_set():
                return


def _finished(view: JSON) -> bool:
    """The greedy players stop once the match ends or enough hands were played."""
    return view["result"] is not None or view["hand_no"] >= HANDS_TO_PLAY


def _play_and_watch(live_stack: Any, tokens: dict[str, str], match_id: str,
                    logs: dict[str, list[JSON]]) -> None:
    """Alice and Bob play greedily on two daphne processes while Carol watches; log all."""

    async def play() -> None:
        a = connect(live_stack.urls[0], tokens["alice"], match_id)
        b = connect(live_stack.urls[1], tokens["bob"], match_id)
        c = connect(live_stack.urls[1], tokens["carol"], match_id)
        for conn, name in ((a, "alice"), (b, "bob"), (c, "carol")):
            conn.on_message = logs[name].append
        await c.connect()  # the spectator first: it sees everything from the start
        await a.connect()
        await b.connect()
        done = asyncio.Event()
        watcher = asyncio.create_task(collect(c, done))
        try:
            await asyncio.gather(play_greedy(a, _finished), play_greedy(b, _finished))
            done.set()
            await asyncio.gather(watcher, collect(a, done), collect(b, done))
        finally:
            watcher.cancel()
            for conn in (a, b, c):
                await conn.close()

    asyncio.run(play())


def _check_the_stored_match(match: Match) -> None:
    """The match is rated, its log rebuilds to the cached engine and enough was played."""
    assert match.rated
    engine = load_engine(match)
    assert rebuild(match).view(None) == engine.view(None)
    assert engine.result is not None or engine.hand_no >= HANDS_TO_PLAY
    assert engine.view(None)["hands_played"] >= min(HANDS_TO_PLAY, engine.hand_no + 1)


def _check_no_message_leaks(logs: dict[str, list[JSON]], match: Match,
                            truths: dict[int, Truth]) -> None:
    """Every socket saw the match to its last version and no message leaked a tile."""
    seats = {"alice": 0, "bob": 1, "carol": None}
    for name, seat in seats.items():
        states = [m for m in logs[name] if m.get("type") == "state"]
        assert states, f"{name} got no state"
        # Each socket saw the match up to its last version.
        versions = {m["version"] for m in states}
        assert max(versions) == match.version
        problems = [p for m in logs[name] for p in leaks(m, seat, truths)]
        assert not problems, f"{name}: {problems[:10]}"
    assert len(logs["alice"]) + len(logs["bob"]) > 20  # a real game was played


def _check_the_checker_catches_leaks(logs: dict[str, list[JSON]],
                                     truths: dict[int, Truth]) -> None:
    """The checker itself catches a leak anywhere, e.g. in a new field, and a tile of a
    settled hand shown elsewhere while it is hidden again."""
    message = copy.deepcopy(next(m for m in logs["alice"] if m.get("type") == "state"
                                 and m["view"]["phase"] == "play"))
    truth = truths[message["version"]]
    hidden = sorted(truth.hands[1] - truth.settled - truth.board)
    assert hidden, "bob holds tiles during play"
    message["view"]["debug"] = {"note": [hidden[0]]}
    assert leaks(message, 0, truths)
    spectator = copy.deepcopy(next(m for m in logs["carol"] if m.get("type") == "state"
                                   and m["view"]["phase"] == "play"))
    secret = sorted(truths[spectator["version"]].hands[0]
                    - truths[spectator["version"]].settled)[0]
    spectator["view"]["extra"] = {secret: True}  # even as a key
    assert leaks(spectator, None, truths)
    assert leaks({"type": "state", "version": message["version"],
                  "view": {**message["view"], "boneyard": []}}, 0, truths)
    # A tile of a settled hand that is back in Bob's hand is hidden again.
    for candidate in logs["alice"]:
        if candidate.get("type") != "state" or candidate["view"]["phase"] != "play":
            continue
        truth = truths[candidate["version"]]
        again = sorted((truth.hands[1] & truth.settled) - truth.board)
        if again:
            candidate = copy.deepcopy(candidate)
            candidate["view"]["moves"].append({"seat": 1, "type": "draw", "tile": again[0]})
            assert leaks(candidate, 0, truths)
            break


def test_no_message_reveals_a_hidden_tile(live_stack, settings) -> None:
    settings.TEST_FIXED_DEALS = True  # the first deal is made here, the others by daphne
    settings.TEST_DEALS_SEED = "live-tests"
    alice, alice_token = make_player("alice")
    bob, bob_token = make_player("bob")
    _carol, carol_token = make_player("carol")
    match = do_create_match(alice, bob, rated=True)
    logs: dict[str, list[JSON]] = {"alice": [], "bob": [], "carol": []}
    tokens = {"alice": alice_token, "bob": bob_token, "carol": carol_token}

    _play_and_watch(live_stack, tokens, str(match.pk), logs)

    match = Match.objects.get(pk=match.pk)
    _check_the_stored_match(match)
    truths = truths_by_version(match)
    _check_no_message_leaks(logs, match, truths)
    _check_the_checker_catches_leaks(logs, truths)
