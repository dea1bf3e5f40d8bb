"""Frames for the replay viewer: the public position after every action.

Public information only, as a spectator would have seen it: the board, the counts of
tiles in each hand and in the bazaar, scores and clocks; a hand's tiles are shown
once that hand has ended.
"""

from __future__ import annotations

from typing import Any

from games.dominoes.tiles import tile_name
from games.engine.records import us_to_seconds

from .record import Record
from .replay import replay, report
from .state import FivesState
from .view import board_view, tiles_of

JSON = dict[str, Any]


def _position(state: FivesState) -> JSON:
    summary = state.hands_summary[-1] if state.hands_summary else None
    revealed = summary.final_hands if summary is not None else None
    return {
        "hand_no": state.hand_no,
        "phase": state.phase,
        "board": board_view(state.board),
        "hand_counts": [mask.bit_count() for mask in state.hand_masks],
        "bazaar_count": state.bazaar_left(),
        "banks": [us_to_seconds(bank) for bank in state.clock.banks_us],
        "revealed": [tiles_of(mask) for mask in revealed] if revealed is not None else None,
    }


def frames(record: Record) -> JSON:
    """Everything the viewer draws, step by step, and the scores at each hand's end."""
    steps: list[JSON] = []

    def observe(state: FivesState, entries: list[JSON]) -> None:
        # A group is one player's action and the forced passes it caused: the position
        # after the group is the one to show for each of them.
        after = _position(state)
        for entry in entries:
            steps.append({"action": entry, **after, "scores": entry["scores"]})

    rep = replay(record, observer=observe)
    state = rep.state
    result = state.result
    if result is not None and result.reason == "time" and state.ranks is not None:
        # A loss on time is not an action: it gets a frame of its own.
        loser = state.ranks.index(state.num_seats)
        flag = {"hand": state.hand_no, "seat": loser, "type": "flag", "points": 0,
                "scores": list(state.scores)}
        steps.append({"action": flag, **_position(state), "scores": flag["scores"]})
    summary = report(rep)
    by_hand = [[0] * record.seats]
    for hand in range(len(summary["hands"])):
        last = [e["scores"] for e in summary["actions"] if e["hand"] == hand]
        if last:
            by_hand.append(last[-1])
    return {
        "players": record.players,
        "rules": record.rules.to_dict(),
        "lots": [tile_name(t) for t in record.lots] if record.lots is not None else None,
        "frames": steps,
        "hands": summary["hands"],
        "scores_by_hand": by_hand,
        "result": summary["result"],
        "error": summary.get("error"),
    }
