"""What one seat, or a spectator, may see of a match: the only way state leaves the engine.

During a hand a seat sees its own tiles and nothing else that is hidden: the
opponent's tiles and the boneyard (its tiles and its order) appear only as counts.
Once a hand is settled, or the match is over, both hands of that hand are shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from games.dominoes.board import Board
from games.dominoes.board_json import board_json
from games.dominoes.tiles import tile_name
from games.dominoes.view import RECENT_HANDS as RECENT_HANDS
from games.dominoes.view import hand_summary_json, public_move, recent_hands, tiles_of
from games.engine.clock import MatchClock
from games.engine.protocol import Result, Step

from . import actions as A
from .rules import US, Rules


class Match(Protocol):
    """What a view reads of the match state (``state.Match``), named here so that this
    module needs nothing of ``state``, which builds its views with it."""

    rules: Rules
    phase: str
    hand_no: int
    hand_masks: list[int]
    drawn_tile: int
    turn: int
    settled_us: int
    jockey: int | None
    decisions: int
    continued: list[bool]
    awaiting_reveal: int | None
    balances: list[int]
    board: Board
    clock: MatchClock
    moves: list[Step]

    @property
    def hands_summary(self) -> Sequence[Any]: ...
    @property
    def auction(self) -> Any: ...

    @property
    def result(self) -> Result | None: ...
    def to_act(self) -> int | None: ...
    def legal_actions(self, seat: int) -> list[int]: ...
    def next_deadline_us(self) -> int | None: ...
    def boneyard_left(self) -> int: ...

JSON = dict[str, Any]


def seconds(us: int) -> float:
    return us / US


SPINNER_KEY = "spinner"  # the board's spinner, in Spectacular Bid's word
# A hand summary's fields in a view.
SUMMARY_SHOWN = ("end", "jockey", "opener", "winner", "sums", "settlement")


def board_view(board: Board) -> JSON:
    """A board as every view shows it (public: it is on the table)."""
    return board_json(board, SPINNER_KEY)


def _clock(match: Match) -> JSON:
    clock = match.clock
    deadline = match.next_deadline_us() if match.phase != "continue" else None
    return {
        "banks": [seconds(b) for b in clock.banks_us],
        "running": clock.running,
        "started": seconds(clock.started_us) if clock.running is not None else None,
        "delay": seconds(clock.period_delay_us) if clock.running is not None else None,
        "deadline": seconds(deadline) if deadline is not None else None,
    }


def _hand_summary(match: Match, index: int, with_position: bool) -> JSON:
    return hand_summary_json(index, match.hands_summary[index], SUMMARY_SHOWN, with_position,
                             SPINNER_KEY, A.action_fields)


def build_view(match: Match, seat: int | None) -> JSON:
    """The view of ``seat`` (0 or 1), or of a spectator when ``seat`` is None."""
    result = match.result
    over = result is not None
    in_hand = match.phase in ("continue", "auction", "play")
    view: JSON = {
        "game": "spectacular-bid",
        "seat": seat,
        "phase": match.phase,
        "hand_no": match.hand_no,
        "rules": match.rules.to_dict(),
        "balances": list(match.balances),
        "clock": _clock(match),
        "to_act": match.to_act(),
        "awaiting_reveal": match.awaiting_reveal,
        "result": (
            {"winner": result.winner, "reason": result.reason} if result is not None else None
        ),
        "can_abort": not over and match.decisions == 0,
    }
    if match.hand_no >= 0:
        view["jockey"] = match.jockey
        view["board"] = board_view(match.board)
        view["moves"] = [public_move(m, A.action_fields) for m in match.moves]
        view["hand_counts"] = [m.bit_count() for m in match.hand_masks]
        view["boneyard_count"] = match.boneyard_left()
        view["continued"] = list(match.continued)
        if match.phase == "continue":
            view["grace_deadline"] = seconds(match.settled_us + match.rules.grace_us)
        if match.phase == "auction":
            view["auction"] = {"bid": match.auction.bid or None, "bidder": match.auction.bidder}
        # Hidden information: only the seat's own tiles while the hand runs.
        if seat is not None and (in_hand or over):
            view["hand"] = tiles_of(match.hand_masks[seat])
            if match.drawn_tile >= 0 and match.turn == seat:
                view["must_play"] = tile_name(match.drawn_tile)
        # A hand's tiles become public once it is settled; its final position shows
        # while the settlement is on screen: between hands and once the match is over.
        view["hands"] = recent_hands(match.hands_summary,
                                     over or match.phase in ("continue", "deal"),
                                     lambda i, position: _hand_summary(match, i, position))
        view["hands_played"] = len(match.hands_summary)
    # Only the seat's own legal moves; a spectator has none.
    view["legal"] = (
        [A.action_to_dict(seat, code) for code in match.legal_actions(seat)]
        if seat is not None
        else []
    )
    return view
