"""The derived chance is unbiased: chi-square over 100,000 derived deals and rolls.

Deterministic (fixed seeds, events 0..N-1), so the test gives the same answer every run;
the bound is the 99% point of the chi-square distribution.
"""

from __future__ import annotations

from collections import Counter

from games.engine.fairness import DerivedChance

SEED = bytes.fromhex("5eed" * 16)
SAMPLES = 100_000
# 99% points of chi-square: 27 degrees of freedom (28 tiles), 5 (six faces).
CHI2_99 = {27: 46.963, 5: 15.086}


def chi_square(counts: Counter[int], categories: int, total: int) -> float:
    expected = total / categories
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(categories))


def test_the_first_tile_of_a_deal_is_uniform() -> None:
    first: Counter[int] = Counter()
    for event in range(SAMPLES):
        tiles = list(range(28))
        DerivedChance(SEED, ["alice", ""], "chi-square-deals", event).shuffle(tiles)
        first[tiles[0]] += 1
    assert chi_square(first, 28, SAMPLES) < CHI2_99[27]


def test_dice_are_uniform() -> None:
    faces: Counter[int] = Counter()
    for event in range(SAMPLES // 5):
        rng = DerivedChance(SEED, ["alice", "bob", "carol"], "chi-square-dice", event)
        for _ in range(5):
            faces[rng.randint(1, 6) - 1] += 1
    assert chi_square(faces, 6, SAMPLES) < CHI2_99[5]


def test_a_tile_lands_in_every_position_alike() -> None:
    """Where the 6-6 lands over the 28 places (a shuffle that favoured the ends would show)."""
    where: Counter[int] = Counter()
    for event in range(SAMPLES // 4):
        tiles = list(range(28))
        DerivedChance(SEED, ["x"], "chi-square-places", event).shuffle(tiles)
        where[tiles.index(27)] += 1
    assert chi_square(where, 28, SAMPLES // 4) < CHI2_99[27]
