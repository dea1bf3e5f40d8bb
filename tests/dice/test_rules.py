"""Table conventions: strict types and ranges, errors that name the convention."""

from __future__ import annotations

from typing import Any

import pytest

from games.dice.plugin import GAME
from games.dice.rules import Rules
from games.engine.plugin import RulesError


def test_defaults() -> None:
    assert GAME.parse_rules(None, 2) == Rules(5, False, 30)
    assert GAME.parse_rules({}, 2) == Rules(5, False, 30)
    assert GAME.rules_to_dict(GAME.parse_rules(None, 1)) == {
        "rounds": 5, "quick": False, "decision_s": 30}


def test_partial_and_full_rules() -> None:
    assert GAME.parse_rules({"rounds": 25, "quick": True}, 3) == Rules(25, True, 30)
    assert GAME.parse_rules({"decision_s": 600}, 6) == Rules(5, False, 600)
    assert GAME.parse_rules({"decision_s": 5.0, "rounds": 1}, 2) == Rules(1, False, 5)


@pytest.mark.parametrize(("data", "names"), [
    ({"rounds": 4}, ("rounds", "odd", "1", "25")),
    ({"rounds": 27}, ("rounds", "25")),
    ({"rounds": -1}, ("rounds",)),
    ({"rounds": 0}, ("rounds",)),
    ({"rounds": True}, ("rounds",)),
    ({"rounds": 5.5}, ("rounds",)),
    ({"rounds": "5"}, ("rounds",)),
    ({"rounds": float("nan")}, ("rounds",)),
    ({"quick": 1}, ("quick", "true or false")),
    ({"quick": "yes"}, ("quick",)),
    ({"decision_s": 4}, ("decision_s", "5", "600")),
    ({"decision_s": 601}, ("decision_s", "600")),
    ({"decision_s": False}, ("decision_s",)),
    ({"decision_s": float("inf")}, ("decision_s",)),
    ({"decision_s": 30.5}, ("decision_s", "whole")),
    ({"decision_s": None}, ("decision_s",)),
    ({"tempo": 3}, ("tempo",)),
    ([5], ("rules",)),
])
def test_bad_rules_name_the_convention_and_range(data: Any, names: tuple[str, ...]) -> None:
    with pytest.raises(RulesError) as caught:
        GAME.parse_rules(data, 2)
    for name in names:
        assert name in str(caught.value)


@pytest.mark.parametrize("seats", [0, 7, True, 2.5])
def test_seat_counts(seats: Any) -> None:
    with pytest.raises(RulesError, match="seats"):
        GAME.parse_rules(None, seats)


def test_conventions_describe_every_rule() -> None:
    by_key = {c.key: c for c in GAME.conventions()}
    assert set(by_key) == {"rounds", "quick", "decision_s"}
    assert (by_key["rounds"].minimum, by_key["rounds"].maximum) == (1, 25)
    assert all(r % 2 for r in by_key["rounds"].choices)
    assert by_key["quick"].kind == "bool" and by_key["quick"].default is False
    assert (by_key["decision_s"].default, by_key["decision_s"].minimum,
            by_key["decision_s"].maximum) == (30, 5, 600)


def test_plugin_declarations() -> None:
    assert GAME.key == "dice"
    assert GAME.record_format == "dice/1"
    assert GAME.seat_counts == (1, 2, 3, 4, 5, 6)
    assert GAME.versionless == frozenset({"resign"})


def test_rated_games_use_the_standard_rules() -> None:
    assert GAME.rated_allows(GAME.parse_rules(None, 2))
    assert GAME.rated_allows(GAME.parse_rules({"decision_s": 60}, 2))
    assert not GAME.rated_allows(GAME.parse_rules({"rounds": 7}, 2))
    assert not GAME.rated_allows(GAME.parse_rules({"quick": True}, 2))
