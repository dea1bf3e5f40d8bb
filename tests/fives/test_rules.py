"""Table conventions: defaults, fixed ones, strict types and ranges."""

from __future__ import annotations

import math
from typing import Any

import pytest

from games.engine.plugin import RulesError
from games.fives.plugin import GAME
from games.fives.rules import DEFAULT_RULES, Rules, parse_rules, rated_allows


def test_defaults() -> None:
    assert parse_rules(None, 2) == DEFAULT_RULES
    assert parse_rules({}, 4) == Rules(cross=False, full_record=False, time_s=900, target=250)
    assert GAME.rules_to_dict(DEFAULT_RULES) == {
        "cross": False, "full_record": False, "time_s": 900, "target": 250}


def test_conventions_list_chosen_and_fixed() -> None:
    by_key = {c.key: c for c in GAME.conventions()}
    assert by_key["cross"].kind == "bool" and by_key["cross"].default is False
    assert by_key["full_record"].default is False
    time_s = by_key["time_s"]
    assert (time_s.default, time_s.minimum, time_s.maximum) == (900, 1, 86400)
    assert by_key["target"].choices == (100, 250, 500) and by_key["target"].default == 250
    assert by_key["players"].choices == (2, 4) and by_key["players"].default == 2
    fixed = {c.key for c in GAME.conventions() if c.fixed}
    assert fixed == {"double_both_sides", "first_move_into_double", "full_fish", "rule_13",
                     "bonus_66_00"}
    assert all(by_key[k].default is False and by_key[k].kind == "bool" for k in fixed)
    assert not any(by_key[k].fixed for k in ("cross", "full_record", "time_s", "target"))


@pytest.mark.parametrize(("data", "rules"), [
    ({"cross": True}, Rules(cross=True)),
    ({"full_record": True}, Rules(full_record=True)),
    ({"time_s": 1}, Rules(time_s=1)),
    ({"time_s": 86400}, Rules(time_s=86400)),
    ({"time_s": 600.0}, Rules(time_s=600)),
    ({"target": 100}, Rules(target=100)),
    ({"target": 500}, Rules(target=500)),
    ({"players": 2}, Rules()),
    ({"rule_13": False, "full_fish": False}, Rules()),
])
def test_accepted(data: dict[str, Any], rules: Rules) -> None:
    assert parse_rules(data, 2) == rules


@pytest.mark.parametrize(("data", "named"), [
    ({"cross": 1}, "'cross' must be true or false"),
    ({"cross": "yes"}, "'cross'"),
    ({"full_record": None}, "'full_record'"),
    ({"time_s": True}, "'time_s'"),
    ({"time_s": math.nan}, "'time_s'"),
    ({"time_s": math.inf}, "'time_s'"),
    ({"time_s": 0}, "from 1 to 86400"),
    ({"time_s": 86401}, "from 1 to 86400"),
    ({"time_s": -5}, "from 1 to 86400"),
    ({"time_s": 90.5}, "'time_s'"),
    ({"time_s": "900"}, "'time_s'"),
    ({"target": 200}, "one of 100, 250, 500"),
    ({"target": True}, "'target'"),
    ({"target": math.nan}, "'target'"),
    ({"players": 4}, "'players'"),
    ({"players": True}, "'players'"),
    ({"rule_13": True}, "always off"),
    ({"bonus_66_00": 0}, "'bonus_66_00'"),
    ({"spinner": True}, "unknown convention"),
])
def test_refused_with_the_convention_named(data: dict[str, Any], named: str) -> None:
    with pytest.raises(RulesError, match=named.replace("(", r"\(")):
        parse_rules(data, 2)


@pytest.mark.parametrize("seats", [0, 1, 3, 5, True, 2.0])
def test_seat_counts(seats: Any) -> None:
    with pytest.raises(RulesError, match="'players' must be 2 or 4"):
        GAME.parse_rules(None, seats)


def test_not_an_object() -> None:
    with pytest.raises(RulesError):
        parse_rules([1, 2], 2)


def test_rated_allows_any_table_but_the_default_time() -> None:
    assert rated_allows(Rules(cross=True, full_record=True, target=500))
    assert rated_allows(Rules(target=100))
    assert not rated_allows(Rules(time_s=300))
    assert GAME.rated_allows(parse_rules({"players": 4}, 4))


def test_plugin_identity() -> None:
    assert (GAME.key, GAME.record_format, GAME.seat_counts) == ("fives", "fives/1", (2, 4))
    assert GAME.versionless == frozenset({"resign"})
    assert not GAME.has_one_device
