"""The dice player that plays to win (games/dice/to_win.py)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dice import bot, odds, to_win
from games.dice.plugin import GAME
from games.dice.rules import Rules
from games.dice.scoring import keeps_of, key_of
from games.dice.state import DiceGame


def mean(distribution: tuple[float, ...]) -> float:
    return sum(value * chance for value, chance in enumerate(distribution))


def test_a_careful_turn_is_the_exact_best_expectation() -> None:
    turn = to_win.careful_turn()
    assert sum(turn) == pytest.approx(1.0)
    assert mean(turn) == pytest.approx(float(odds.expected_turn_score()), abs=1e-9)
    assert mean(to_win.careful_turns(3)) == pytest.approx(3 * mean(turn), abs=1e-6)
    assert to_win.careful_turns(0) == (1.0,)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_each_decisions_distribution_has_its_exact_expectation(dice: list[int]) -> None:
    stand = to_win.option_distribution(key_of(dice), None)  # a point mass
    assert stand.count(1.0) == 1 and sum(stand) == 1.0
    for keep in keeps_of(dice):
        found = to_win.option_distribution(key_of(dice), keep)
        assert sum(found) == pytest.approx(1.0)
        assert Fraction(mean(found)).limit_denominator(7776) == odds.keep_expectation(dice, keep)


def test_behind_late_it_takes_the_risk_and_ahead_it_stands() -> None:
    straight_draw = [1, 2, 3, 4, 6]  # a small straight (40): careful stands
    assert odds.best(straight_draw).keep is None
    behind = dict(to_win.win_chances(straight_draw, 100, 1, [(180, 2)]))
    assert max(behind, key=lambda k: behind[k]) is not None  # it must improve to catch up
    ahead = dict(to_win.win_chances(straight_draw, 180, 1, [(100, 2)]))
    assert max(ahead, key=lambda k: ahead[k]) is None
    assert all(0.0 <= chance <= 1.0 for chance in (*behind.values(), *ahead.values()))


def test_on_rounds_it_plays_for_this_round() -> None:
    # Needing more than 40 to win the round outright, a stand on 40 cannot win it.
    chances = dict(to_win.round_win_chances([1, 2, 3, 4, 6], [40], 0))
    assert chances[None] == 0.0
    assert max(chances.values()) > 0.0


def play(seats: int, quick: bool, seed: int) -> int:
    """A game where every seat plays to win; returns the decisions taken."""
    rng = random.Random(seed)
    game = GAME.new_state(Rules(rounds=3, quick=quick), seats)
    assert isinstance(game, DiceGame)
    decisions = 0
    while game.result is None:
        if game.needs_chance():
            GAME.apply_chance(game, GAME.sample_chance(game, rng), 0)
            continue
        seat = game.to_act()
        assert seat is not None
        choice = bot.choose(GAME.view(game, seat), rng, bot.TO_WIN)
        assert choice is not None
        outcome = game.apply(*GAME.action_from_dict(choice), 0)
        assert getattr(outcome, "applied", False), outcome
        decisions += 1
    return decisions


@pytest.mark.parametrize("seats", [1, 2, 4, 6])
@pytest.mark.parametrize("quick", [False, True])
def test_it_plays_whole_games_with_legal_decisions(seats: int, quick: bool) -> None:
    assert play(seats, quick, seed=seats * 7 + quick) == 3 * seats


def test_alone_it_is_careful() -> None:
    rng = random.Random(3)
    game = GAME.new_state(Rules(), 1)
    while game.needs_chance():
        GAME.apply_chance(game, GAME.sample_chance(game, rng), 0)
    view = GAME.view(game, 0)
    assert to_win.keep_to_win(view) == odds.best(view["table"]["dice"]).keep
