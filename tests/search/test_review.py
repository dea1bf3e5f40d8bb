"""The game review: every decision reviewed is one the seat had, with legal actions and
estimates in range; a forced move is never listed; a clear mistake is marked as one;
the same seed gives the same review."""

from __future__ import annotations

from typing import Any

import pytest

from games import registry
from games.engine.plugin import GamePlugin
from games.search.playout import immediate_points
from games.search.review import Decision, decisions_of, frame_indices, review, review_decision

from .logs import played_log
from .positions import random_position

# Short matches: the lowest Fives target, a small Spectacular Bid purse.
SHORT = {"fives": {"target": 100}, "spectacular-bid": {"start_points": 40}}
CASES = [("fives", 2, 1), ("fives", 4, 2), ("spectacular-bid", 2, 3)]
PLAYOUTS = 6


def legal_counts(plugin: GamePlugin, rules: Any, seats: int, log: list[Any]) -> list[int]:
    """How many legal actions the acting seat had at each logged action, replayed
    independently of the review."""
    state = plugin.new_state(plugin.parse_rules(rules, seats), seats)
    counts = []
    for event in log:
        if event.kind == "chance":
            plugin.apply_chance(state, event.payload, event.t_us)
        elif event.kind == "action":
            seat, code = plugin.action_from_dict(event.payload)
            counts.append(len(state.legal_actions(seat)))
            state.apply(seat, code, event.t_us)
        elif event.kind == "time":
            state.advance(event.t_us)
    return counts


@pytest.mark.parametrize(("key", "seats", "seed"), CASES)
def test_each_decision_is_legal_with_estimates_in_range(key: str, seats: int,
                                                        seed: int) -> None:
    plugin = registry.game(key)
    rules = SHORT[key]
    final, log = played_log(plugin, seats, seed, rules)
    assert final.result is not None
    seen: list[tuple[int, int]] = []
    result = review(plugin, rules, seats, log, playouts=PLAYOUTS,
                    progress=lambda done, total: seen.append((done, total)))
    entries = result["decisions"]
    positions = decisions_of(plugin, rules, seats, log)
    assert entries and len(entries) == len(positions)
    assert seen[0] == (0, len(entries)) and seen[-1] == (len(entries), len(entries))
    assert [done for done, _ in seen] == list(range(len(entries) + 1))
    counts = legal_counts(plugin, rules, seats, log)
    for entry, position in zip(entries, positions, strict=True):
        legal = position.state.legal_actions(entry["seat"])
        for key_ in ("played", "best"):
            seat, code = plugin.action_from_dict(entry[key_])
            assert seat == entry["seat"] and code in legal
        assert counts[entry["action_index"]] >= 2  # a forced move is not a decision
        assert -1000 <= entry["played_points"] <= entry["best_points"] <= 1000
        assert entry["loss"] == pytest.approx(entry["best_points"] - entry["played_points"],
                                              abs=0.02)
        assert entry["mistake"] == (entry["loss"] >= result["threshold"])
        assert entry["hand"] is not None and entry["hand"] >= 0
    forced = {i for i, n in enumerate(counts) if n < 2}
    assert forced, "the match should have had forced moves too"
    assert forced.isdisjoint(e["action_index"] for e in entries)
    totals = result["summary"]
    assert sum(row["decisions"] for row in totals) == len(entries)
    assert sum(row["mistakes"] for row in totals) == sum(e["mistake"] for e in entries)


def test_the_same_seed_gives_the_same_review() -> None:
    plugin = registry.game("fives")
    _, log = played_log(plugin, 2, 5, SHORT["fives"])
    first = review(plugin, SHORT["fives"], 2, log, playouts=PLAYOUTS, seed=3)
    again = review(plugin, SHORT["fives"], 2, log, playouts=PLAYOUTS, seed=3)
    other = review(plugin, SHORT["fives"], 2, log, playouts=PLAYOUTS, seed=4)
    assert first == again
    assert first["decisions"] != other["decisions"]


def big_score_position(plugin: GamePlugin) -> tuple[Any, int, set[int], set[int]]:
    """A Fives position early in a match whose seat to act may score 15 points or more
    at once, or play a tile that scores nothing."""
    for seed in range(2000):
        state = random_position(plugin, 2, seed, seed % 12).state
        seat = state.to_act()
        if state.result is not None or seat is None or max(plugin.scores(state)) > 40:
            continue
        points = {a: immediate_points(plugin, state, a) for a in state.legal_actions(seat)}
        if any(p is None for p in points.values()):
            continue
        big = {a for a, p in points.items() if p is not None and p[0] >= 15}
        nothing = {a for a, p in points.items() if p is not None and p[0] == 0}
        if big and nothing:
            return state, seat, big, nothing
    raise AssertionError("no such position found")


def test_a_clearly_worse_move_is_marked_as_a_mistake() -> None:
    plugin = registry.game("fives")
    state, seat, big, nothing = big_score_position(plugin)
    for code in sorted(nothing):
        entry = review_decision(plugin, Decision(state, seat, code, 0), 48, 0, 2.0)
        assert entry["mistake"] and entry["loss"] >= 5
        assert plugin.action_from_dict(entry["best"])[1] in big
    best = review_decision(plugin, Decision(state, seat, sorted(big)[0], 0), 48, 0, 2.0)
    assert not best["mistake"]


def test_each_decision_finds_its_frame() -> None:
    plugin = registry.game("fives")
    _, log = played_log(plugin, 2, 7, SHORT["fives"])
    result = review(plugin, SHORT["fives"], 2, log, playouts=1)
    record = plugin.export_record(["a", "b"], plugin.parse_rules(SHORT["fives"], 2), log)
    frames = plugin.frames(record)["frames"]
    found = frame_indices(result["decisions"], frames)
    assert None not in found and found == sorted(set(found))  # each its own, in order
    for entry, index in zip(result["decisions"], found, strict=True):
        assert index is not None
        shown = frames[index]["action"]
        assert all(shown[k] == v for k, v in entry["played"].items())
