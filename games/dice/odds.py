"""Exact odds of a turn: the expected recorded score of standing and of every keep.

For a keep of ``k`` dice the other ``5 - k`` are re-rolled; the outcomes are grouped
by multiset (at most 252 groups, for the 6 ** 5 = 7,776 ordered outcomes of five
dice), each weighted by how many ordered outcomes it stands for. The recorded score
of each outcome follows dice.md: the second attempt if it scores more than the
first, else the first attempt's plain sum (the fallback). Sums are whole numbers
over ``6 ** (5 - k)``, so every expectation is exact (a Fraction).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

from .record import parse
from .replay import replay
from .scoring import DICE, FACES, FALLBACK, SCORE, dice_of, keeps_of, key_of

JSON = dict[str, Any]


def _outcomes(count: int) -> tuple[tuple[int, int], ...]:
    """(multiset key, number of ordered outcomes) for ``count`` dice rolled."""
    groups = Counter(key_of(roll) for roll in product(FACES, repeat=count))
    return tuple(sorted(groups.items()))


OUTCOMES: tuple[tuple[tuple[int, int], ...], ...] = tuple(_outcomes(n) for n in range(DICE + 1))


@dataclass(frozen=True, slots=True)
class Option:
    """One decision for the roll on the table and its expected recorded score."""

    keep: tuple[int, ...] | None  # None: stand; else the dice kept, ascending
    expected: Fraction

    @property
    def is_stand(self) -> bool:
        return self.keep is None

    def to_dict(self) -> JSON:
        decision: JSON = ({"type": "stand"} if self.keep is None
                          else {"type": "improve", "keep": list(self.keep)})
        return {**decision, "expected": float(self.expected)}


def keep_expectation(dice: tuple[int, ...] | list[int], keep: tuple[int, ...] | list[int]
                     ) -> Fraction:
    """The exact expected recorded score of keeping ``keep`` of ``dice`` and re-rolling
    the rest once."""
    roll_key = key_of(dice)
    return _keep_expectation(roll_key, key_of(keep), DICE - len(keep))


def _keep_expectation(roll_key: int, keep_key: int, rerolled: int) -> Fraction:
    first = SCORE[roll_key]
    floor = FALLBACK[roll_key]
    total = 0
    for outcome_key, ways in OUTCOMES[rerolled]:
        second = SCORE[keep_key + outcome_key]
        total += ways * (second if second > first else floor)
    return Fraction(total, 6**rerolled)


@cache
def _options(roll_key: int) -> tuple[Option, ...]:
    dice = dice_of(roll_key)
    found = [Option(None, Fraction(SCORE[roll_key]))]
    for keep in keeps_of(dice):
        found.append(Option(keep, _keep_expectation(roll_key, key_of(keep), DICE - len(keep))))
    # Best first; on equal expectations standing first, then the keep of more dice (less
    # left to chance), then the lower values.
    found.sort(key=lambda o: (-o.expected, o.keep is not None,
                              -len(o.keep or ()), o.keep or ()))
    return tuple(found)


def options(dice: tuple[int, ...] | list[int]) -> tuple[Option, ...]:
    """Standing and every distinct keep of a roll, best first (cached by sorted roll)."""
    return _options(key_of(dice))


def best(dice: tuple[int, ...] | list[int]) -> Option:
    return _options(key_of(dice))[0]


def best_few(dice: tuple[int, ...] | list[int], count: int = 3) -> tuple[Option, ...]:
    return _options(key_of(dice))[:count]


def option_for(dice: tuple[int, ...] | list[int], keep: tuple[int, ...] | None) -> Option:
    """The option of a decision taken (``keep`` None: a stand)."""
    wanted = None if keep is None else tuple(sorted(keep))
    for option in _options(key_of(dice)):
        if option.keep == wanted:
            return option
    raise ValueError(f"{keep!r} is not a keep of {dice!r}")


def expected_turn_score() -> Fraction:
    """The expected recorded score of a turn played by the best expectation."""
    total = Fraction(0)
    for roll_key, ways in OUTCOMES[DICE]:
        total += ways * _options(roll_key)[0].expected
    return total / Fraction(6**DICE)


# --------------------------------------------------------------- post-game analysis


def analyse_turns(turns: list[Any], seats: int) -> JSON:
    """Each decision of a game beside the best one, with the expected points it cost.

    ``turns`` are the engine's turns (``state.Turn``); a turn left undecided (its
    player resigned) has no decision to judge.
    """
    decisions: list[JSON] = []
    cost_by_seat = [Fraction(0)] * seats
    for turn in turns:
        if turn.recorded is None:
            continue
        taken = option_for(turn.dice, turn.keep)
        top = best(turn.dice)
        cost = top.expected - taken.expected
        cost_by_seat[turn.seat] += cost
        decisions.append({
            "round": turn.round,
            "seat": turn.seat,
            "dice": list(turn.dice),
            "decision": taken.to_dict(),
            "forced": turn.forced,
            "recorded": turn.recorded,
            "best": top.to_dict(),
            "alternatives": [o.to_dict() for o in best_few(turn.dice)],
            "cost": float(cost),
        })
    return {"decisions": decisions, "cost_by_seat": [float(c) for c in cost_by_seat]}


def analyse_record(document: Any) -> JSON:
    """The analysis of a ``dice/1`` record (a parsed JSON object); RecordError when it is
    malformed. A record with an illegal action is analysed up to that action."""
    record = parse(document)
    game = replay(record).game
    return analyse_turns(game.turns, len(record.players))
