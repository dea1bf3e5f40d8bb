"""The double-six set as small integers.

Inside the engines a tile is an int 0..27 and a hand is a 28-bit mask; the
machine form ``"a-b"`` (a <= b) is used only at the edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import reduce
from operator import or_

TILE_COUNT = 28
MAX_PIP = 6

TILE_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (lo, hi) for lo in range(MAX_PIP + 1) for hi in range(lo, MAX_PIP + 1)
)
LO: tuple[int, ...] = tuple(lo for lo, _ in TILE_PAIRS)
HI: tuple[int, ...] = tuple(hi for _, hi in TILE_PAIRS)
PIPS: tuple[int, ...] = tuple(lo + hi for lo, hi in TILE_PAIRS)
IS_DOUBLE: tuple[bool, ...] = tuple(lo == hi for lo, hi in TILE_PAIRS)
TILE_NAMES: tuple[str, ...] = tuple(f"{lo}-{hi}" for lo, hi in TILE_PAIRS)
_TILE_BY_NAME: dict[str, int] = {name: tile for tile, name in enumerate(TILE_NAMES)}
_TILE_BY_PAIR: dict[tuple[int, int], int] = {pair: tile for tile, pair in enumerate(TILE_PAIRS)}

FULL_SET_MASK = (1 << TILE_COUNT) - 1
# VALUE_MASK[v]: every tile with a half equal to v.
VALUE_MASK: tuple[int, ...] = tuple(
    sum(1 << t for t, (lo, hi) in enumerate(TILE_PAIRS) if v in (lo, hi))
    for v in range(MAX_PIP + 1)
)
# PLAYABLE_MASK[open_values]: tiles matching any value in a 7-bit set of values.
PLAYABLE_MASK: tuple[int, ...] = tuple(
    reduce(or_, (VALUE_MASK[v] for v in range(MAX_PIP + 1) if bits >> v & 1), 0)
    for bits in range(1 << (MAX_PIP + 1))
)


class TileError(ValueError):
    """A tile written in a form the engine does not know."""


def tile_from_name(name: object) -> int:
    """``"1-4"`` (or ``"4-1"``) -> tile id; anything else raises TileError."""
    if not isinstance(name, str):
        raise TileError(f"tile must be a string like '1-4', got {name!r}")
    tile = _TILE_BY_NAME.get(name)
    if tile is not None:
        return tile
    parts = name.split("-")
    if len(parts) == 2 and all(len(p) == 1 and "0" <= p <= "9" for p in parts):
        a, b = int(parts[0]), int(parts[1])
        found = _TILE_BY_PAIR.get((min(a, b), max(a, b)))
        if found is not None:
            return found
    raise TileError(f"unknown tile {name!r}")


def tile_from_pair(a: int, b: int) -> int:
    found = _TILE_BY_PAIR.get((min(a, b), max(a, b)))
    if found is None:
        raise TileError(f"unknown tile [{a}|{b}]")
    return found


def tile_name(tile: int) -> str:
    return TILE_NAMES[tile]


def mask_of(tiles: Iterable[int]) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << tile
    return mask


def tiles_in(mask: int) -> Iterator[int]:
    """Tile ids in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def pip_total(mask: int) -> int:
    return sum(PIPS[t] for t in tiles_in(mask))
