"""A greedy player that works from a seat's view only (what any client can see).

It takes the placement with the highest immediate score, opens with the best
scoring tile, bids the minimum only with a strong opening tile and accepts any bid
it faces (it never raises): modest, so a beginner has a fair game.
"""

from __future__ import annotations

from typing import Any

from games.dominoes.board import PORT_BY_NAME, Board
from games.dominoes.tiles import tile_from_name

JSON = dict[str, Any]


def board_from_view(board_view: JSON) -> Board:
    board = Board(cross=True)
    for link in board_view["tiles"]:
        tile = tile_from_name(link["tile"])
        if link["target"] is None:
            board.place_opening(tile)
        else:
            board.place(tile, tile_from_name(link["target"]), PORT_BY_NAME[link["port"]])
    return board


def placement_score(board: Board, action: JSON) -> int:
    tile = tile_from_name(action["tile"])
    if "target" not in action:
        total = Board(cross=True).sum_after(tile, -1, -1)
    else:
        total = board.sum_after(tile, tile_from_name(action["target"]),
                                PORT_BY_NAME[action["port"]])
    return total if total and total % 5 == 0 else 0


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
        board = board_from_view(view["board"])
        # Highest score first; then shed the heaviest tile.
        return max(plays, key=lambda a: (placement_score(board, a), pips(a["tile"])))
    if "draw" in by_type:
        return by_type["draw"][0]
    return legal[0]
