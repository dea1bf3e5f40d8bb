"""A domino game's placements as action codes and as record-shaped fields.

A placement is ``tile << 8 | target << 3 | port``; a hand's first tile uses itself as
the target and the pseudo-port ``FIRST_TILE_PORT``. Codes from 8192 on are a game's own
(draw, pass, bids, events), and so is its exception for an action it cannot read.
"""

from __future__ import annotations

from typing import Any

from .board import FIRST_TILE_PORT, PORT_BY_NAME, PORT_NAMES
from .tiles import TileError, tile_from_name, tile_name


def play_code(tile: int, target: int, port: int) -> int:
    return tile << 8 | target << 3 | port


def first_tile_code(tile: int) -> int:
    return tile << 8 | tile << 3 | FIRST_TILE_PORT


def play_parts(code: int) -> tuple[int, int, int]:
    """(tile, target, port) of a placement code."""
    return code >> 8, code >> 3 & 31, code & 7


def play_fields(code: int) -> dict[str, Any]:
    """A placement's record fields (type, tile; target and port but for a first tile)."""
    tile, target, port = play_parts(code)
    fields: dict[str, Any] = {"type": "play", "tile": tile_name(tile)}
    if port != FIRST_TILE_PORT:
        fields["target"] = tile_name(target)
        fields["port"] = PORT_NAMES[port]
    return fields


def play_from_dict(data: dict[str, Any], error: type[ValueError], neither: str) -> int:
    """The code of a record-shaped ``play`` (its ``tile``, ``target``, ``port``). A game
    raises its own ``error``; ``neither`` is its message for a target without a port or
    a port without a target."""
    try:
        tile = tile_from_name(data.get("tile"))
    except TileError as exc:
        raise error(str(exc)) from None
    target_name, port_name = data.get("target"), data.get("port")
    if target_name is None and port_name is None:
        return first_tile_code(tile)
    if target_name is None or port_name is None:
        raise error(neither)
    try:
        target = tile_from_name(target_name)
    except TileError as exc:
        raise error(str(exc)) from None
    port = PORT_BY_NAME.get(port_name) if isinstance(port_name, str) else None
    if port is None:
        raise error(f"unknown port {port_name!r}")
    return play_code(tile, target, port)
