"""A domino deal as the fairness check compares it (``games/engine/fairness.py``).

Every domino game deals by shuffling the 28 tiles of the set (ids 0..27, ``tiles.py``)
and cutting the order into hands and a pile in draw order. A hand is compared as a set
(the order a player holds their tiles in means nothing), the pile in draw order.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.protocol import JSON, ChanceSource

from .tiles import TILE_COUNT, tile_name


def deal_outcome(hands: Sequence[Sequence[int]], pile: Sequence[int]) -> JSON:
    return {"hands": [sorted(tile_name(t) for t in hand) for hand in hands],
            "pile": [tile_name(t) for t in pile]}


def shuffled_set(rng: ChanceSource) -> list[int]:
    """The 28 tiles in the order ``rng`` shuffles them (Fisher-Yates from the end)."""
    tiles = list(range(TILE_COUNT))
    rng.shuffle(tiles)
    return tiles


def cut(tiles: Sequence[int], seats: int, hand_size: int) -> tuple[list[list[int]], list[int]]:
    """A shuffled set cut into ``seats`` hands of ``hand_size``, then the pile."""
    hands = [list(tiles[i * hand_size:(i + 1) * hand_size]) for i in range(seats)]
    return hands, list(tiles[seats * hand_size:])
