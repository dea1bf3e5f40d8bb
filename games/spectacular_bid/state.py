"""A Spectacular Bid match: the rules of spec §1-§8 as a state machine.

Times are microseconds since the match was created, passed in by the caller; deals
are passed in as chance outcomes. The state never reads a clock or draws a random
number, so the same inputs always give the same match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.dominoes.board import Board, placement_refusal
from games.dominoes.hands import DEAL, OVER, PLAY, DominoState
from games.dominoes.points import round_to_five
from games.dominoes.tiles import (
    FULL_SET_MASK,
    HI,
    IS_DOUBLE,
    LO,
    TILE_COUNT,
    mask_of,
    pip_total,
)
from games.engine.clock import MatchClock
from games.engine.protocol import JSON, Reason, Result, Step, gettext_noop
from games.engine.stepped import ANNULLED

from . import actions as A
from .hand_ends import BidHandEnds
from .rules import STANDARD_RULES, Rules
from .view import build_view

# Phases of a match: the dominoes' DEAL, PLAY (the opening tile included) and OVER, and
CONTINUE = "continue"  # dealt; waiting for Start/Continue from both players
AUCTION = "auction"

HAND_SIZE = 7
BONEYARD_SIZE = TILE_COUNT - 2 * HAND_SIZE

# How hands end (the record's ``end``).
DOMINO = "domino"
BLOCKED = "blocked"
MATCH_OVER = "match_over"


class DealError(ValueError):
    """A deal that is not 7 + 7 + 14 distinct tiles of the double-six set."""


def hierarchy_key(tile: int) -> tuple[bool, int, int]:
    """Doubles first (the highest double), then the highest sum, then the larger half."""
    return (IS_DOUBLE[tile], LO[tile] + HI[tile], HI[tile])


HIERARCHY_ORDER: tuple[int, ...] = tuple(sorted(range(TILE_COUNT), key=hierarchy_key, reverse=True))


@dataclass(slots=True)
class HandSummary:
    """What the record's replay reports for each hand started."""

    jockey: int | None
    end: str | None = None
    sums: tuple[int, int] | None = None
    settlement: int | None = None
    # Both hands as they stood when the hand ended (shown once it is settled).
    final_hands: tuple[int, ...] | None = None
    opener: int | None = None
    # The hand's final position, kept so a client sees the last move after the next deal.
    final_board: Board | None = field(default=None, compare=False)
    final_moves: list[Step] | None = field(default=None, compare=False)
    winner: int | None = None  # who played out, or the lower hand of a blocked hand


@dataclass(slots=True)
class Auction:
    bid: int = 0  # 0: no bid yet
    bidder: int | None = None


@dataclass(slots=True)
class Deal:
    hands: tuple[list[int], list[int]]
    boneyard: list[int]

    @classmethod
    def checked(cls, hands: Sequence[Sequence[int]], boneyard: Sequence[int]) -> Deal:
        if len(hands) != 2:
            raise DealError("a deal has two hands")
        if len(hands[0]) != HAND_SIZE or len(hands[1]) != HAND_SIZE:
            raise DealError("each hand must hold 7 tiles")
        if len(boneyard) != BONEYARD_SIZE:
            raise DealError("the boneyard must hold 14 tiles")
        every = [*hands[0], *hands[1], *boneyard]
        if any(not 0 <= t < TILE_COUNT for t in every) or mask_of(every) != FULL_SET_MASK:
            raise DealError("the deal must use each of the 28 tiles exactly once")
        return cls((list(hands[0]), list(hands[1])), list(boneyard))


class Match(DominoState):
    """One match between seat 0 and seat 1."""

    num_seats = 2
    over_reason = gettext_noop("the match is over")
    not_moves = (A.RESIGN, A.ABORT)

    def __init__(self, rules: Rules = STANDARD_RULES) -> None:
        self.rules = rules
        self.balances = [rules.start_points, rules.start_points]
        self.clock = MatchClock.for_seats(2, rules.bank_us, rules.delay_us)
        self.phase = DEAL
        self.hand_no = -1
        self.hands_summary: list[HandSummary] = []
        self.next_jockey: int | None = None  # who played out last: jockey of the next hand
        self.jockey: int | None = None
        self.hand_masks = [0, 0]
        self.boneyard: list[int] = []
        self.draw_pos = 0
        self.board = Board(cross=True)
        self.turn = 0
        self.drawn_tile = -1  # a drawn playable tile that must be played now
        self.passes_in_row = 0
        self.auction = Auction()
        self.continued = [False, False]
        self.settled_us = 0  # when the last hand ended (the next grace period starts)
        self.awaiting_reveal: int | None = None
        self.revealed_seat: int | None = None
        self.decisions = 0  # player decisions so far (abort is allowed only at 0)
        self.moves: list[Step] = []  # the current hand's moves (public: see view.py)
        self._result: Result | None = None
        self._steps: list[Step] = []

    # ----------------------------------------------------------------- queries

    def to_act(self) -> int | None:
        if self.phase in (AUCTION, PLAY):
            return self.turn
        return None

    def boneyard_left(self) -> int:
        return BONEYARD_SIZE - self.draw_pos if self.boneyard else 0

    def net_payment(self, seat: int, amount: int) -> int:
        """What ``seat`` pays if its bid of ``amount`` is accepted (jockey discount, §6.4)."""
        if seat == self.jockey:
            return max(0, amount - self.rules.jockey_discount)
        return amount

    def min_bid_for(self, seat: int) -> int:
        if self.auction.bid == 0:
            return self.rules.min_bid
        return self.auction.bid + self.rules.bid_step

    def max_bid_for(self, seat: int) -> int:
        """The largest affordable bid (a multiple of 5), or below the minimum."""
        balance = self.balances[seat]
        top = balance + self.rules.jockey_discount if seat == self.jockey else balance
        return top - top % 5

    def legal_actions(self, seat: int) -> list[int]:
        if self._result is not None:
            return []
        phase = self.phase
        if phase == PLAY:
            if seat != self.turn:
                return []
            if self.awaiting_reveal is not None:
                return [A.REVEAL] if seat == self.awaiting_reveal else []
            return self._legal_plays(seat)
        if phase == CONTINUE:
            return [] if self.continued[seat] else [A.CONTINUE]
        if phase == AUCTION:
            if seat != self.turn:
                return []
            if self.awaiting_reveal is not None:
                return [A.REVEAL] if seat == self.awaiting_reveal else []
            return self._legal_auction(seat)
        return []

    def _may_draw(self) -> bool:
        return self.draw_pos < BONEYARD_SIZE

    def _hand_ends(self) -> BidHandEnds | None:
        # A one-device match waiting for its tiles to be revealed has a step in between.
        return None if self.awaiting_reveal is not None else BidHandEnds()

    def _pile(self) -> tuple[Sequence[int], int]:
        return self.boneyard, BONEYARD_SIZE

    def _legal_auction(self, seat: int) -> list[int]:
        codes = []
        if self.auction.bid == 0:
            codes.append(A.DECLINE)
        else:
            codes.append(A.ACCEPT)
        low = self.min_bid_for(seat)
        low += -low % 5
        for amount in range(low, self.max_bid_for(seat) + 1, 5):
            if self.net_payment(seat, amount) <= self.balances[seat]:
                codes.append(A.BID + amount)
        return codes

    def next_deadline_us(self) -> int | None:
        if self._result is not None:
            return None
        if self.phase == CONTINUE:
            return self.settled_us + self.rules.grace_us
        return self.clock.deadline_us()

    # ------------------------------------------------------------------ chance

    def deal(self, deal: Deal) -> list[Step]:
        """Start the next hand with ``deal`` (a chance outcome chosen outside)."""
        if not self.needs_chance():
            raise DealError("no deal is due now")
        self.hand_no += 1
        self.jockey = self.next_jockey
        self.next_jockey = None
        self.hands_summary.append(HandSummary(jockey=self.jockey))
        self.hand_masks = [mask_of(deal.hands[0]), mask_of(deal.hands[1])]
        self.boneyard = list(deal.boneyard)
        self.draw_pos = 0
        self.board = Board(cross=True)
        self.drawn_tile = -1
        self.passes_in_row = 0
        self.auction = Auction()
        self.continued = [False, False]
        self.awaiting_reveal = None
        self.revealed_seat = None
        self.moves = []
        self.phase = CONTINUE
        return []

    # -------------------------------------------------------------------- time

    def _advance(self, now_us: int) -> None:
        if self._result is not None:
            return
        if self.phase == CONTINUE:
            grace_end = self.settled_us + self.rules.grace_us
            if now_us >= grace_end:
                # A Continue that nobody pressed counts as pressed (§8).
                for seat in (0, 1):
                    if not self.continued[seat]:
                        self.continued[seat] = True
                        self._emit(seat, A.CONTINUE, grace_end, forced=True)
                self._start_hand(grace_end)
        if self._result is None and self.clock.running is not None and self.clock.is_late(now_us):
            deadline = self.clock.deadline_us()
            assert deadline is not None
            flagged = self.clock.flag()
            assert flagged is not None
            self._emit(flagged, A.FLAG, deadline)
            self._finish(Result(1 - flagged, "time"), deadline)

    def start_hand_now(self, now_us: int) -> list[Step]:
        """Both players count as having pressed Continue at ``now_us``.

        For records whose hands omit ``continue`` (the hand starts at its first action).
        """
        return self._collect(self._start_if_continuing, now_us)

    def _start_if_continuing(self, now_us: int) -> None:
        if self.phase == CONTINUE and self._result is None:
            self.continued = [True, True]
            self._start_hand(now_us)

    # ----------------------------------------------------------------- actions

    def _late(self, now_us: int) -> bool:
        clock = self.clock
        running = clock.running
        return self.phase == CONTINUE or (
            running is not None
            and now_us >= clock.started_us + clock.period_delay_us + clock.banks_us[running]
        )

    def _annul(self, now_us: int) -> None:
        self._emit(None, A.ANNUL, now_us)
        self._finish(Result(None, ANNULLED), now_us)

    def _check(self, seat: int, action: int) -> str | None:
        """Why ``action`` is refused now, or None when it is legal."""
        if (
            action < A.DRAW
            and self.phase == PLAY
            and seat == self.turn
            and self.awaiting_reveal is None
        ):
            return self._check_placement(seat, action)  # the common case first
        if seat not in (0, 1):
            return gettext_noop("there is no such seat")
        if action == A.RESIGN:
            return None
        if action == A.ABORT:
            if self.decisions:
                return gettext_noop("a match can be aborted only before its first decision")
            return None
        phase = self.phase
        if action == A.CONTINUE:
            if phase != CONTINUE:
                return gettext_noop("there is nothing to continue now")
            if self.continued[seat]:
                return gettext_noop("you have already pressed Continue")
            return None
        if action == A.PASS:
            return gettext_noop("a pass is never chosen: it is applied when you can neither "
                                "play nor draw")
        if phase == DEAL:
            return gettext_noop("the next hand has not been dealt")
        if phase == CONTINUE:
            return gettext_noop("the hand starts when both players have pressed Continue")
        if seat != self.turn:
            return gettext_noop("it is not your turn")
        if self.awaiting_reveal is not None:
            if action == A.REVEAL:
                return None
            return gettext_noop("reveal your tiles first")
        if action == A.REVEAL:
            return gettext_noop("there is nothing to reveal now")
        if phase == AUCTION:
            return self._check_auction(seat, action)
        return self._check_play(seat, action)

    def _check_auction(self, seat: int, action: int) -> str | None:
        if action == A.DECLINE:
            if self.auction.bid:
                return gettext_noop("you face a bid: accept it or raise")
            return None
        if action == A.ACCEPT:
            if not self.auction.bid:
                return gettext_noop("there is no bid to accept")
            return None
        if A.is_bid(action):
            amount = action - A.BID
            if amount % 5:
                return gettext_noop("bids are multiples of 5")
            if amount < self.min_bid_for(seat):
                if self.auction.bid:
                    return Reason(gettext_noop("a raise must be at least %(bid)s"),
                                  bid=self.min_bid_for(seat))
                return Reason(gettext_noop("the lowest bid is %(bid)s"), bid=self.rules.min_bid)
            if self.net_payment(seat, amount) > self.balances[seat]:
                return gettext_noop("you cannot afford that bid")
            return None
        if A.is_play(action) or action == A.DRAW:
            return gettext_noop("the opening is being auctioned: bid, accept or decline")
        return gettext_noop("that is not an action of this game")

    def _check_play(self, seat: int, action: int) -> str | None:
        if action < A.DRAW:
            return self._check_placement(seat, action)
        if A.is_bid(action) or action in (A.ACCEPT, A.DECLINE):
            return gettext_noop("there is no auction now")
        if action == A.DRAW:
            if self.drawn_tile >= 0:
                return gettext_noop("play the tile you drew")
            if self.board.is_empty:
                return gettext_noop("open the hand with a tile")
            if self.playable_mask(seat):
                return gettext_noop("you hold a playable tile, so you may not draw")
            if self.draw_pos >= BONEYARD_SIZE:
                return gettext_noop("the boneyard is empty")
            return None
        return gettext_noop("that is not an action of this game")

    def _check_placement(self, seat: int, action: int) -> str | None:
        if action < 0:
            return gettext_noop("that is not an action of this game")
        tile, target, port = action >> 8, action >> 3 & 31, action & 7
        return placement_refusal(self.board, self.hand_masks[seat], self.drawn_tile, tile,
                                 target, port)

    # ------------------------------------------------------------- transitions

    def _scores_now(self) -> tuple[int, ...]:
        return (self.balances[0], self.balances[1])

    def _do(self, seat: int, action: int, now_us: int) -> None:
        if action < A.DRAW:  # a placement, the common case
            self.decisions += 1
            self.clock.stop(now_us)
            self._place(seat, action, now_us, forced=False)
        elif action == A.RESIGN:
            self.clock.stop(now_us)
            self._emit(seat, action, now_us)
            self._finish(Result(1 - seat, "resign"), now_us)
        elif action == A.ABORT:
            self.clock.stop(now_us)
            self._emit(seat, action, now_us)
            self._finish(Result(None, "abort"), now_us)
        elif action == A.CONTINUE:
            self.continued[seat] = True
            self._emit(seat, action, now_us)
            if self.continued[0] and self.continued[1]:
                self._start_hand(now_us)
        elif action == A.REVEAL:
            self.awaiting_reveal = None
            self.revealed_seat = seat
            self.clock.start(seat, now_us)
            self._emit(seat, action, now_us)
        elif action == A.DRAW:
            self._draw(seat, now_us)
        elif action == A.DECLINE:
            self.decisions += 1
            self.clock.stop(now_us)
            self._emit(seat, action, now_us)
            self._begin_opening(1 - seat, now_us)
        elif action == A.ACCEPT:
            self.decisions += 1
            self.clock.stop(now_us)
            self._accept(seat, now_us)
        else:  # a bid or a raise: the clock switches to the opponent
            self.decisions += 1
            self.clock.stop(now_us)
            self.auction.bid = action - A.BID
            self.auction.bidder = seat
            self._emit(seat, action, now_us)
            self._start_decision(1 - seat, now_us)

    def _start_decision(self, seat: int, now_us: int) -> None:
        """A truly new decision for ``seat``: a fresh delay (§7)."""
        self.turn = seat
        if self.rules.one_device and seat != self.revealed_seat:
            # The device is being passed: the clock waits until the tiles are revealed.
            self.awaiting_reveal = seat
            return
        self.clock.start(seat, now_us)

    def _start_hand(self, now_us: int) -> None:
        self.continued = [True, True]
        if self.jockey is None:
            self.phase = PLAY
            # Hierarchy opening: the tile is forced, so it is played for its holder.
            holder, tile = self._hierarchy_opening()
            self.hands_summary[-1].opener = holder
            self.turn = holder
            self._place(holder, A.opening_code(tile), now_us, forced=True)
        else:
            self.phase = AUCTION
            self._start_decision(1 - self.jockey, now_us)

    def _hierarchy_opening(self) -> tuple[int, int]:
        """(holder, tile) of the hand's highest tile in the hierarchy (§2)."""
        first, second = self.hand_masks
        for tile in HIERARCHY_ORDER:
            if first >> tile & 1:
                return 0, tile
            if second >> tile & 1:
                return 1, tile
        raise AssertionError("a dealt hand holds tiles")

    def _begin_opening(self, seat: int, now_us: int) -> None:
        self.phase = PLAY
        self.hands_summary[-1].opener = seat
        self._start_decision(seat, now_us)

    def _accept(self, seat: int, now_us: int) -> None:
        bidder = self.auction.bidder
        assert bidder is not None
        moved = self._pay(bidder, seat, self.net_payment(bidder, self.auction.bid))
        self._emit(seat, A.ACCEPT, now_us, points=moved)
        if self.balances[bidder] == 0:
            self._finish(Result(seat, "points"), now_us)
            return
        self._begin_opening(bidder, now_us)

    def _pay(self, payer: int, payee: int, amount: int) -> int:
        """Move up to ``amount`` points; a payment never exceeds the payer's balance."""
        moved = min(amount, self.balances[payer])
        self.balances[payer] -= moved
        self.balances[payee] += moved
        return moved

    def _draw(self, seat: int, now_us: int) -> None:
        self.decisions += 1
        self._draw_from(self.boneyard, seat, now_us)  # a turn that goes on: no new delay (§7)

    def _place(self, seat: int, code: int, now_us: int, forced: bool) -> None:
        tile, target, port = code >> 8, code >> 3 & 31, code & 7  # A.play_parts, inlined
        board = self.board
        total = board.place_opening(tile) if port == A.OPEN else board.place(tile, target, port)
        self.hand_masks[seat] &= ~(1 << tile)
        self.drawn_tile = -1
        self.passes_in_row = 0
        moved = 0
        if total and total % 5 == 0:
            moved = self._pay(1 - seat, seat, total)
        self._emit(seat, code, now_us, forced, moved)
        if self.balances[1 - seat] == 0:
            self._finish(Result(seat, "points"), now_us)
        elif not self.hand_masks[seat]:
            self.hands_summary[-1].winner = seat
            self._end_hand(DOMINO, now_us)
            self.next_jockey = seat
        else:
            self._begin_turn(1 - seat, now_us)

    def _blocked(self, seat: int, now_us: int) -> None:
        # Both passed in succession: the hand is blocked (§5).
        winner = self._settle_block()
        self._emit(seat, A.PASS, now_us, forced=True)
        if winner is not None and self.balances[1 - winner] == 0:
            self._finish(Result(winner, "points"), now_us)
        else:
            self._end_hand(BLOCKED, now_us)

    def _settle_block(self) -> int | None:
        """The lower hand receives the other's whole total, rounded to 5; returns it."""
        sums = (pip_total(self.hand_masks[0]), pip_total(self.hand_masks[1]))
        summary = self.hands_summary[-1]
        summary.sums = sums
        summary.settlement = 0
        if sums[0] == sums[1]:
            return None
        winner = 0 if sums[0] < sums[1] else 1
        summary.winner = winner
        summary.settlement = self._pay(1 - winner, winner, round_to_five(sums[1 - winner]))
        return winner

    def _end_hand(self, how: str, now_us: int) -> None:
        summary = self.hands_summary[-1]
        summary.end = how
        self._keep_final_position(summary)
        self.clock.running = None
        self.phase = DEAL
        self.settled_us = now_us

    def _finish(self, result: Result, now_us: int) -> None:
        self._result = result
        if self.hands_summary and self.hands_summary[-1].end is None and self.phase != DEAL:
            self.hands_summary[-1].end = MATCH_OVER
        self._close_match(now_us)

    def _close_match(self, now_us: int) -> None:
        if self.hands_summary and self.hands_summary[-1].final_hands is None and self.phase != DEAL:
            self._keep_final_position(self.hands_summary[-1])
        self.clock.running = None
        self.awaiting_reveal = None
        self.phase = OVER
        self.settled_us = now_us

    # ------------------------------------------------------------------- views

    def view(self, seat: int | None) -> JSON:
        return build_view(self, seat)

