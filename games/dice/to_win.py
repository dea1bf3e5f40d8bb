"""The dice player that plays to win: the decision with the best chance of finishing first.

"careful" maximises the expected recorded score of its turn, which is right alone at the
table. Against others what counts is finishing first: behind late in the game a risky keep
is worth more than its mean, ahead a safe stand. This player weighs each decision (stand,
or each keep) by the chance that it leads to the win the table plays for:

- on points (the standard game): the chance of the highest final total, a total shared
  for first counting half (a draw). The others' turns still to come (this round's for
  those yet to play, then every later round's) and this player's own later turns are
  taken as careful turns: each a draw from the exact distribution of a careful turn's
  recorded score (``careful_turn``), independent of each other; the totals so far are
  what the view shows;
- on rounds (the quick version, no totals): the chance of winning this round outright
  (a tie for the highest wins nobody), against the scores already recorded in it and a
  careful turn for each player yet to play.

Every probability comes from exact distributions (floats: sums of exact weights over
6 ** 5), so the player is deterministic: no random number is drawn. A solo table has
nobody to beat: the player is careful there.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from . import odds
from .scoring import DICE, FALLBACK, SCORE, dice_of, keeps_of, key_of

JSON = dict[str, Any]
Distribution = tuple[float, ...]  # index: points; value: probability
TIE_SHARE = 0.5  # a first place shared counts half, as a draw does in the rating


def option_distribution(roll_key: int, keep: tuple[int, ...] | None) -> Distribution:
    """The recorded score's distribution for one decision on the roll ``roll_key``."""
    first = SCORE[roll_key]
    if keep is None:
        return _point(first)
    floor = FALLBACK[roll_key]
    rerolled = DICE - len(keep)
    keep_key = key_of(keep)
    weights: dict[int, int] = {}
    for outcome_key, ways in odds.OUTCOMES[rerolled]:
        second = SCORE[keep_key + outcome_key]
        value = second if second > first else floor
        weights[value] = weights.get(value, 0) + ways
    return _from_weights(weights, 6**rerolled)


@cache
def careful_turn() -> Distribution:
    """The recorded score of a careful turn from a fresh roll of five dice."""
    total = [0.0] * (_top() + 1)
    for roll_key, ways in odds.OUTCOMES[DICE]:
        choice = odds.best(dice_of(roll_key)).keep
        for value, chance in enumerate(option_distribution(roll_key, choice)):
            total[value] += chance * ways / 6**DICE
    return tuple(total)


@cache
def careful_turns(count: int) -> Distribution:
    """The sum of ``count`` careful turns."""
    if count <= 0:
        return (1.0,)
    return _convolve(careful_turns(count - 1), careful_turn())


def win_chances(roll: Sequence[int], my_total: int, my_turns_after: int,
                others: Sequence[tuple[int, int]]) -> list[tuple[tuple[int, ...] | None, float]]:
    """Each decision on ``roll`` (None: stand) with its chance of the points win.

    ``others``: (total so far, careful turns still to come) for each other player."""
    roll_key = key_of(roll)
    finals = [_shift(careful_turns(turns), total) for total, turns in others]
    top = max(len(final) for final in finals) if finals else 1
    cumulative = [_cumulative(final) for final in finals]
    share = [_share_of_first(t, cumulative) for t in range(top + 1)]
    later = careful_turns(my_turns_after)
    # after[u]: the chance of the win with u points after this turn, over the later turns.
    after: dict[int, float] = {}

    def win_from(points: int) -> float:
        found = after.get(points)
        if found is None:
            found = sum(chance * (share[points + y] if points + y <= top else 1.0)
                        for y, chance in enumerate(later) if chance)
            after[points] = found
        return found

    return [(keep, sum(chance * win_from(my_total + x)
                       for x, chance in enumerate(option_distribution(roll_key, keep)) if chance))
            for keep in _decisions(roll)]


def round_win_chances(roll: Sequence[int], recorded: Sequence[int], to_play: int
                      ) -> list[tuple[tuple[int, ...] | None, float]]:
    """Each decision on ``roll`` with its chance of winning the round outright, against
    the scores ``recorded`` in it and ``to_play`` careful turns still to come."""
    roll_key = key_of(roll)
    best_so_far = max(recorded, default=-1)
    below = _cumulative(careful_turn())

    def outright(x: int) -> float:
        if x <= best_so_far:
            return 0.0
        return below[x - 1] ** to_play if x > 0 else 0.0

    return [(keep, sum(chance * outright(x)
                       for x, chance in enumerate(option_distribution(roll_key, keep)) if chance))
            for keep in _decisions(roll)]


def keep_to_win(view: JSON) -> tuple[int, ...] | None:
    """The decision to take in ``view`` (the seat's own, its roll on the table): None to
    stand, else the dice to keep."""
    table = view["table"]
    dice = table["dice"]
    seat = view["seat"]
    resigned = view.get("resigned") or [False] * view["players"]
    playing = [s for s in range(view["players"]) if not resigned[s] and s != seat]
    if not playing:
        return odds.best(dice).keep
    rounds = int(view["rules"]["rounds"])
    current = int(view["round"])
    sheet: JSON = view["sheet"][current] if view["sheet"] else {}
    scores: list[int | None] = sheet.get("scores") or [None] * view["players"]
    if view.get("totals") is None:  # the quick version: rounds only
        chances = round_win_chances(dice, [scores[s] or 0 for s in playing
                                           if scores[s] is not None],
                                    sum(1 for s in playing if scores[s] is None))
    else:
        totals: list[int] = view["totals"]
        later = rounds - current - 1
        others = [(totals[s], later + (1 if scores[s] is None else 0)) for s in playing]
        chances = win_chances(dice, totals[seat], later, others)
    careful = odds.best(dice).keep
    best = max(chance for _, chance in chances)
    if next(chance for keep, chance in chances if keep == careful) >= best - 1e-12:
        return careful  # as good as any: the careful choice
    return next(keep for keep, chance in chances if chance >= best - 1e-12)


# -- distributions ---------------------------------------------------------------------


@cache
def _top() -> int:
    return max(SCORE)


def _point(value: int) -> Distribution:
    return tuple(1.0 if v == value else 0.0 for v in range(value + 1))


def _from_weights(weights: dict[int, int], whole: int) -> Distribution:
    found = [0.0] * (max(weights) + 1)
    for value, ways in weights.items():
        found[value] = ways / whole
    return tuple(found)


def _convolve(a: Distribution, b: Distribution) -> Distribution:
    found = [0.0] * (len(a) + len(b) - 1)
    nonzero = [(j, q) for j, q in enumerate(b) if q]
    for i, p in enumerate(a):
        if p:
            for j, q in nonzero:
                found[i + j] += p * q
    return tuple(found)


def _shift(distribution: Distribution, by: int) -> Distribution:
    return (0.0,) * by + distribution


def _cumulative(distribution: Distribution) -> Distribution:
    """``found[t]``: the chance of at most t."""
    running = 0.0
    found = []
    for chance in distribution:
        running += chance
        found.append(min(1.0, running))
    return tuple(found)


def _share_of_first(t: int, cumulative: Sequence[Distribution]) -> float:
    """With a final total of ``t``: the chance of sole first, plus ``TIE_SHARE`` of the
    chance of first shared, against independent final totals (``cumulative``: each one's
    chance of at most each value)."""
    below = 1.0  # all others under t
    level_or_below = 1.0  # all others at most t
    for at_most in cumulative:
        last = len(at_most) - 1
        below *= at_most[min(t - 1, last)] if t > 0 else 0.0
        level_or_below *= at_most[min(t, last)]
    return below + TIE_SHARE * (level_or_below - below)


def _decisions(roll: Sequence[int]) -> list[tuple[int, ...] | None]:
    return [None, *keeps_of(roll)]
