"""Exact odds of a turn, the post-game analysis and the computer players."""

from __future__ import annotations

import math
import random
import time
from fractions import Fraction
from itertools import product

import pytest

from games.dice import bot, odds
from games.dice.plugin import GAME
from games.dice.rules import Rules
from games.dice.scoring import keeps_of, recorded

from .helpers import play, roll

ROLLS = [(5, 4, 4, 6, 2), (1, 1, 1, 6, 6), (1, 2, 3, 5, 6), (2, 2, 5, 5, 1), (6, 6, 6, 6, 3)]


def enumerated(dice: tuple[int, ...], keep: tuple[int, ...]) -> Fraction:
    """Every ordered outcome of the re-rolled dice, one by one (no grouping)."""
    outcomes = list(product(range(1, 7), repeat=5 - len(keep)))
    return Fraction(sum(recorded(dice, keep + new) for new in outcomes), len(outcomes))


@pytest.mark.parametrize("dice", ROLLS[:2])
def test_every_keep_matches_a_full_enumeration(dice: tuple[int, ...]) -> None:
    for keep in keeps_of(dice):
        if len(keep) >= 2 or keep == ():
            assert odds.keep_expectation(dice, keep) == enumerated(dice, keep), keep


@pytest.mark.parametrize("dice", ROLLS)
def test_every_keep_within_a_monte_carlo_interval(dice: tuple[int, ...]) -> None:
    rng = random.Random(20240611)
    samples = 3000
    for keep in keeps_of(dice):
        values = [recorded(dice, keep + tuple(rng.randint(1, 6) for _ in range(5 - len(keep))))
                  for _ in range(samples)]
        mean = sum(values) / samples
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (samples - 1))
        exact = float(odds.keep_expectation(dice, keep))
        # Five standard errors (and a floor for keeps whose outcome barely varies).
        assert abs(mean - exact) <= 5 * spread / math.sqrt(samples) + 1e-9, (keep, mean, exact)


def test_options_cover_stand_and_every_keep_best_first() -> None:
    found = odds.options((5, 4, 4, 6, 2))
    assert len(found) == 1 + len(keeps_of((5, 4, 4, 6, 2)))
    assert found[0].expected == max(o.expected for o in found)
    stand = odds.option_for((5, 4, 4, 6, 2), None)
    assert stand.expected == 16
    assert odds.best((2, 3, 4, 5, 6)).is_stand  # a large straight stands
    assert odds.best((1, 2, 3, 5, 6)).keep is not None  # nothing to lose
    assert [o.expected for o in odds.best_few((1, 2, 3, 5, 6), 3)] == sorted(
        (o.expected for o in odds.options((1, 2, 3, 5, 6))), reverse=True)[:3]
    assert odds.options((2, 4, 4, 5, 6)) is odds.options((6, 5, 4, 4, 2))  # cached by roll


def test_the_best_turn_expectation() -> None:
    best = odds.expected_turn_score()
    assert 40 < best < 50
    # Standing always is the plain expected score of a roll.
    plain = Fraction(sum(odds.option_for(d, None).expected
                         for d in product(range(1, 7), repeat=5)), 7776)
    assert plain < best


def test_analysis_puts_each_decision_beside_the_best() -> None:
    record = {"format": "dice/1", "players": ["a", "b"], "rules": {"rounds": 1}, "actions": [
        {"type": "order", "seat": 0, "die": 6}, {"type": "order", "seat": 1, "die": 1},
        {"type": "roll", "seat": 0, "dice": [2, 3, 4, 5, 6]},
        {"type": "improve", "seat": 0, "keep": [], "dice": [1, 1, 1, 1, 1]},
        {"type": "roll", "seat": 1, "dice": [5, 4, 4, 6, 2]},
        {"type": "improve", "seat": 1, "keep": [4, 5, 6], "dice": [1, 1]},
    ]}
    result = odds.analyse_record(record)
    first, second = result["decisions"]
    assert first["decision"]["type"] == "improve" and first["best"]["type"] == "stand"
    assert first["cost"] == pytest.approx(100 - float(odds.keep_expectation(
        (2, 3, 4, 5, 6), ())))
    assert second["cost"] == 0 and second["recorded"] == 8
    assert result["cost_by_seat"][0] == pytest.approx(first["cost"])
    assert len(first["alternatives"]) == 3


def test_careful_bot_takes_the_best_expectation() -> None:
    game = GAME.new_state(Rules(), 1)
    roll(game, [5, 4, 4, 6, 2])
    choice = GAME.bot_action(GAME.view(game, 0), random.Random(1))
    assert choice == {"seat": 0, "type": "improve", "keep": [4, 5, 6]}
    assert GAME.bot_action(GAME.view(game, None), random.Random(1)) is None
    roll_game = GAME.new_state(Rules(), 1)
    assert GAME.bot_action(GAME.view(roll_game, 0), random.Random(1)) is None  # dice due


def test_easy_bot_makes_legal_decisions() -> None:
    rng = random.Random(5)
    for dice in product(range(1, 7), repeat=5):
        if rng.random() > 0.05:
            continue
        game = GAME.new_state(Rules(), 1)
        roll(game, list(dice))
        view = GAME.view(game, 0)
        choice = GAME.bot_action_at(view, rng, "easy")
        assert choice is not None
        legal = [{k: v for k, v in a.items()} for a in view["legal"]]
        assert choice in legal


def test_careful_decisions_are_fast_and_beat_easy() -> None:
    odds._options.cache_clear()
    rng = random.Random(3)
    worst = 0.0
    for _ in range(30):
        dice = [rng.randint(1, 6) for _ in range(5)]
        start = time.perf_counter()
        bot.careful_keep(dice)
        worst = max(worst, time.perf_counter() - start)
    assert worst < 0.05  # a decision with a cold cache: under 50 ms
    careful = sum(play(s, 1, Rules(), level="careful", late=0)[0].totals[0] for s in range(40))
    easy = sum(play(s, 1, Rules(), level="easy", late=0)[0].totals[0] for s in range(40))
    assert careful > easy
