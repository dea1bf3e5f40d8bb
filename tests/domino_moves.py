"""Tiles, deals and moves as domino tests write them, for Fives and Spectacular Bid.

Tiles are written as the spec writes them (``"1-4"``); a placement as
``"3-6>6-6:line_a"`` (tile > target : port), a hand's first tile as ``"5-5"``.
"""

from __future__ import annotations

from games.dominoes.actions import first_tile_code, play_code, play_parts
from games.dominoes.board import FIRST_TILE_PORT, PORT_BY_NAME, PORT_NAMES
from games.dominoes.tiles import TILE_COUNT, tile_from_name, tile_name
from games.engine.protocol import GameState, Outcome
from games.engine.records import seconds_to_us as us

__all__ = ["applied", "pile", "placement", "placement_name", "tiles", "us"]


def tiles(names: str) -> list[int]:
    return [tile_from_name(name) for name in names.split()]


def pile(held: list[list[int]], first: list[int]) -> list[int]:
    """A deal's pile: the ``first`` draws, then the tiles nobody holds in set order."""
    used = {t for hand in held for t in hand} | set(first)
    return first + [t for t in range(TILE_COUNT) if t not in used]


def placement(move: str) -> int:
    """A placement move -> its action code."""
    tile, _, where = move.partition(">")
    if not where:
        return first_tile_code(tile_from_name(tile))
    target, port = where.split(":")
    return play_code(tile_from_name(tile), tile_from_name(target), PORT_BY_NAME[port])


def placement_name(action: int) -> str:
    """A placement code -> its move (the inverse of :func:`placement`)."""
    tile, target, port = play_parts(action)
    if port == FIRST_TILE_PORT:
        return tile_name(tile)
    return f"{tile_name(tile)}>{tile_name(target)}:{PORT_NAMES[port]}"


def applied(state: GameState, seat: int, action: int, move: object, now_us: int) -> Outcome:
    """Apply ``action`` (written ``move``), which must be legal and in time."""
    outcome = state.apply(seat, action, now_us)
    assert isinstance(outcome, Outcome), f"{move!r} by seat {seat} refused: {outcome}"
    assert outcome.applied, f"{move!r} by seat {seat} came too late"
    return outcome
