"""A state rebuilt from one seat's view (``GamePlugin.state_from_view``): its view for that
seat is the view, and each level's search plays a legal action from it.

Positions come from random play at moving times (so that the clocks run and spend their
banks), past the end of hands and of the match as well as in the middle of a hand, for
every seat and for a spectator.
"""

from __future__ import annotations

import random

import pytest

from games import registry
from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState, Outcome
from games.search.budget import Budget
from games.search.levels import LEVELS

DOMINO_CASES = [("spectacular-bid", 2), ("fives", 2), ("fives", 4)]


def ids(value: object) -> str:
    return str(value)


def played(plugin: GamePlugin, seats: int, seed: int, decisions: int) -> GameState:
    """A state after ``decisions`` random decisions or a few steps more (a deal, a
    Continue), time moving 0.1 to 3 s a step."""
    rng = random.Random(seed)
    state = plugin.new_state(plugin.parse_rules(None, seats), seats)
    now = 0
    made = 0
    for _ in range(5_000):
        if state.result is not None or (made >= decisions and rng.random() < 0.5):
            return state
        now += rng.randrange(100_000, 3_000_000)
        if state.needs_chance():
            plugin.apply_chance(state, plugin.sample_chance(state, rng), now)
            continue
        seat = state.to_act()
        if seat is None:
            for other in range(seats):
                legal = state.legal_actions(other)
                if legal and rng.random() < 0.7:
                    state.apply(other, legal[0], now)
            continue
        outcome = state.apply(seat, rng.choice(state.legal_actions(seat)), now)
        assert isinstance(outcome, Outcome)
        made += 1
    return state


def other_games_give_none() -> None:
    dice = registry.game("dice")
    assert dice.state_from_view({"game": "dice"}) is None


@pytest.mark.parametrize(("game", "seats"), DOMINO_CASES, ids=ids)
def test_the_view_of_the_rebuilt_state_is_the_view(game: str, seats: int) -> None:
    plugin = registry.game(game)
    for seed in range(40):
        state = played(plugin, seats, seed, seed * 3 % 90)
        for seat in [*range(seats), None]:
            view = plugin.view(state, seat)
            rebuilt = plugin.state_from_view(view)
            assert rebuilt is not None
            assert plugin.view(rebuilt, seat) == view, (seed, seat)


@pytest.mark.parametrize(("game", "seats"), DOMINO_CASES, ids=ids)
def test_every_level_plays_a_legal_action_from_a_view(game: str, seats: int) -> None:
    plugin = registry.game(game)
    searched = 0
    for seed in range(12):
        state = played(plugin, seats, 100 + seed, seed * 5)
        seat = state.to_act()
        if state.result is not None or seat is None or len(state.legal_actions(seat)) < 2:
            continue
        view = plugin.view(state, seat)
        rebuilt = plugin.state_from_view(view)
        assert rebuilt is not None
        legal = [plugin.action_to_dict(seat, code) for code in state.legal_actions(seat)]
        for name, level in LEVELS.items():
            code = level(plugin, rebuilt, seat, random.Random(seed), Budget(iterations=8))
            assert plugin.action_to_dict(seat, code) in legal, (seed, name)
        searched += 1
    assert searched >= 3


def test_a_game_without_it_gives_none() -> None:
    other_games_give_none()
