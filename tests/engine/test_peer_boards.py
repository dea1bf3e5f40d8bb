"""Differential test: 3,862 boards whose totals an independent implementation printed.

Each board is built as tests/data/README.md says, through Board's public
methods only: the spinner (or the first tile of the line) first, then every chain
from the tile nearest the spinner outward, each tile attaching at its inner value.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.dominoes.board import BRANCH_A, BRANCH_B, LINE_A, LINE_B, Board
from games.dominoes.tiles import tile_from_pair

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "peer-fives-boards.json"  # kept in the repository

# The spinner's two lines, then its two side branches (branches open only after both lines).
CHAIN_PORTS = (("left", LINE_A), ("right", LINE_B), ("up", BRANCH_A), ("down", BRANCH_B))


def load_boards() -> list[dict[str, Any]]:
    with DATA.open() as handle:
        boards: list[dict[str, Any]] = json.load(handle)
    return boards


BOARDS = load_boards()


def attach(board: Board, target: int, tile: tuple[int, int], port: int | None = None) -> int:
    """Attach ``tile`` ([outer, inner]) to ``target`` at its inner value; returns the sum."""
    outer, inner = tile
    code = tile_from_pair(outer, inner)
    if port is None:
        ports = [p for t, p, v in board.places if t == target and v == inner]
        assert len(ports) == 1, f"no single open place on the previous tile for {tile}"
        port = ports[0]
    assert (target, port, inner) in board.places, f"{tile} cannot attach there"
    expected = board.sum_after(code, target, port)
    total = board.place(code, target, port)
    assert total == expected == board.ends_sum
    return total


def build(entry: dict[str, Any]) -> Board:
    board = Board(cross=True)
    spinner = entry["spinner"]
    if spinner is None:
        line = entry["left"]
        assert not (entry["right"] or entry["up"] or entry["down"])
        if not line:
            return board
        first = tile_from_pair(*line[0])
        board.place_opening(first)
        previous = first
        for left_value, right_value in line[1:]:
            attach(board, previous, (right_value, left_value))
            previous = tile_from_pair(left_value, right_value)
        assert board.spinner == -1
        return board
    hub = tile_from_pair(*spinner)
    board.place_opening(hub)
    for chain_name, port in CHAIN_PORTS:
        previous = hub
        for tile in reversed(entry[chain_name]):  # nearest the spinner first
            attach(board, previous, tuple(tile), port if previous == hub else None)
            previous = tile_from_pair(*tile)
    assert board.spinner == hub
    return board


def test_the_data_set_is_complete() -> None:
    assert len(BOARDS) == 3862


@pytest.mark.parametrize("chunk", range(0, len(BOARDS), 500), ids=lambda c: f"boards_{c}")
def test_peer_totals(chunk: int) -> None:
    mismatches = []
    for index in range(chunk, min(chunk + 500, len(BOARDS))):
        entry = BOARDS[index]
        total = build(entry).ends_sum
        if total != entry["total"]:
            mismatches.append((index, total, entry))
    assert not mismatches, f"{len(mismatches)} boards differ, first: {mismatches[0]}"
