"""A game of Fives with the cross (fives.md) as a state machine.

Times are microseconds since the game was created, passed in by the caller; the lots
and the deals are passed in as chance outcomes. The state never reads a clock or
draws a random number, so the same inputs always give the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.dominoes.board import Board, placement_refusal
from games.dominoes.hands import DEAL, OVER, PLAY, DominoState
from games.dominoes.tiles import (
    FULL_SET_MASK,
    TILE_COUNT,
    mask_of,
    pip_total,
)
from games.engine.clock import MatchClock
from games.engine.protocol import JSON, Result, Step, gettext_noop
from games.engine.stepped import ANNULLED

from . import actions as A
from .hand_ends import FivesHandEnds
from .rules import DEFAULT_RULES, Rules
from .scoring import (
    fish_winner,
    hand_bonus,
    lot_leader,
    placement_points,
    ranks_by_score,
    sole_first,
)
from .view import build_view

# Phases of a game (the dominoes' DEAL, PLAY, OVER): no clock runs while a deal is due.

HAND_SIZE = 7

# How hands end (the replay's ``end``).
DOMINO = "domino"
FISH = "fish"
GAME_OVER = "game_over"


class DealError(ValueError):
    """A deal or lots that do not fit the table."""


def bazaar_size(seats: int) -> int:
    return TILE_COUNT - HAND_SIZE * seats


@dataclass(slots=True)
class Deal:
    hands: list[list[int]]
    bazaar: list[int]  # in draw order

    @classmethod
    def checked(cls, hands: Sequence[Sequence[int]], bazaar: Sequence[int], seats: int) -> Deal:
        if len(hands) != seats:
            raise DealError(f"a deal has one hand per seat ({seats})")
        if any(len(hand) != HAND_SIZE for hand in hands):
            raise DealError("each hand must hold 7 tiles")
        if len(bazaar) != bazaar_size(seats):
            raise DealError(f"the bazaar must hold {bazaar_size(seats)} tiles")
        every = [tile for hand in hands for tile in hand] + list(bazaar)
        if any(not 0 <= t < TILE_COUNT for t in every) or mask_of(every) != FULL_SET_MASK:
            raise DealError("the deal must use each of the 28 tiles exactly once")
        return cls([list(hand) for hand in hands], list(bazaar))


def check_lots(lots: Sequence[int], seats: int) -> list[int]:
    if len(lots) != seats:
        raise DealError(f"lots must hold one tile per seat ({seats})")
    if any(not 0 <= t < TILE_COUNT for t in lots) or len(set(lots)) != seats:
        raise DealError("the lots must be distinct tiles")
    return list(lots)


@dataclass(slots=True)
class HandSummary:
    """What the replay reports, and views show, for each hand started."""

    leader: int
    end: str | None = None
    winner: int | None = None
    pips: tuple[int, ...] | None = None
    bonus: int | None = None
    # The hand as it stood when it ended (public from then on).
    final_hands: tuple[int, ...] | None = None
    final_board: Board | None = field(default=None, compare=False)
    final_moves: list[Step] | None = field(default=None, compare=False)


class FivesState(DominoState):
    """One game for 2 or 4 seats, each playing for themselves."""

    not_moves = (A.RESIGN,)

    def __init__(self, rules: Rules = DEFAULT_RULES, seats: int = 2) -> None:
        if seats not in (2, 4):
            raise ValueError("Fives is played by 2 or 4 players")
        self.num_seats = seats
        self.rules = rules
        self.scores = [0] * seats
        # Each player's time for the whole game, no delay.
        self.clock = MatchClock.for_seats(seats, rules.time_us, 0)
        self.phase = DEAL
        self.hand_no = -1
        self.lots: list[int] | None = None
        self.hands_summary: list[HandSummary] = []
        self.next_leader = 0  # seat 0 leads when no lots were drawn
        self.hand_masks = [0] * seats
        self.bazaar: list[int] = []
        self.draw_pos = 0
        self.board = Board(cross=rules.cross)
        self.turn = 0
        self.drawn_tile = -1  # a drawn playable tile that must be played now
        self.passes_in_row = 0
        self.last_placer = 0  # after a fish, this player leads the next hand
        self.moves: list[Step] = []  # the current hand's moves (public: see view.py)
        self.ranks: list[int] | None = None
        self._result: Result | None = None
        self._steps: list[Step] = []

    # ----------------------------------------------------------------- queries

    def to_act(self) -> int | None:
        return self.turn if self.phase == PLAY else None

    def drawable(self) -> int:
        """Bazaar tiles that may still be drawn: the last one never is."""
        return max(0, len(self.bazaar) - self.draw_pos - 1)

    def bazaar_left(self) -> int:
        return len(self.bazaar) - self.draw_pos

    def legal_actions(self, seat: int) -> list[int]:
        if self.phase != PLAY or seat != self.turn:
            return []
        return self._legal_plays(seat)

    def _may_draw(self) -> bool:
        return self.drawable() > 0

    def _hand_ends(self) -> FivesHandEnds:
        return FivesHandEnds(self.rules.target, self.rules.full_record)

    def _pile(self) -> tuple[Sequence[int], int]:
        return self.bazaar, len(self.bazaar) - 1  # the last tile is never drawn

    def next_deadline_us(self) -> int | None:
        if self._result is not None:
            return None
        return self.clock.deadline_us()

    # ------------------------------------------------------------------ chance

    def deal(self, deal: Deal, now_us: int, lots: Sequence[int] | None = None) -> list[Step]:
        """Start the next hand at ``now_us`` (the leader's clock starts then).

        ``lots`` (one distinct tile per seat) may come with the first deal only; without
        them seat 0 leads the first hand.
        """
        if not self.needs_chance():
            raise DealError("no deal is due now")
        if len(deal.hands) != self.num_seats:
            raise DealError(f"a deal has one hand per seat ({self.num_seats})")
        if lots is not None:
            if self.hand_no >= 0:
                raise DealError("lots are drawn before the first hand only")
            self.lots = check_lots(lots, self.num_seats)
            self.next_leader = lot_leader(self.lots)
        self.hand_no += 1
        leader = self.next_leader
        self.hands_summary.append(HandSummary(leader=leader))
        self.hand_masks = [mask_of(hand) for hand in deal.hands]
        self.bazaar = list(deal.bazaar)
        self.draw_pos = 0
        self.board = Board(cross=self.rules.cross)
        self.drawn_tile = -1
        self.passes_in_row = 0
        self.last_placer = leader
        self.moves = []
        self.phase = PLAY
        self.turn = leader
        self.clock.start(leader, now_us)
        return []

    # -------------------------------------------------------------------- time

    def _advance(self, now_us: int) -> None:
        if self._result is None and self.clock.is_late(now_us):
            deadline = self.clock.deadline_us()
            assert deadline is not None
            flagged = self.clock.flag()
            assert flagged is not None
            self._emit(flagged, A.FLAG, deadline)
            self._finish_with_loser(flagged, "time")

    # ----------------------------------------------------------------- actions

    def _late(self, now_us: int) -> bool:
        return self.clock.is_late(now_us)

    def _annulled_after_end(self) -> None:
        self.ranks = None

    def _annul(self, now_us: int) -> None:
        self.clock.stop(now_us)
        self._emit(None, A.ANNUL, now_us)
        self._close(Result(None, ANNULLED), None)

    def _check(self, seat: int, action: int) -> str | None:
        """Why ``action`` is refused now, or None when it is legal."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_seats:
            return gettext_noop("there is no such seat")
        if action == A.RESIGN:
            return None
        if action == A.PASS:
            return gettext_noop("a pass is never chosen: it is applied when you can neither "
                                "play nor draw")
        if not A.is_play(action) and action != A.DRAW:
            return gettext_noop("that is not an action of this game")
        if self.phase != PLAY:
            return gettext_noop("the next hand has not been dealt")
        if seat != self.turn:
            return gettext_noop("it is not your turn")
        if action == A.DRAW:
            if self.drawn_tile >= 0:
                return gettext_noop("play the tile you drew")
            if self.board.is_empty:
                return gettext_noop("lead the hand with a tile")
            if self.playable_mask(seat):
                return gettext_noop("you hold a playable tile, so you may not draw")
            if not self.drawable():
                return gettext_noop("nothing may be drawn: the last tile of the bazaar is "
                                    "never drawn")
            return None
        return self._check_placement(seat, action)

    def _check_placement(self, seat: int, action: int) -> str | None:
        tile, target, port = A.play_parts(action)
        return placement_refusal(self.board, self.hand_masks[seat], self.drawn_tile, tile,
                                 target, port)

    # ------------------------------------------------------------- transitions

    def _scores_now(self) -> tuple[int, ...]:
        return tuple(self.scores)

    def _do(self, seat: int, action: int, now_us: int) -> None:
        if action == A.RESIGN:
            self.clock.stop(now_us)
            self._emit(seat, action, now_us)
            self._finish_with_loser(seat, "resign")
        elif action == A.DRAW:
            self._draw_from(self.bazaar, seat, now_us)
        else:
            self.clock.stop(now_us)
            self._place(seat, action, now_us)

    def _place(self, seat: int, code: int, now_us: int) -> None:
        tile, target, port = A.play_parts(code)
        board = self.board
        total = board.place_opening(tile) if port == A.LEAD else board.place(tile, target, port)
        self.hand_masks[seat] &= ~(1 << tile)
        self.drawn_tile = -1
        self.passes_in_row = 0
        self.last_placer = seat
        points = placement_points(total)
        self.scores[seat] += points
        if self.scores[seat] >= self.rules.target:
            # The target is checked after every score: the game ends here, no hand bonus.
            self._emit(seat, code, now_us, points=points)
            self._close(Result(seat, "target"), ranks_by_score(self.scores))
        elif not self.hand_masks[seat]:
            self._settle(DOMINO, seat)
            self._emit(seat, code, now_us, points=points)  # its scores include the bonus
            self._after_settlement(seat, seat)
        else:
            self._emit(seat, code, now_us, points=points)
            self._begin_turn(self.next_seat(seat), now_us)

    def _start_decision(self, seat: int, now_us: int) -> None:
        self.clock.start(seat, now_us)

    def _blocked(self, seat: int, now_us: int) -> None:
        # Everybody passed in succession: the hand is blocked (a fish).
        winner = fish_winner([pip_total(mask) for mask in self.hand_masks])
        self._settle(FISH, winner)
        self._emit(seat, A.PASS, now_us, forced=True)
        self._after_settlement(winner, self.last_placer)

    def _settle(self, how: str, winner: int | None) -> None:
        """End the hand: the winner (if any) scores the other hands' pips as a bonus."""
        summary = self.hands_summary[-1]
        pips = tuple(pip_total(mask) for mask in self.hand_masks)
        summary.pips = pips
        summary.winner = winner
        summary.bonus = 0
        if winner is not None:
            summary.bonus = hand_bonus(pips, winner, self.rules.full_record)
            self.scores[winner] += summary.bonus
        summary.end = how
        self._keep_final_position(summary)
        self.clock.running = None

    def _after_settlement(self, winner: int | None, next_leader: int) -> None:
        if winner is not None and self.scores[winner] >= self.rules.target:
            self._close(Result(winner, "target"), ranks_by_score(self.scores))
            return
        self.next_leader = next_leader
        self.phase = DEAL

    def _finish_with_loser(self, loser: int, reason: str) -> None:
        """A flag or a resignation: that seat ranks last and the game ends."""
        ranks = ranks_by_score(self.scores, last=loser)
        self._close(Result(sole_first(ranks), reason), ranks)

    def _close(self, result: Result, ranks: list[int] | None) -> None:
        self._result = result
        self.ranks = ranks
        if self.phase == PLAY:
            summary = self.hands_summary[-1]
            if summary.end is None:
                summary.end = GAME_OVER
                summary.pips = tuple(pip_total(mask) for mask in self.hand_masks)
                summary.bonus = 0
            if summary.final_hands is None:
                self._keep_final_position(summary)
        self.clock.running = None
        self.drawn_tile = -1
        self.phase = OVER

    # ------------------------------------------------------------------- views

    def view(self, seat: int | None) -> JSON:
        return build_view(self, seat)
