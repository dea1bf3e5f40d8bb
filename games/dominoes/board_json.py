"""A domino board as every view shows it (public: it is on the table)."""

from __future__ import annotations

from typing import Any

from .board import PORT_BY_NAME, PORT_NAMES, Board
from .tiles import tile_from_name, tile_name


def board_json(board: Board, spinner_key: str) -> dict[str, Any]:
    """The board's tiles and how each joined, its spinner, the counting ends' sum and the
    open places. ``spinner_key`` names the spinner in the game's own words (Spectacular
    Bid says "spinner", Fives "cross"): the two games' views keep their keys."""
    return {
        "tiles": [
            {
                "tile": tile_name(link.tile),
                "target": None if link.target < 0 else tile_name(link.target),
                "port": None if link.target_port < 0 else PORT_NAMES[link.target_port],
                "own_port": None if link.own_port < 0 else PORT_NAMES[link.own_port],
            }
            for link in board.links
        ],
        spinner_key: None if board.spinner < 0 else tile_name(board.spinner),
        "ends_sum": board.ends_sum,
        "places": [
            {"target": tile_name(t), "port": PORT_NAMES[p], "value": v} for t, p, v in board.places
        ],
    }


def board_from_json(data: dict[str, Any], cross: bool) -> Board:
    """The board a view shows (``board_json``'s tiles, in order), rebuilt: what a
    computer player reads of the table."""
    board = Board(cross=cross)
    for link in data["tiles"]:
        tile = tile_from_name(link["tile"])
        if link["target"] is None:
            board.place_opening(tile)
        else:
            board.place(tile, tile_from_name(link["target"]), PORT_BY_NAME[link["port"]])
    return board


def placement_total(board: Board, action: dict[str, Any]) -> int:
    """The counting ends' sum after a record-shaped ``play`` (a first tile without a
    target counts only on an empty board)."""
    tile = tile_from_name(action["tile"])
    if "target" not in action:
        return board.sum_after(tile, -1, -1) if board.is_empty else 0
    return board.sum_after(tile, tile_from_name(action["target"]), PORT_BY_NAME[action["port"]])
