"""A greedy player that works from a seat's view only (what any client can see).

It takes the placement with the highest immediate score, opens with the best
scoring tile, bids the minimum only with a strong opening tile and accepts any bid
it faces (it never raises): modest, so a beginner has a fair game.
"""

from __future__ import annotations

from typing import Any

from games.dominoes.board import Board
from games.dominoes.board_json import board_from_json, placement_total
from games.dominoes.points import placement_points

JSON = dict[str, Any]


def placement_score(board: Board, action: JSON) -> int:
    return placement_points(placement_total(board, action))  # an opening: the board is empty


def pips(tile_name: str) -> int:
    lo, hi = tile_name.split("-")
    return int(lo) + int(hi)


def choose(view: JSON) -> JSON | None:
    """The action to send for this view, or None when there is nothing to do."""
    legal: list[JSON] = view.get("legal") or []
    if not legal:
        return None
    by_type: dict[str, list[JSON]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    for simple in ("continue", "reveal"):
        if simple in by_type:
            return by_type[simple][0]
    if view.get("phase") == "auction":
        if "accept" in by_type:
            return by_type["accept"][0]
        bids = by_type.get("bid", [])
        strong = any(pips(t) % 5 == 0 and pips(t) > 0 for t in view.get("hand", []))
        if bids and strong:
            return min(bids, key=lambda a: a["amount"])
        return by_type["decline"][0]
    plays = by_type.get("play", [])
    if plays:
        board = board_from_json(view["board"], cross=True)
        # Highest score first; then shed the heaviest tile.
        return max(plays, key=lambda a: (placement_score(board, a), pips(a["tile"])))
    if "draw" in by_type:
        return by_type["draw"][0]
    return legal[0]
