"""Scoring five dice (dice.md, "Scoring a roll of five dice" and "A turn")."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from games.dice import scoring
from games.dice.scoring import keeps_of, reading, recorded, score

# Every row of the table, and the source's worked examples.
ROWS = [
    ((4, 4, 1, 2, 6), "pair", 16),
    ((2, 2, 5, 5, 1), "two_pairs", 28),
    ((4, 4, 4, 1, 6), "set", 36),
    ((1, 1, 1, 6, 6), "full_house", 33),
    ((2, 2, 2, 4, 4), "full_house", 34),
    ((1, 1, 1, 5, 5), "full_house", 29),
    ((2, 2, 2, 2, 5), "four", 32),
    ((2, 2, 2, 2, 2), "five", 50),
    ((3, 4, 5, 6, 6), "small_straight", 72),
    ((1, 2, 3, 4, 4), "small_straight", 40),
    ((2, 3, 4, 5, 6), "large_straight", 100),
    ((1, 2, 3, 4, 5), "large_straight", 75),
    ((1, 2, 3, 5, 6), "nothing", 6),
    ((1, 2, 4, 5, 6), "nothing", 6),
    ((5, 4, 4, 6, 2), "pair", 16),  # the source's first roll
    ((2, 2, 4, 5, 6), "pair", 8),
    ((2, 2, 2, 1, 6), "set", 18),
]


@pytest.mark.parametrize(("dice", "name", "value"), ROWS)
def test_every_row(dice: tuple[int, ...], name: str, value: int) -> None:
    best = reading(dice)
    assert (best.name, best.score) == (name, value)
    assert score(reversed(dice)) == value  # the order of the dice does not matter


def test_a_roll_read_two_ways_takes_the_higher() -> None:
    # 1 2 3 4 4: a pair of fours (16) or a small straight (40).
    assert reading((1, 2, 3, 4, 4)).name == "small_straight"
    assert score((1, 2, 3, 4, 4)) == 40
    # 2 2 2 2 reads as two pairs (16) or four of a kind (32).
    assert score((2, 2, 2, 2, 6)) == 32
    # A full house is also a set and a pair.
    assert score((1, 1, 1, 6, 6)) == 33


@pytest.mark.parametrize(("dice", "plain"), [
    ((4, 4, 1, 2, 6), 8),  # pair 4 4 -> 8
    ((1, 1, 1, 6, 6), 15),  # full house -> 15
    ((1, 2, 3, 5, 6), 6),  # nothing -> the highest die
    ((2, 2, 5, 5, 1), 14),
    ((1, 2, 3, 4, 4), 10),
    ((2, 3, 4, 5, 6), 20),
])
def test_fallback_is_the_plain_sum_of_the_combination(dice: tuple[int, ...], plain: int) -> None:
    assert scoring.fallback(dice) == plain


def test_recorded_score_of_a_turn() -> None:
    first = (5, 4, 4, 6, 2)
    assert recorded(first, None) == 16  # stand
    assert recorded(first, (4, 4, 1, 4, 6)) == 36  # the source: kept 4 4, rolled 1 4 6
    assert recorded(first, (1, 2, 3, 5, 6)) == 8  # worse: back to the plain sum
    assert recorded(first, (4, 4, 1, 2, 6)) == 8  # equal is not more
    assert recorded((1, 1, 1, 6, 6), (1, 1, 1, 2, 3)) == 15
    assert recorded((1, 2, 3, 5, 6), (2, 2, 4, 5, 5)) == 28  # the source's round 2
    assert recorded((1, 2, 3, 5, 6), (1, 2, 4, 5, 6)) == 6
    assert recorded((2, 2, 4, 5, 6), (5, 6, 1, 2, 6)) == 24  # the source's round 3


# -- an independent oracle: every reading of every sub-multiset of positions


def _readings(dice: tuple[int, ...]) -> list[tuple[int, int]]:
    """(score, plain sum) of every combination the roll contains."""
    found = []
    for size in range(2, 6):
        for picked in combinations(range(5), size):
            part = sorted(dice[i] for i in picked)
            values = set(part)
            total = sum(part)
            counts = sorted(part.count(v) for v in values)
            if len(values) == 1:  # pair, set, four, five: sum x number of dice
                found.append((total * size, total))
            elif size == 4 and counts == [2, 2]:
                found.append((2 * total, total))
            elif size == 5 and counts == [2, 3]:
                triple = next(v for v in values if part.count(v) == 3)
                pair = next(v for v in values if part.count(v) == 2)
                found.append((9 * triple + 4 * pair, total))
            elif size >= 4 and len(values) == size and part[-1] - part[0] == size - 1:
                found.append((total * size, total))
    return found


def test_every_roll_scores_the_maximum_over_every_reading() -> None:
    seen = 0
    for dice in product(range(1, 7), repeat=5):
        found = _readings(dice)
        if found:
            top = max(s for s, _ in found)
            plains = {p for s, p in found if s == top}
            # The best reading's dice are unambiguous, so the fallback is too.
            assert len(plains) == 1, dice
            expected_score, expected_plain = top, plains.pop()
        else:
            expected_score = expected_plain = max(dice)
        assert score(dice) == expected_score, dice
        assert scoring.fallback(dice) == expected_plain, dice
        seen += 1
    assert seen == 7776


def test_nothing_is_only_the_two_rolls_of_the_table() -> None:
    nothing = {tuple(sorted(d)) for d in product(range(1, 7), repeat=5)
               if reading(d).name == "nothing"}
    assert nothing == {(1, 2, 3, 5, 6), (1, 2, 4, 5, 6)}


def test_keeps_are_the_distinct_sub_multisets_of_zero_to_four_dice() -> None:
    assert len(keeps_of((1, 2, 3, 4, 5))) == 31
    assert len(keeps_of((6, 6, 6, 6, 6))) == 5  # none, one, two, three or four sixes
    keeps = keeps_of((4, 4, 1, 2, 6))
    assert () in keeps and (4, 4) in keeps and (1, 2, 4, 6) in keeps
    assert (4, 4, 4) not in keeps and (1, 2, 4, 4, 6) not in keeps
    assert len(keeps) == len(set(keeps)) == 3 * 2 * 2 * 2 - 1


@pytest.mark.parametrize("bad", [[0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [1, 2, 3, 4, True],
                                 [1, 2, 3, 4, 2.0], "12345", [1, 2, 3, 4]])
def test_dice_from_data_are_checked(bad: object) -> None:
    with pytest.raises(scoring.DiceError):
        scoring.check_dice(bad, 5)
