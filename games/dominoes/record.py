"""Tiles in a domino game's record: lists of names such as "6-6"."""

from __future__ import annotations

from typing import Any

from games.engine.plugin import RecordError

from .tiles import TileError, tile_from_name


def parse_tiles(value: Any, where: str) -> list[int]:
    """A record's list of tile names -> tiles; RecordError names ``where`` it is wrong."""
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of tiles")
    try:
        return [tile_from_name(name) for name in value]
    except TileError as exc:
        raise RecordError(f"{where}: {exc}") from None
