"""Refused table rules are worded by the platform, for every game, in the user's language.

A game raises ``RulesError`` with the rule and the problem; ``games.web.rules_text`` words it
from the game's conventions. No game's own (English) message reaches the user.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games import registry
from games.engine.plugin import Convention, GamePlugin
from games.play.lobby import LobbyError, check_table_rules

pytestmark = pytest.mark.django_db


def _bad_value(convention: Convention) -> Any:
    if convention.kind == "bool":
        return "yes"
    if convention.choices:
        return max(convention.choices) + 1
    assert convention.maximum is not None, convention
    return convention.maximum + 1


def _cases() -> list[tuple[str, Convention]]:
    return [(plugin.key, convention) for plugin in registry.all_games()
            for convention in plugin.conventions()
            if not convention.fixed and convention.key != "players"]


def _refusal(plugin: GamePlugin, rules: Any, language: str = "en") -> str:
    with translation.override(language), pytest.raises(LobbyError) as refused:
        check_table_rules(False, rules, plugin.key, plugin.seat_counts[-1])
    return str(refused.value)


@pytest.mark.parametrize("key, convention", _cases(), ids=lambda c: getattr(c, "key", c))
def test_an_out_of_range_convention_is_named_with_its_range(key: str,
                                                            convention: Convention) -> None:
    plugin = registry.game(key)
    message = _refusal(plugin, {convention.key: _bad_value(convention)})
    assert convention.key in message
    if convention.kind == "bool":
        assert "true or false" in message
    elif convention.choices:
        assert all(str(choice) in message for choice in convention.choices)
    else:
        for bound in (convention.minimum, convention.maximum):
            assert bound is not None and f"{bound:g}" in message, message
    translated = _refusal(plugin, {convention.key: _bad_value(convention)}, "ru")
    assert translated != message and convention.key in translated


@pytest.mark.parametrize("plugin", registry.all_games(), ids=lambda p: p.key)
def test_unknown_rules_and_non_objects_are_worded_for_every_game(plugin: GamePlugin) -> None:
    message = _refusal(plugin, {"handicap": 5})
    assert message == "There is no table rule called 'handicap'."
    assert _refusal(plugin, {"handicap": 5}, "fr") != message
    message = _refusal(plugin, [1, 2])
    assert "object" in message


def test_a_rule_left_out_of_the_form_still_names_its_range() -> None:
    """Spectacular Bid's grace is not offered in the lobby's form, but may be sent."""
    message = _refusal(registry.game("spectacular-bid"), {"grace_s": 0})
    assert message == "The table rule grace_s must be a number of seconds from 1 to 3600."


def test_a_fixed_convention_is_always_off() -> None:
    fives = registry.game("fives")
    fixed = next(c for c in fives.conventions() if c.fixed)
    assert _refusal(fives, {fixed.key: True}) == (
        f"The table rule {fixed.key} is always off in this room.")


def test_a_one_device_table_is_started_from_the_lobby() -> None:
    message = _refusal(registry.game("spectacular-bid"), {"one_device": True})
    assert "one-device" in message


def test_a_players_rule_that_disagrees_with_the_seats_names_the_seat_counts() -> None:
    fives = registry.game("fives")
    assert _refusal(fives, {"players": 2}) == "Fives with the cross is played by 2, 4 players."
