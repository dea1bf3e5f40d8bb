"""What a domino game's state does the same in Fives and Spectacular Bid.

The phases a hand passes through, the queries on the seat to play (its playable tiles,
its legal placements), drawing a tile, a turn that starts or passes, the public moves of
the hand, and keeping the ended hand's position for the views. Each game supplies its
pile's size rule, how a turn's clock starts, its steps' scores and its blocked hand.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Protocol

from games.engine.clock import MatchClock
from games.engine.protocol import Step
from games.engine.stepped import SteppedState

from .board import Board
from .rollout import DominoHand, HandEnds, lead_codes, placement_codes
from .tiles import PLAYABLE_MASK

# Phases both games share (each adds its own).
DEAL = "deal"  # waiting for the next deal (a chance outcome)
PLAY = "play"
OVER = "over"

# Codes both games give these actions and events.
DRAW = 8192
PASS = 8193
EVENT_BASE = 32768  # codes from here on are events, not actions


class EndedHand(Protocol):
    """A hand's summary, as far as keeping its final position goes."""

    final_hands: tuple[int, ...] | None
    final_board: Board | None
    final_moves: list[Step] | None


class DominoState(SteppedState):
    """A domino game's state: hands as tile masks, a board, a pile drawn in order."""

    phase: str
    board: Board
    clock: MatchClock
    hand_masks: list[int]
    draw_pos: int
    drawn_tile: int  # a drawn playable tile that must be played now (-1: none)
    turn: int
    passes_in_row: int
    moves: list[Step]  # the current hand's moves (public: see the game's view)
    hands_summary: Sequence[EndedHand]
    not_moves: tuple[int, ...] = ()  # action codes below EVENT_BASE that are not moves

    def needs_chance(self) -> bool:
        return self.phase == DEAL and self._result is None

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.num_seats

    def playable_mask(self, seat: int) -> int:
        """The seat's tiles that fit an open place now."""
        if self.board.is_empty:
            return self.hand_masks[seat]
        return self.hand_masks[seat] & PLAYABLE_MASK[self.board.open_values]

    def _legal_plays(self, seat: int) -> list[int]:
        board = self.board
        if self.drawn_tile >= 0:
            return placement_codes(board, 1 << self.drawn_tile)
        if board.is_empty:
            return lead_codes(self.hand_masks[seat])
        tiles_mask = self.hand_masks[seat] & PLAYABLE_MASK[board.open_values]
        if not tiles_mask:
            return [DRAW] if self._may_draw() else []
        return placement_codes(board, tiles_mask)

    def hand_walk(self) -> DominoHand | None:
        if self.phase != PLAY or self._result is not None:
            return None
        ends = self._hand_ends()
        if ends is None:
            return None
        pile, pile_end = self._pile()
        return DominoHand(self.board.copy(), list(self.hand_masks), pile, self.draw_pos,
                          pile_end, self.turn, self.drawn_tile, self.passes_in_row,
                          list(self._scores_now()), ends)

    def _hand_ends(self) -> HandEnds | None:
        """What this game's hands score, for ``hand_walk`` (None: not now)."""
        return None

    def _pile(self) -> tuple[Sequence[int], int]:
        """The pile drawn from, and the position from which its tiles are never drawn."""
        raise NotImplementedError

    @abstractmethod
    def _may_draw(self) -> bool:
        """True while the pile holds a tile that may be drawn."""

    @abstractmethod
    def _scores_now(self) -> tuple[int, ...]:
        """The scores (or balances) a step carries."""

    @abstractmethod
    def _start_decision(self, seat: int, now_us: int) -> None:
        """``seat`` has a decision to make: its clock starts."""

    @abstractmethod
    def _blocked(self, seat: int, now_us: int) -> None:
        """Every seat passed in succession (``seat`` last): the hand is blocked."""

    def _emit(self, seat: int | None, action: int, now_us: int, forced: bool = False,
              points: int = 0) -> None:
        step = Step(seat, action, now_us, forced, points, self._scores_now())
        self._steps.append(step)
        if action < EVENT_BASE and action not in self.not_moves:
            self.moves.append(step)

    def _draw_from(self, pile: list[int], seat: int, now_us: int) -> None:
        tile = pile[self.draw_pos]
        self.draw_pos += 1
        self.hand_masks[seat] |= 1 << tile
        self._emit(seat, DRAW, now_us)
        if PLAYABLE_MASK[self.board.open_values] >> tile & 1:
            self.drawn_tile = tile
        elif not self._may_draw():
            # Nothing to play and nothing more to draw: the turn ends with a forced pass.
            self.clock.stop(now_us)
            self._forced_pass(seat, now_us)
        # Otherwise the same turn goes on, on the same clock (no new delay).

    def _begin_turn(self, seat: int, now_us: int) -> None:
        self.turn = seat
        if self.hand_masks[seat] & PLAYABLE_MASK[self.board.open_values] or self._may_draw():
            self._start_decision(seat, now_us)
        else:
            self._forced_pass(seat, now_us)

    def _forced_pass(self, seat: int, now_us: int) -> None:
        self.passes_in_row += 1
        if self.passes_in_row < self.num_seats:
            self._emit(seat, PASS, now_us, forced=True)
            self._begin_turn(self.next_seat(seat), now_us)
        else:
            self._blocked(seat, now_us)

    def _keep_final_position(self, summary: EndedHand) -> None:
        for older in self.hands_summary:  # only the latest ended position is kept
            older.final_board = older.final_moves = None
        summary.final_hands = tuple(self.hand_masks)
        summary.final_board = self.board
        summary.final_moves = self.moves
