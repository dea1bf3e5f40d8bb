"""What one seat, or a spectator, may see of a game: the only way state leaves the engine.

While a hand runs a seat sees its own tiles and nothing else that is hidden: the other
hands and the bazaar appear only as counts, a draw never says which tile, and a
spectator sees no tile in any hand. Once a hand has ended its hands are revealed (in
the hand summaries); the bazaar never is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.dominoes import view as dominoes_view
from games.dominoes.board import Board
from games.dominoes.board_json import board_json
from games.dominoes.tiles import tile_name
from games.dominoes.view import hand_summary_json, recent_hands
from games.dominoes.view import tiles_of as tiles_of

from . import actions as A
from .rules import US

if TYPE_CHECKING:
    from games.engine.protocol import Step

    from .state import FivesState

JSON = dict[str, Any]

SPINNER_KEY = "cross"  # Fives' word for the board's spinner
SUMMARY_SHOWN = ("leader", "end", "winner", "pips", "bonus")  # a hand summary's, in a view


def seconds(us: int) -> float:
    return us / US


def public_move(step: Step) -> JSON:
    return dominoes_view.public_move(step, A.action_fields)


def board_view(board: Board) -> JSON:
    """A board as every view shows it (public: it is on the table)."""
    return board_json(board, SPINNER_KEY)


def clock_view(state: FivesState) -> JSON:
    """Times in seconds since the game was created; a client counts the running one down."""
    clock = state.clock
    running = clock.running if state.result is None else None
    deadline = state.next_deadline_us()
    return {
        # Time left at the start of the running turn (as Spectacular Bid's clock, delay 0).
        "banks": [seconds(bank) for bank in clock.banks_us],
        "running": running,
        "started": seconds(clock.started_us) if running is not None else None,
        "delay": 0.0 if running is not None else None,
        "deadline": seconds(deadline) if deadline is not None else None,
    }


def result_view(state: FivesState) -> JSON | None:
    result = state.result
    if result is None:
        return None
    return {"winner": result.winner, "ranks": state.ranks, "reason": result.reason}


def hand_summary_view(state: FivesState, index: int, with_position: bool) -> JSON:
    return hand_summary_json(index, state.hands_summary[index], SUMMARY_SHOWN, with_position,
                             SPINNER_KEY, A.action_fields)


def build_view(state: FivesState, seat: int | None) -> JSON:
    """The view of ``seat`` (0..seats-1), or of a spectator when ``seat`` is None."""
    if seat is not None and not 0 <= seat < state.num_seats:
        seat = None  # no such seat: it sees what a spectator sees
    over = state.result is not None
    in_hand = state.phase == "play"
    view: JSON = {
        "game": "fives",
        "seat": seat,
        "seats": state.num_seats,
        "phase": state.phase,
        "hand_no": state.hand_no,
        "rules": state.rules.to_dict(),
        "scores": list(state.scores),
        "clock": clock_view(state),
        "to_act": state.to_act(),
        "result": result_view(state),
        "lots": tiles_of_list(state.lots),
    }
    if state.hand_no >= 0:
        view["board"] = board_view(state.board)
        view["moves"] = [public_move(m) for m in state.moves]
        view["hand_counts"] = [mask.bit_count() for mask in state.hand_masks]
        view["bazaar_count"] = state.bazaar_left()
        view["drawable"] = state.drawable()
        if seat is not None and in_hand:
            # Hidden information: only the seat's own tiles while the hand runs.
            view["hand"] = tiles_of(state.hand_masks[seat])
            if state.drawn_tile >= 0 and state.turn == seat:
                view["must_play"] = tile_name(state.drawn_tile)
        view["hands"] = recent_hands(state.hands_summary, over or state.phase == "deal",
                                     lambda i, position: hand_summary_view(state, i, position))
        view["hands_played"] = len(state.hands_summary)
    # Only the seat's own legal moves; a spectator has none. Resign is always allowed.
    view["legal"] = (
        [A.action_to_dict(seat, code) for code in state.legal_actions(seat)]
        if seat is not None and not over
        else []
    )
    return view


def tiles_of_list(tiles: list[int] | None) -> list[str] | None:
    return None if tiles is None else [tile_name(t) for t in tiles]
