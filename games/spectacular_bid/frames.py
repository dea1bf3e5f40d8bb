"""Frames for the replay viewer: the match after every action, all hands shown.

Only for a match that is over (or a record a user uploaded): during play, the
per-seat ``view`` is the only way state leaves the engine.
"""

from __future__ import annotations

from typing import Any

from games.dominoes.tiles import tile_name, tiles_in
from games.engine.records import us_to_seconds

from .record import Record
from .replay import replay, report
from .state import Match
from .view import build_view

JSON = dict[str, Any]


def _position(match: Match) -> JSON:
    public = build_view(match, None)
    return {
        "hand_no": match.hand_no,
        "phase": public["phase"],
        "banks": [us_to_seconds(b) for b in match.clock.banks_us],
        "board": public.get("board"),
        "hands": [[tile_name(t) for t in tiles_in(mask)] for mask in match.hand_masks],
        "boneyard_count": public.get("boneyard_count", 0),
        "jockey": public.get("jockey"),
    }


def frames(record: Record) -> JSON:
    """Everything the viewer draws, step by step, and the balance of each hand's end."""
    steps: list[JSON] = []
    before: JSON | None = None

    def observe(match: Match, entries: list[JSON]) -> None:
        # The engine reports a group at once: an action and what it forced. The board
        # and hands change only with a placement (or a draw, always alone), so entries
        # before the group's placement show the position from before the group.
        nonlocal before
        after = _position(match)
        placed = False
        for entry in entries:
            placed = placed or entry["type"] in ("play", "draw")
            shown = after if placed or before is None else before
            steps.append({"action": entry, **shown, "balances": entry["balances"]})
        before = after

    rep = replay(record, observer=observe)
    result = rep.match.result
    if result is not None and result.reason == "time" and result.winner is not None and steps:
        # A loss on time is not an action: give it a frame of its own, banks at the end.
        loser = 1 - result.winner
        flag = {"hand": rep.match.hand_no, "seat": loser, "type": "flag", "points": 0,
                "balances": list(rep.match.balances)}
        steps.append({"action": flag, **_position(rep.match), "balances": flag["balances"]})
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
