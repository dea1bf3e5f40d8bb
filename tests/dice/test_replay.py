"""The ``dice/1`` record and its replay (dice.md, "Record and replay")."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dice.plugin import GAME
from games.dice.rules import Rules

from .helpers import doc, outcome, play, run

# The example of dice.md, word for word.
EXAMPLE: dict[str, Any] = {
    "format": "dice/1",
    "players": ["ann", "boris"],
    "rules": {"rounds": 5, "quick": False, "decision_s": 30},
    "actions": [
        {"type": "order", "seat": 0, "die": 4, "t": 0.4},
        {"type": "order", "seat": 1, "die": 6, "t": 0.4},
        {"type": "roll", "seat": 1, "dice": [5, 4, 4, 6, 2], "t": 1.0},
        {"type": "improve", "seat": 1, "keep": [4, 4], "dice": [1, 4, 6], "t": 6.5},
        {"type": "roll", "seat": 0, "dice": [1, 1, 1, 6, 6], "t": 7.0},
        {"type": "stand", "seat": 0, "t": 9.0},
    ],
}

KEYS = {"actions", "turns", "rounds", "totals", "round_wins", "result"}


def example(*extra: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(EXAMPLE)
    out["actions"].extend(extra)
    out.update(changes)
    return out


def test_the_example_replays() -> None:
    result = outcome(EXAMPLE)
    assert result.exit_status == 0 and result.error_line == ""
    data = result.report
    assert set(data) == KEYS
    assert data["actions"] == [
        {"round": 0, "seat": 0, "type": "order", "die": 4},
        {"round": 0, "seat": 1, "type": "order", "die": 6},
        {"round": 0, "seat": 1, "type": "roll", "dice": [5, 4, 4, 6, 2]},
        {"round": 0, "seat": 1, "type": "improve", "keep": [4, 4], "dice": [1, 4, 6],
         "score": 36},
        {"round": 0, "seat": 0, "type": "roll", "dice": [1, 1, 1, 6, 6]},
        {"round": 0, "seat": 0, "type": "stand", "score": 33},
    ]
    assert data["turns"] == [
        {"round": 0, "seat": 1, "first": 16, "second": 36, "recorded": 36},
        {"round": 0, "seat": 0, "first": 33, "second": None, "recorded": 33},
    ]
    assert data["rounds"] == [{"scores": [33, 36], "winner": 1},
                              {"scores": [None, None], "winner": None}]
    assert data["totals"] == [33, 36] and data["round_wins"] == [0, 1]
    assert data["result"] == {"points_winner": None, "rounds_winner": None, "absolute": None,
                              "reason": None}
    assert "boris keeps 4 4, rolls 1 4 6: 36" in result.text


def test_legal_lists_the_decisions_of_the_seat_to_act() -> None:
    data = run(example({"type": "roll", "seat": 1, "dice": [4, 4, 1, 2, 6], "t": 10}),
               with_legal=True)
    assert set(data) == KEYS | {"legal", "to_act"}
    assert data["to_act"] == 1
    assert data["legal"][0] == {"seat": 1, "type": "stand"}
    keeps = [a["keep"] for a in data["legal"][1:]]
    assert all(a["type"] == "improve" and "dice" not in a for a in data["legal"][1:])
    assert len(keeps) == 23 and [4, 4] in keeps and [] in keeps
    assert len({tuple(k) for k in keeps}) == len(keeps)
    waiting = run(EXAMPLE, with_legal=True)
    assert waiting["legal"] == [] and waiting["to_act"] is None  # seat 1's roll is due


def source_game() -> dict[str, Any]:
    """The source's game: "you" (seat 1) first; round 5 rolled for "me" as it asks."""
    def t(seat: int, dice: list[int], keep: list[int] | None = None,
          new: list[int] | None = None) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"type": "roll", "seat": seat, "dice": dice}]
        if keep is None:
            out.append({"type": "stand", "seat": seat})
        else:
            out.append({"type": "improve", "seat": seat, "keep": keep, "dice": new})
        return out

    actions = [{"type": "order", "seat": 0, "die": 4}, {"type": "order", "seat": 1, "die": 6},
               *t(1, [5, 4, 4, 6, 2], [4, 4], [1, 4, 6]), *t(0, [1, 1, 1, 6, 6]),
               *t(1, [1, 2, 3, 5, 6], [], [2, 2, 4, 5, 5]), *t(0, [1, 1, 1, 5, 5]),
               *t(1, [1, 2, 3, 4, 4]), *t(0, [2, 2, 4, 5, 6], [6, 5], [1, 2, 6]),
               *t(1, [5, 5, 1, 2, 3]), *t(0, [2, 2, 2, 5, 5]),
               *t(1, [3, 3, 3, 3, 1]), *t(0, [4, 4, 1, 2, 6], [4, 4], [4, 4, 4])]
    return doc(["me", "you"], actions)


def test_the_source_game_replays() -> None:
    data = run(source_game())
    assert [r["scores"] for r in data["rounds"]] == [
        [33, 36], [29, 28], [24, 40], [38, 20], [100, 48]]
    assert [r["winner"] for r in data["rounds"]] == [1, 0, 1, 0, 0]
    assert data["totals"] == [224, 172] and data["round_wins"] == [3, 2]
    assert data["result"] == {"points_winner": 0, "rounds_winner": 0, "absolute": True,
                              "reason": "finished"}


def test_quick_and_solo_reports() -> None:
    quick = run(doc(["a", "b"], [
        {"type": "order", "seat": 0, "die": 2}, {"type": "order", "seat": 1, "die": 1},
        {"type": "roll", "seat": 0, "dice": [6, 6, 1, 2, 3]}, {"type": "stand", "seat": 0},
        {"type": "roll", "seat": 1, "dice": [5, 5, 1, 2, 3]}, {"type": "stand", "seat": 1},
    ], {"rounds": 1, "quick": True}))
    assert quick["totals"] is None and quick["round_wins"] == [1, 0]
    assert quick["result"] == {"points_winner": None, "rounds_winner": 0, "absolute": False,
                               "reason": "finished"}
    solo = run(doc(["me"], [{"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, 5]},
                            {"type": "stand", "seat": 0}], {"rounds": 1}))
    assert solo["totals"] == [75] and solo["rounds"] == [{"scores": [75], "winner": None}]
    assert solo["result"] == {"points_winner": None, "rounds_winner": None, "absolute": False,
                              "reason": "finished"}


def test_resign_report() -> None:
    data = run(example({"type": "resign", "seat": 1, "t": 12}))
    assert data["actions"][-1] == {"round": 1, "seat": 1, "type": "resign"}
    assert data["result"] == {"points_winner": 0, "rounds_winner": 0, "absolute": True,
                              "reason": "resign"}


def test_a_decision_out_of_time_is_forced_and_the_late_one_judged_after() -> None:
    late = example({"type": "roll", "seat": 1, "dice": [4, 4, 1, 2, 6], "t": 10},
                   {"type": "improve", "seat": 1, "keep": [4, 4], "dice": [1, 2, 3], "t": 40})
    result = outcome(late)
    assert result.exit_status == 1
    data = result.report
    assert data["actions"][-1] == {"round": 1, "seat": 1, "type": "stand", "score": 16,
                                   "forced": True}
    assert data["error"]["index"] == 7 and "turn" in data["error"]["reason"]
    assert data["turns"][-1] == {"round": 1, "seat": 1, "first": 16, "second": None,
                                 "recorded": 16}


def test_a_forced_stand_may_be_listed_or_omitted() -> None:
    listed = example({"type": "roll", "seat": 1, "dice": [4, 4, 1, 2, 6], "t": 10},
                     {"type": "stand", "seat": 1, "forced": True, "t": 40},
                     {"type": "roll", "seat": 0, "dice": [1, 1, 2, 3, 6], "t": 41})
    omitted = copy.deepcopy(listed)
    del omitted["actions"][-2]
    assert run(listed) == run(omitted)
    assert [a.get("forced") for a in run(listed)["actions"]].count(True) == 1
    early = copy.deepcopy(listed)
    early["actions"][-2]["t"] = 39.9
    assert outcome(early).exit_status == 1


MALFORMED = [
    b"not json",
    b"[1, 2]",
    json.dumps(example(format="dice/2")).encode(),
    json.dumps(example(players=[])).encode(),
    json.dumps(example(players=["a"] * 7)).encode(),
    json.dumps(example(players=["a", 3])).encode(),
    json.dumps({k: v for k, v in EXAMPLE.items() if k != "players"}).encode(),
    json.dumps(example(rules={"rounds": 4})).encode(),
    json.dumps(example(rules={"rounds": 5, "quick": "no"})).encode(),
    json.dumps(example(rules={"decision_s": 1})).encode(),
    json.dumps(example(rules={"rounds": 5, "extra": 1})).encode(),
    json.dumps(example(actions={"type": "stand"})).encode(),
    b'{"format": "dice/1", "players": ["a"], "rules": {"decision_s": NaN}}',
]

MALFORMED_ACTIONS = [
    {"type": "shake", "seat": 0},
    {"type": "stand", "seat": 2},
    {"type": "stand", "seat": -1},
    {"type": "stand", "seat": True},
    {"type": "stand"},
    {"type": "order", "seat": 0, "die": 7},
    {"type": "order", "seat": 0, "die": 0},
    {"type": "order", "seat": 0, "die": 2.5},
    {"type": "order", "seat": 0},
    {"type": "roll", "seat": 0, "dice": [1, 2, 3, 4]},
    {"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, 5, 6]},
    {"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, "5"]},
    {"type": "improve", "seat": 0, "keep": [1, 1, 1, 6, 6], "dice": []},
    {"type": "improve", "seat": 0, "keep": [1, 1], "dice": [2, 3]},
    {"type": "improve", "seat": 0, "keep": [1, 1], "dice": [2, 3, 4, 5]},
    {"type": "improve", "seat": 0, "dice": [1, 2, 3, 4, 5]},
    {"type": "improve", "seat": 0, "keep": [9], "dice": [1, 2, 3, 4]},
    {"type": "stand", "seat": 0, "t": -1},
    {"type": "stand", "seat": 0, "t": 8.0},  # before the previous action's 9.0
    {"type": "stand", "seat": 0, "t": "soon"},
    {"type": "stand", "seat": 0, "forced": "yes"},
    {"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, 5], "forced": True},
    "stand",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_records(text: bytes) -> None:
    result = outcome(text)
    assert result.exit_status == 2 and result.report == {}
    assert result.error_line and "\n" not in result.error_line


@pytest.mark.parametrize("action", MALFORMED_ACTIONS)
def test_malformed_actions(action: Any) -> None:
    result = outcome(example(action))
    assert result.exit_status == 2, action
    assert "action 6" in result.error_line


ILLEGAL = [
    ("out of turn", [{"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, 5]}]),
    ("stand before the roll", [{"type": "stand", "seat": 1}]),
    ("improve before the roll", [{"type": "improve", "seat": 1, "keep": [], "dice": [1] * 5}]),
    ("keep not in the roll", [{"type": "roll", "seat": 1, "dice": [4, 4, 1, 2, 6]},
                              {"type": "improve", "seat": 1, "keep": [4, 4, 4], "dice": [1, 2]}]),
    ("improve after a stand", [{"type": "roll", "seat": 1, "dice": [4, 4, 1, 2, 6]},
                               {"type": "stand", "seat": 1},
                               {"type": "improve", "seat": 1, "keep": [4, 4],
                                "dice": [1, 2, 3]}]),
    ("decision of the other seat", [{"type": "roll", "seat": 1, "dice": [4, 4, 1, 2, 6]},
                                    {"type": "stand", "seat": 0}]),
    ("a roll while a decision is due", [{"type": "roll", "seat": 1, "dice": [4, 4, 1, 2, 6]},
                                        {"type": "roll", "seat": 1, "dice": [4, 4, 1, 2, 6]}]),
    ("order after the order", [{"type": "order", "seat": 0, "die": 6}]),
    ("resign twice", [{"type": "resign", "seat": 0}, {"type": "resign", "seat": 0}]),
]


@pytest.mark.parametrize(("why", "extra"), ILLEGAL, ids=[w for w, _ in ILLEGAL])
def test_illegal_records(why: str, extra: list[dict[str, Any]]) -> None:
    result = outcome(example(*extra))
    assert result.exit_status == 1, why
    data = result.report
    assert set(data) == KEYS | {"error"}
    assert data["error"]["index"] == len(EXAMPLE["actions"]) + len(extra) - 1
    assert isinstance(data["error"]["reason"], str) and data["error"]["reason"]
    assert len(data["actions"]) == data["error"]["index"]  # everything before it applied


def test_order_ties_in_a_record() -> None:
    base = [{"type": "order", "seat": 0, "die": 5}, {"type": "order", "seat": 1, "die": 5},
            {"type": "order", "seat": 2, "die": 3}]
    tie_by_outsider = doc(["a", "b", "c"], [*base, {"type": "order", "seat": 2, "die": 6}])
    assert outcome(tie_by_outsider).exit_status == 1
    settled = doc(["a", "b", "c"], [*base, {"type": "order", "seat": 1, "die": 2},
                                    {"type": "order", "seat": 0, "die": 1},
                                    {"type": "roll", "seat": 1, "dice": [1, 2, 3, 4, 5]}])
    assert outcome(settled).exit_status == 0
    early_roll = doc(["a", "b", "c"], [*base, {"type": "roll", "seat": 0, "dice": [1] * 5}])
    assert outcome(early_roll).exit_status == 1


def test_actions_after_the_end_are_illegal() -> None:
    game = doc(["me"], [{"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, 5]},
                        {"type": "stand", "seat": 0},
                        {"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, 5]}], {"rounds": 1})
    result = outcome(game)
    assert result.exit_status == 1 and result.report["error"]["reason"] == "the game is over"


@settings(derandomize=True, max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(1, 6),
       rounds=st.sampled_from([1, 3, 5]), quick=st.booleans(),
       level=st.sampled_from([None, "easy", "careful"]))
def test_export_record_round_trip(seed: int, seats: int, rounds: int, quick: bool,
                                  level: str | None) -> None:
    rules = Rules(rounds=rounds, quick=quick, decision_s=10)
    game, log = play(seed, seats, rules, level=level, late=0.15, resign=0.02)
    players = [f"p{i}" for i in range(seats)]
    record = GAME.export_record(players, rules, log)
    text = json.dumps(record).encode()
    result = GAME.replay_document(text, True)
    assert result.exit_status == 0, result.report.get("error")
    data = result.report
    assert data["totals"] == (None if quick else game.totals)
    assert data["round_wins"] == game.round_wins
    assert [t["recorded"] for t in data["turns"]] == [t.recorded for t in game.turns]
    assert data["result"]["reason"] == (game.standing.reason if game.standing else None)
    forced = sum(1 for t in game.turns if t.forced)
    assert sum(1 for a in record["actions"] if a.get("forced")) == forced
    assert sum(1 for a in data["actions"] if a.get("forced")) == forced
    improves = [a for a in record["actions"] if a["type"] == "improve"]
    assert all(len(a["keep"]) + len(a["dice"]) == 5 for a in improves)
    assert GAME.frames(record)["error"] is None


def test_frames_follow_every_action() -> None:
    shown = GAME.frames(EXAMPLE)
    assert len(shown["frames"]) == len(EXAMPLE["actions"])
    assert shown["frames"][3]["turn"]["recorded"] == 36
    assert shown["frames"][-1]["totals"] == [33, 36] and shown["result"]["reason"] is None
