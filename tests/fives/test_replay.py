"""The ``fives/1`` replay contract: --json keys, exit statuses, forced passes, clocks, lots."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.fives.plugin import GAME

from .helpers import make_deal
from .test_play import A_CHAIN, B_CHAIN, CHAIN_MOVES, FISH_HANDS, FISH_MOVES

REPORT_KEYS = {"actions", "hands", "scores", "clocks", "result"}
HAND_KEYS = {"leader", "end", "winner", "pips", "bonus"}


def deal_dict(*hands: str, bazaar: str = "") -> dict[str, Any]:
    from games.dominoes.tiles import tile_name

    deal = make_deal(*hands, bazaar=bazaar)
    return {"hands": [[tile_name(t) for t in hand] for hand in deal.hands],
            "bazaar": [tile_name(t) for t in deal.bazaar]}


def move_dict(seat: int, move: str, t: float | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat}
    if move in ("draw", "pass", "resign"):
        entry["type"] = move
    else:
        tile, _, where = move.partition(">")
        entry.update(type="play", tile=tile)
        if where:
            target, port = where.split(":")
            entry.update(target=target, port=port)
    if t is not None:
        entry["t"] = t
    return entry


def scripted(moves: list[str], seats: int, first: int = 0,
             times: list[float] | None = None) -> list[dict[str, Any]]:
    """Moves by seats in turn order (no passes in between)."""
    return [move_dict((first + i) % seats, m, times[i] if times else None)
            for i, m in enumerate(moves)]


def doc(players: int, hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"format": "fives/1", "players": [f"p{i}" for i in range(players)], **extra,
            "hands": hands}


def run(document: Any, with_legal: bool = False) -> Any:
    text = document if isinstance(document, bytes) else json.dumps(document).encode()
    return GAME.replay_document(text, with_legal)


def fish_record(passes: str = "none") -> dict[str, Any]:
    actions = scripted(FISH_MOVES, 4)
    if passes in ("all", "last"):
        pass_seats = [2, 3, 0, 1] if passes == "all" else [1]
        actions += [move_dict(s, "pass") for s in pass_seats]
    return doc(4, [{"deal": deal_dict(*FISH_HANDS), "actions": actions}])


class TestSpecExample:
    def record(self) -> dict[str, Any]:
        hands = ("2-5 1-1 1-2 1-3 1-4 1-5 1-6", "0-4 0-0 0-1 0-2 0-3 0-5 0-6",
                 "4-4 2-2 2-3 2-4 2-6 3-3 3-4", "3-5 3-6 4-5 4-6 5-5 5-6 6-6")
        return {
            "format": "fives/1",
            "players": ["ann", "boris", "clara", "dima"],
            "rules": {"cross": True, "full_record": False, "time_s": 900, "target": 250},
            "lots": ["2-5", "0-1", "3-3", "1-6"],
            "hands": [{
                "deal": deal_dict(*hands), "start_t": 0.0,
                "actions": [{"seat": 1, "type": "play", "tile": "0-4", "t": 3.2},
                            {"seat": 2, "type": "play", "tile": "4-4", "target": "0-4",
                             "port": "high", "t": 9.0}],
            }],
        }

    def test_report_shape(self) -> None:
        out = run(self.record())
        assert out.exit_status == 0 and out.error_line == ""
        report = out.report
        assert set(report) == REPORT_KEYS
        assert report["actions"] == [
            {"hand": 0, "seat": 1, "type": "play", "tile": "0-4", "points": 0,
             "scores": [0, 0, 0, 0]},
            {"hand": 0, "seat": 2, "type": "play", "tile": "4-4", "target": "0-4",
             "port": "high", "points": 0, "scores": [0, 0, 0, 0]},  # 0 + 8
        ]
        assert report["hands"] == [
            {"leader": 1, "end": None, "winner": None, "pips": None, "bonus": None}]
        assert report["scores"] == [0, 0, 0, 0]
        assert report["clocks"] == pytest.approx([900, 896.8, 894.2, 900])
        assert report["result"] == {"winner": None, "ranks": None, "reason": None}

    def test_with_legal(self) -> None:
        out = run(self.record(), with_legal=True)
        assert set(out.report) == REPORT_KEYS | {"legal", "to_act"}
        assert out.report["to_act"] == 3
        legal = out.report["legal"]
        assert all(a["seat"] == 3 and a["type"] == "play" for a in legal)
        assert {"seat": 3, "type": "play", "tile": "4-5", "target": "4-4",
                "port": "line_b"} in legal
        assert "To act: 3" in out.text

    def test_without_lots_seat_0_leads(self) -> None:
        record = self.record()
        del record["lots"]
        out = run(record)
        assert out.exit_status == 1
        assert out.report["error"] == {"hand": 0, "index": 0, "reason": "it is not your turn"}
        assert out.report["hands"][0]["leader"] == 0


class TestForcedPasses:
    @pytest.mark.parametrize("passes", ["none", "last", "all"])
    def test_listed_or_omitted(self, passes: str) -> None:
        out = run(fish_record(passes))
        assert out.exit_status == 0
        report = out.report
        forced = [a for a in report["actions"] if a.get("forced")]
        assert [(a["seat"], a["type"]) for a in forced] == [(2, "pass"), (3, "pass"),
                                                            (0, "pass"), (1, "pass")]
        assert report["hands"] == [{"leader": 0, "end": "fish", "winner": 2,
                                    "pips": [32, 41, 21, 32], "bonus": 21}]
        assert report["scores"] == [5, 0, 26, 5]
        assert report == run(fish_record("none")).report

    def test_a_pass_that_is_not_due_is_illegal(self) -> None:
        record = fish_record()
        record["hands"][0]["actions"].insert(2, move_dict(2, "pass"))
        out = run(record)
        assert out.exit_status == 1
        assert out.report["error"]["hand"] == 0 and out.report["error"]["index"] == 2
        assert "never chosen" in out.report["error"]["reason"]
        assert len(out.report["actions"]) == 2  # what was applied before it


class TestHandsAndClocks:
    def two_hands(self, second_start: float | None) -> dict[str, Any]:
        first = {"deal": deal_dict(A_CHAIN, B_CHAIN), "start_t": 1.0,
                 "actions": scripted(CHAIN_MOVES, 2, times=[1.0 + i for i in range(13)])}
        second: dict[str, Any] = {"deal": deal_dict(B_CHAIN, A_CHAIN),
                                  "actions": [move_dict(0, "0-2", 40.0)]}
        if second_start is not None:
            second["start_t"] = second_start
        return doc(2, [first, second], rules={"time_s": 60})

    def test_the_winner_leads_and_clocks_stop_between_hands(self) -> None:
        out = run(self.two_hands(second_start=30.0))
        assert out.exit_status == 0
        hands = out.report["hands"]
        assert hands[0] == {"leader": 0, "end": "domino", "winner": 0, "pips": [0, 4],
                            "bonus": 1}
        assert hands[1]["leader"] == 0 and hands[1]["end"] is None
        # Hand 1: 1 s a move, but the lead came at start_t (6 s each); hand 2: 30 -> 40 s.
        assert out.report["clocks"] == pytest.approx([60 - 6 - 10, 60 - 6])

    def test_start_t_defaults_to_the_previous_hands_last_action(self) -> None:
        out = run(self.two_hands(second_start=None))  # hand 1's last action at 13 s
        assert out.report["clocks"] == pytest.approx([60 - 6 - 27, 60 - 6])

    def test_a_flag_from_the_times(self) -> None:
        record = self.two_hands(second_start=30.0)
        record["hands"][1]["actions"][0]["t"] = 30.0 + 54.0  # seat 0 had 54 s left
        out = run(record)
        assert out.exit_status == 0
        assert out.report["result"] == {"winner": 1, "ranks": [2, 1], "reason": "time"}
        assert out.report["clocks"] == pytest.approx([0, 54])
        assert out.report["hands"][1]["end"] == "game_over"
        assert len(out.report["actions"]) == 13  # the late action was not applied
        record["hands"][1]["actions"].append(move_dict(1, "resign", 90.0))
        late = run(record)
        assert late.exit_status == 1
        assert late.report["error"] == {"hand": 1, "index": 1, "reason": "the game is over"}

    def test_resign_in_a_record(self) -> None:
        record = self.two_hands(second_start=30.0)
        record["hands"][1]["actions"].append(move_dict(0, "resign", 41.0))
        out = run(record)
        assert out.exit_status == 0
        assert out.report["result"] == {"winner": 1, "ranks": [2, 1], "reason": "resign"}
        assert out.report["actions"][-1] == {"hand": 1, "seat": 0, "type": "resign",
                                             "points": 0, "scores": [31, 10]}
        assert "p1 wins (resign)" in out.text

    def test_a_hand_dealt_before_the_last_one_ended(self) -> None:
        record = self.two_hands(second_start=30.0)
        del record["hands"][0]["actions"][-1]
        out = run(record)
        assert out.exit_status == 1
        assert out.report["error"] == {"hand": 1, "index": 0, "reason": "hand 0 is not over"}

    def test_readable_text(self) -> None:
        out = run(self.two_hands(second_start=30.0))
        assert "Hand 1 (led by p0)" in out.text
        assert "p0 played out (domino), bonus 1" in out.text
        assert "Result: the game is still running" in out.text


def _base() -> dict[str, Any]:
    return doc(2, [{"deal": deal_dict(A_CHAIN, B_CHAIN), "actions": [move_dict(0, "0-1")]}])


def _with(path: list[Any], value: Any) -> dict[str, Any]:
    record = _base()
    where: Any = record
    for key in path[:-1]:
        where = where[key]
    if value is KeyError:
        del where[path[-1]]
    else:
        where[path[-1]] = value
    return record


MALFORMED: list[tuple[str, Any]] = [
    ("not json", b"{nope"),
    ("not utf-8", b"\xff\xfe"),
    ("nested", b"[" * 100_000),
    ("array", b"[]"),
    ("format", _with(["format"], "spectacular-bid/1")),
    ("no format", _with(["format"], KeyError)),
    ("three players", _with(["players"], ["a", "b", "c"])),
    ("player names", _with(["players"], ["a", 2])),
    ("rules", _with(["rules"], {"target": 200})),
    ("rules bool", _with(["rules"], {"cross": "yes"})),
    ("lots repeated", _with(["lots"], ["1-2", "1-2"])),
    ("lots count", _with(["lots"], ["1-2"])),
    ("lots tile", _with(["lots"], ["1-2", "7-7"])),
    ("hands", _with(["hands"], {})),
    ("hand", _with(["hands", 0], [])),
    ("no deal", _with(["hands", 0, "deal"], KeyError)),
    ("deal hands", _with(["hands", 0, "deal", "hands"], [["0-0"] * 7])),
    ("short hand", _with(["hands", 0, "deal", "hands", 0, 6], KeyError)),
    ("bazaar size", _with(["hands", 0, "deal", "bazaar", 0], KeyError)),
    ("tile twice", _with(["hands", 0, "deal", "bazaar", 0], "0-1")),
    ("unknown tile", _with(["hands", 0, "deal", "bazaar", 0], "7-7")),
    ("action", _with(["hands", 0, "actions", 0], "play")),
    ("type", _with(["hands", 0, "actions", 0, "type"], "bid")),
    ("seat range", _with(["hands", 0, "actions", 0, "seat"], 2)),
    ("seat bool", _with(["hands", 0, "actions", 0, "seat"], False)),
    ("half place", _with(["hands", 0, "actions", 0, "target"], "0-0")),
    ("port", {**_base(), "hands": [{"deal": deal_dict(A_CHAIN, B_CHAIN), "actions": [
        move_dict(0, "0-1"), {"seat": 1, "type": "play", "tile": "0-2", "target": "0-1",
                              "port": "side"}]}]}),
    ("t negative", _with(["hands", 0, "actions", 0, "t"], -1)),
    ("t text", _with(["hands", 0, "actions", 0, "t"], "3")),
    ("t bool", _with(["hands", 0, "actions", 0, "t"], True)),
    ("start_t", _with(["hands", 0, "start_t"], "0")),
    ("t back", {**_base(), "hands": [{"deal": deal_dict(A_CHAIN, B_CHAIN), "start_t": 5,
                                      "actions": [move_dict(0, "0-1", 4.0)]}]}),
]


@pytest.mark.parametrize(("name", "record"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_exits_2_with_one_line(name: str, record: Any) -> None:
    out = run(record)
    assert out.exit_status == 2, out.report
    assert out.report == {} and out.text == ""
    assert out.error_line and "\n" not in out.error_line


def test_nan_time_is_malformed() -> None:
    text = json.dumps(_base()).replace('"seat": 0,', '"seat": 0, "t": NaN,').encode()
    assert run(text).exit_status == 2


def test_players_may_be_omitted() -> None:
    record = fish_record()
    del record["players"]
    out = run(record)
    assert out.exit_status == 0 and len(out.report["scores"]) == 4


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats(allow_nan=True)
    | st.sampled_from(["0-1", "6-6", "high", "line_b", "play", "draw", "pass", "fives/1"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["seat", "type", "tile", "target", "port", "t", "deal", "hands",
                         "bazaar", "actions", "start_t", "x"]), inner, max_size=4),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*prefix, index))
    return found


@settings(derandomize=True, max_examples=150, deadline=None)
@given(data=st.data())
def test_any_mangled_record_gets_an_exit_status(data: st.DataObject) -> None:
    record = fish_record("last")
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    where: Any = record
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = data.draw(JSON_VALUES)
    out = GAME.replay_document(json.dumps(record).encode(), with_legal=True)
    assert out.exit_status in (0, 1, 2)
    assert (out.exit_status == 2) == bool(out.error_line)
    if out.exit_status != 2:
        json.dumps(out.report, allow_nan=False)
