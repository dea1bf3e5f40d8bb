"""A hand played fast for a search: the rules on tile masks, without the protocol.

A search walks its tree and plays thousands of hands to their end for every decision.
Through the game protocol each step is checked, timed and recorded (a ``Step``, the
public moves, the clock); none of that matters in a simulated world that is thrown away.
A ``DominoHand`` holds the rest of the current hand as copies of the masks, the pile and
the board alone, with the same rules (each game supplies what a placement, a seat going
out and a blocked hand score, as ``HandEnds``):

- ``decision`` plays the forced steps (a draw when nothing fits, a pass when nothing may
  be drawn, a single legal placement) and stops where a seat has two placements or more
  to choose from (``codes``, in the engine's order and coding), as the search's
  ``drive.to_decision`` stops on the protocol;
- ``play`` places one of them;
- ``play_out`` plays the hand to its end with the same policy as
  ``games/search/playout.py``: with probability ``1 - explore`` the placement scoring
  most at once, shedding the heaviest tile among equals (the first in the engine's
  order), else any legal placement. It draws its random numbers in the same order as the
  protocol's playout (none for a forced step), so one seed gives the same hand both
  ways: that is how the tests hold the two to each other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from .actions import first_tile_code
from .board import NO_TILE, Board
from .tiles import IS_DOUBLE, LO, PIPS, PLAYABLE_MASK, TILE_COUNT, VALUE_MASK


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


def placement_codes(board: Board, tiles_mask: int) -> list[int]:
    """Every placement of the tiles in ``tiles_mask`` on an open place of ``board``."""
    codes = []
    for target, port, value in board.places:
        candidates = tiles_mask & VALUE_MASK[value]
        while candidates:
            low = candidates & -candidates
            codes.append((low.bit_length() - 1) << 8 | target << 3 | port)
            candidates ^= low
    return codes


def lead_codes(tiles_mask: int) -> list[int]:
    """Every lead of a hand (the board empty) with the tiles in ``tiles_mask``."""
    return [first_tile_code(t) for t in range(TILE_COUNT) if tiles_mask >> t & 1]


def _placements(board: Board, tiles: int) -> list[int]:
    """The engine's order of placements, a hand's lead included."""
    if not board.links:
        return lead_codes(tiles)
    return placement_codes(board, tiles)


def _greedy(board: Board, tiles: int) -> int:
    """The first of the placements of ``tiles`` scoring most at once, then shedding most
    pips, in the engine's order (``_placements``), without building the list."""
    best_points = best_pips = -1
    chosen = 0
    if not board.links:
        while tiles:
            low = tiles & -tiles
            tile = low.bit_length() - 1
            tiles ^= low
            total = 2 * LO[tile] if IS_DOUBLE[tile] else PIPS[tile]
            points = total if total % 5 == 0 else 0
            pips = PIPS[tile]
            if points > best_points or (points == best_points and pips > best_pips):
                best_points, best_pips, chosen = points, pips, first_tile_code(tile)
        return chosen
    for target, port, value in board.places:
        candidates = tiles & VALUE_MASK[value]
        if not candidates:
            continue
        covered = board.sum_covering(target, port, value)
        while candidates:
            low = candidates & -candidates
            tile = low.bit_length() - 1
            candidates ^= low
            # The tile's free end: both halves of a double, else the half not matched.
            total = covered + (2 * value if IS_DOUBLE[tile] else PIPS[tile] - value)
            points = total if total > 0 and total % 5 == 0 else 0
            pips = PIPS[tile]
            if points > best_points or (points == best_points and pips > best_pips):
                best_points, best_pips, chosen = points, pips, tile << 8 | target << 3 | port
    return chosen


def _count(board: Board, tiles: int) -> int:
    """How many placements ``tiles`` have."""
    if not board.links:
        return tiles.bit_count()
    return sum((tiles & VALUE_MASK[value]).bit_count() for _, _, value in board.places)


class DominoHand:
    """The rest of a hand (copies: a walk changes them), played step by step."""

    __slots__ = ("board", "codes", "draw_pos", "drawn", "ends", "game_over", "hand_over",
                 "hands", "passes", "pile", "pile_end", "scores", "turn")

    def __init__(self, board: Board, hands: list[int], pile: Sequence[int], draw_pos: int,
                 pile_end: int, turn: int, drawn: int, passes: int, scores: list[int],
                 ends: HandEnds) -> None:
        self.board = board
        self.hands = hands
        self.pile = pile
        self.draw_pos = draw_pos
        self.pile_end = pile_end  # the pile's tiles from here on are never drawn
        self.turn = turn
        self.drawn = drawn  # a drawn tile that must be played now, or NO_TILE
        self.passes = passes  # forced passes in succession
        self.scores = scores
        self.ends = ends
        self.hand_over = False
        self.game_over = False  # the game ended within the hand
        self.codes: list[int] = []  # the placements of the decision ``decision`` found

    def copy(self) -> DominoHand:
        clone = DominoHand(self.board.copy(), list(self.hands), self.pile, self.draw_pos,
                           self.pile_end, self.turn, self.drawn, self.passes,
                           list(self.scores), self.ends)
        clone.hand_over, clone.game_over = self.hand_over, self.game_over
        return clone

    def decision(self) -> int | None:
        """Play the forced steps up to the next choice and return the seat to choose
        (its placements in ``codes``); None once the hand has ended."""
        while tiles := self._fitting():
            codes = _placements(self.board, tiles)
            if len(codes) > 1:
                self.codes = codes
                return self.turn
            self.play(codes[0])
        return None

    def _fitting(self) -> int:
        """Draw and pass as forced until a seat holds tiles that fit (returned as a
        mask, the seat in ``turn``); 0 once the hand has ended."""
        board = self.board
        hands = self.hands
        while not self.hand_over:
            turn = self.turn
            if self.drawn != NO_TILE:
                return 1 << self.drawn
            tiles = hands[turn] & PLAYABLE_MASK[board.open_values] if board.links else hands[turn]
            if tiles:
                return tiles
            if self.draw_pos < self.pile_end:
                tile = self.pile[self.draw_pos]
                self.draw_pos += 1
                hands[turn] |= 1 << tile
                if PLAYABLE_MASK[board.open_values] >> tile & 1:
                    self.drawn = tile
            else:
                self.passes += 1
                if self.passes >= len(hands):
                    self._end(self.ends.blocked(self.scores, hands))
                else:
                    self.turn = (turn + 1) % len(hands)
        return 0

    def play(self, code: int) -> None:
        """The seat to play places ``code`` (one of ``codes``)."""
        board = self.board
        turn = self.turn
        tile = code >> 8
        total = board.place(tile, code >> 3 & 31, code & 7) if board.links else \
            board.place_opening(tile)
        self.hands[turn] &= ~(1 << tile)
        self.drawn = NO_TILE
        self.passes = 0
        if total > 0 and total % 5 == 0 and self.ends.placed(self.scores, turn, total):
            self._end(True)
        elif not self.hands[turn]:
            self._end(self.ends.went_out(self.scores, turn, self.hands))
        else:
            self.turn = (turn + 1) % len(self.hands)

    def points_now(self, code: int) -> int:
        """What placing ``code`` would score at once (nothing changes)."""
        tile = code >> 8
        board = self.board
        total = board.sum_after(tile, code >> 3 & 31, code & 7)
        return total if total > 0 and total % 5 == 0 else 0

    def play_out(self, rng: random.Random, explore: float) -> None:
        """Play the hand to its end with the shared playout policy (see the module)."""
        while tiles := self._fitting():
            board = self.board
            if (tiles & (tiles - 1)) == 0 and _count(board, tiles) == 1:
                self.play(_placements(board, tiles)[0])  # forced: no random number
            elif rng.random() >= explore:
                self.play(_greedy(board, tiles))
            else:
                codes = _placements(board, tiles)
                self.play(codes[rng.randrange(len(codes))])

    def _end(self, game_over: bool) -> None:
        self.hand_over = True
        self.game_over = game_over
