"""Scoring five dice (dice.md, "Scoring a roll of five dice").

A roll scores its best combination, the multiplier being the number of dice in it.
Rolls are handled as multisets: the *key* of a multiset of dice is the sum of
``6 ** (value - 1)`` over its dice, so that joining two multisets adds their keys
(kept dice plus re-rolled dice is one addition). Every score is looked up in tables
built once, at import, for the 252 distinct rolls of five dice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

DICE = 5
FACES = (1, 2, 3, 4, 5, 6)
KEY_SPACE = 6**6  # every count of every face below 6: enough for up to five dice

PLACE = (0, 1, 6, 36, 216, 1296, 7776)  # PLACE[v] = 6 ** (v - 1): the key of one die v

# Combination names, as views and records show them.
PAIR = "pair"
TWO_PAIRS = "two_pairs"
SET = "set"
FULL_HOUSE = "full_house"
FOUR = "four"
FIVE = "five"
SMALL_STRAIGHT = "small_straight"
LARGE_STRAIGHT = "large_straight"
NOTHING = "nothing"


class DiceError(ValueError):
    """Dice that are not whole numbers from 1 to 6, or not the number expected."""


@dataclass(frozen=True, slots=True)
class Reading:
    """The best combination of a roll: its name, the dice in it, and its score."""

    name: str
    dice: tuple[int, ...]  # ascending; for "nothing", the highest die alone
    score: int

    @property
    def plain_sum(self) -> int:
        """The fallback of a failed improvement: the plain sum of the combination's dice
        (for "nothing", the highest die)."""
        return sum(self.dice)


def key_of(dice: Iterable[int]) -> int:
    return sum(PLACE[v] for v in dice)


def counts_of(key: int) -> tuple[int, ...]:
    """Counts of faces 1..6 (index 0 is face 1) of a multiset key."""
    out = []
    for _ in FACES:
        out.append(key % 6)
        key //= 6
    return tuple(out)


def dice_of(key: int) -> tuple[int, ...]:
    """The dice of a multiset key, ascending."""
    return tuple(v for v, c in zip(FACES, counts_of(key), strict=True) for _ in range(c))


def check_dice(values: object, count: int | None = None, where: str = "dice") -> tuple[int, ...]:
    """Dice from untrusted data: a list of whole numbers 1..6 (``count`` of them)."""
    if not isinstance(values, (list, tuple)):
        raise DiceError(f"{where} must be a list of dice")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise DiceError(f"{where}: a die is a whole number from 1 to 6, got {v!r}")
    if count is not None and len(values) != count:
        raise DiceError(f"{where} must hold {count} dice, got {len(values)}")
    return tuple(values)


def _read(counts: Sequence[int]) -> Reading:
    """The highest-scoring combination of a roll given by its face counts."""
    c = {v: counts[v - 1] for v in FACES}
    best = Reading(NOTHING, (max(v for v in FACES if c[v]),), max(v for v in FACES if c[v]))
    found = False

    def offer(name: str, dice: Sequence[int], multiplier_score: int) -> None:
        nonlocal best, found
        if not found or multiplier_score > best.score:
            best = Reading(name, tuple(sorted(dice)), multiplier_score)
        found = True

    pairs = [v for v in FACES if c[v] >= 2]
    for v in FACES:
        if c[v] == 5:
            offer(FIVE, [v] * 5, 25 * v)
        if c[v] >= 4:
            offer(FOUR, [v] * 4, 16 * v)
        if c[v] >= 3:
            offer(SET, [v] * 3, 9 * v)
            for w in FACES:
                if w != v and c[w] == 2:
                    offer(FULL_HOUSE, [v] * 3 + [w] * 2, 9 * v + 4 * w)
    for v in pairs:
        offer(PAIR, [v, v], 4 * v)
        for w in pairs:
            if w > v:
                offer(TWO_PAIRS, [v, v, w, w], 4 * (v + w))
    for low in (1, 2):
        run = range(low, low + 5)
        if all(c[v] for v in run):
            offer(LARGE_STRAIGHT, list(run), 5 * sum(run))
    for low in (1, 2, 3):
        run = range(low, low + 4)
        if all(c[v] for v in run):
            offer(SMALL_STRAIGHT, list(run), 4 * sum(run))
    return best


def _five_dice_keys() -> list[int]:
    keys: list[int] = []

    def build(face: int, left: int, key: int) -> None:
        if face == 6:
            keys.append(key + left * PLACE[6])
            return
        for count in range(left + 1):
            build(face + 1, left - count, key + count * PLACE[face])

    build(1, DICE, 0)
    return keys


ROLL_KEYS: tuple[int, ...] = tuple(sorted(_five_dice_keys()))  # the 252 distinct rolls
READINGS: dict[int, Reading] = {k: _read(counts_of(k)) for k in ROLL_KEYS}
# Flat tables indexed by key, for the odds' inner loops.
SCORE: list[int] = [0] * KEY_SPACE
FALLBACK: list[int] = [0] * KEY_SPACE
for _key, _reading in READINGS.items():
    SCORE[_key] = _reading.score
    FALLBACK[_key] = _reading.plain_sum
del _key, _reading


def reading(dice: Iterable[int]) -> Reading:
    """The best combination of five dice (any order)."""
    values = tuple(dice)
    if len(values) != DICE:
        raise DiceError(f"a roll has {DICE} dice, got {len(values)}")
    return READINGS[key_of(values)]


def score(dice: Iterable[int]) -> int:
    return reading(dice).score


def fallback(dice: Iterable[int]) -> int:
    return reading(dice).plain_sum


def recorded(first: Iterable[int], second: Iterable[int] | None) -> int:
    """A turn's recorded score: the first attempt's when standing; after an improvement
    the second attempt's if it scores more, else the first's plain sum (dice.md, "A turn")."""
    first_reading = reading(first)
    if second is None:
        return first_reading.score
    second_score = score(second)
    return second_score if second_score > first_reading.score else first_reading.plain_sum


def is_sub_multiset(part: Iterable[int], whole: Iterable[int]) -> bool:
    left = list(whole)
    for v in part:
        if v not in left:
            return False
        left.remove(v)
    return True


def keeps_of(dice: Iterable[int]) -> list[tuple[int, ...]]:
    """Every distinct keep of a roll (a sub-multiset of 0 to 4 dice), ascending tuples,
    shortest first."""
    counts = counts_of(key_of(dice))
    found: list[tuple[int, ...]] = []

    def build(face: int, chosen: tuple[int, ...]) -> None:
        if face > 6:
            if len(chosen) < DICE:
                found.append(chosen)
            return
        for n in range(counts[face - 1] + 1):
            build(face + 1, chosen + (face,) * n)

    build(1, ())
    found.sort(key=lambda keep: (len(keep), keep))
    return found
