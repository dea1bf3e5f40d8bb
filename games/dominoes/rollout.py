"""A hand played out fast for a search: the shared playout policy on tile masks.

A search plays thousands of hands to their end for every decision. Through the game
protocol each step is checked, timed and recorded (a ``Step``, the public moves, the
clock); none of that matters in a simulated world that is thrown away. ``play_hand``
plays the rest of the current hand on copies of the masks and the board alone, with
the same rules (each game supplies what a placement, a seat going out and a blocked
hand score, as ``HandEnds``) and the same policy as ``games/search/playout.py``: with
probability ``1 - explore`` the placement scoring most at once, shedding the heaviest
tile among equals (the first in the engine's order), else any legal placement. It even
draws its random numbers in the same order as the protocol's playout, so one seed gives
the same hand both ways: that is how the tests hold the two to each other.

Forced steps take no random number, as in the protocol: a draw when nothing fits, a
pass when nothing may be drawn, a single legal placement.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .actions import first_tile_code
from .board import NO_TILE, Board
from .tiles import IS_DOUBLE, LO, PIPS, PLAYABLE_MASK, VALUE_MASK


class HandEnds(Protocol):
    """What a game's hand scores, on the scores (or balances) as ``plugin.scores``
    gives them. Each returns True when the game ends there."""

    def placed(self, scores: list[int], seat: int, points: int) -> bool:
        """``seat`` placed a tile making the counting ends ``points`` (a positive
        multiple of 5)."""

    def went_out(self, scores: list[int], seat: int, hands: Sequence[int]) -> bool:
        """``seat`` played its last tile; ``hands`` are the tile masks left."""

    def blocked(self, scores: list[int], hands: Sequence[int]) -> bool:
        """Every seat passed in succession."""


@dataclass(slots=True)
class HandPosition:
    """The part of a domino state a hand's play reads and changes (copies: the
    rollout changes them)."""

    board: Board
    hands: list[int]
    pile: Sequence[int]
    draw_pos: int
    pile_end: int  # the pile's tiles from here on are never drawn
    turn: int
    drawn_tile: int  # a drawn tile that must be played now, or NO_TILE
    passes: int  # forced passes in succession
    scores: list[int]


def _placements(board: Board, tiles: int) -> list[int]:
    """The engine's order of placements (``hands.placement_codes``)."""
    if not board.links:
        return [first_tile_code(t) for t in range(28) if tiles >> t & 1]
    codes = []
    for target, port, value in board.places:
        candidates = tiles & VALUE_MASK[value]
        while candidates:
            low = candidates & -candidates
            codes.append((low.bit_length() - 1) << 8 | target << 3 | port)
            candidates ^= low
    return codes


def _greedy(board: Board, codes: list[int]) -> int:
    """The first of the placements scoring most at once, then shedding most pips."""
    best_points = best_pips = -1
    chosen = codes[0]
    empty = not board.links
    for code in codes:
        tile = code >> 8
        if empty:
            total = 2 * LO[tile] if IS_DOUBLE[tile] else PIPS[tile]
        else:
            total = board.sum_after(tile, code >> 3 & 31, code & 7)
        points = total if total > 0 and total % 5 == 0 else 0
        pips = PIPS[tile]
        if points > best_points or (points == best_points and pips > best_pips):
            best_points, best_pips, chosen = points, pips, code
    return chosen


def play_hand(position: HandPosition, ends: HandEnds, rng: random.Random,
              explore: float) -> bool:
    """Play the hand in ``position`` to its end; True when the game ended in it."""
    board = position.board
    hands = position.hands
    scores = position.scores
    pile = position.pile
    seats = len(hands)
    turn = position.turn
    drawn = position.drawn_tile
    draw_pos = position.draw_pos
    passes = position.passes
    pile_end = position.pile_end
    while True:
        if drawn != NO_TILE:
            tiles = 1 << drawn
        elif board.links:
            tiles = hands[turn] & PLAYABLE_MASK[board.open_values]
        else:
            tiles = hands[turn]
        if not tiles:
            if draw_pos < pile_end:
                tile = pile[draw_pos]
                draw_pos += 1
                hands[turn] |= 1 << tile
                if PLAYABLE_MASK[board.open_values] >> tile & 1:
                    drawn = tile
                continue
            passes += 1
            if passes >= seats:
                return ends.blocked(scores, hands)
            turn = (turn + 1) % seats
            continue
        codes = _placements(board, tiles)
        if len(codes) == 1:
            code = codes[0]
        elif rng.random() >= explore:
            code = _greedy(board, codes)
        else:
            code = codes[rng.randrange(len(codes))]
        tile, port = code >> 8, code & 7
        total = board.place_opening(tile) if not board.links else board.place(
            tile, code >> 3 & 31, port)
        hands[turn] &= ~(1 << tile)
        drawn = NO_TILE
        passes = 0
        if total > 0 and total % 5 == 0 and ends.placed(scores, turn, total):
            return True
        if not hands[turn]:
            return ends.went_out(scores, turn, hands)
        turn = (turn + 1) % seats
