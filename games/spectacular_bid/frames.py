"""Frames for the replay viewer: the match after every action, all hands shown.

Only for a match that is over (or a record a user uploaded): during play, the
per-seat ``view`` is the only way state leaves the engine.
"""

from __future__ import annotations

from typing import Any

from games.dominoes.tiles import tile_name, tiles_in

from .record import Record, us_to_seconds
from .replay import replay, report
from .state import Match
from .view import build_view

JSON = dict[str, Any]


def _frame(match: Match, entry: JSON) -> JSON:
    public = build_view(match, None)
    return {
        "action": entry,
        "hand_no": match.hand_no,
        "phase": public["phase"],
        "balances": entry["balances"],
        "banks": [us_to_seconds(b) for b in match.clock.banks_us],
        "board": public.get("board"),
        "hands": [[tile_name(t) for t in tiles_in(mask)] for mask in match.hand_masks],
        "boneyard_count": public.get("boneyard_count", 0),
        "jockey": public.get("jockey"),
    }


def frames(record: Record) -> JSON:
    """Everything the viewer draws, step by step, and the balance of each hand's end."""
    steps: list[JSON] = []

    def observe(match: Match, entries: list[JSON]) -> None:
        for entry in entries:
            steps.append(_frame(match, entry))

    rep = replay(record, observer=observe)
    summary = report(rep)
    per_hand = [[record.rules.start_points, record.rules.start_points]]
    for hand in range(len(summary["hands"])):
        last = [e["balances"] for e in summary["actions"] if e["hand"] == hand]
        if last:
            per_hand.append(last[-1])
    return {
        "players": record.players,
        "rules": record.rules.to_dict(),
        "frames": steps,
        "hands": summary["hands"],
        "balances_by_hand": per_hand,
        "result": summary["result"],
        "error": summary.get("error"),
    }
