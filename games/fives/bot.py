"""A simple computer player that works from its own seat's view (what any client sees).

It plays the placement that scores most now; among equals it sheds the heaviest tile
(ties after that broken by the ``random.Random`` passed in). It draws when it must.
"""

from __future__ import annotations

import random
from typing import Any

from games.dominoes.board import Board
from games.dominoes.board_json import board_from_json, placement_total
from games.dominoes.tiles import PIPS, tile_from_name

from .scoring import placement_points

JSON = dict[str, Any]


def placement_score(board: Board, action: JSON) -> int:
    return placement_points(placement_total(board, action))


def choose(view: JSON, rng: random.Random) -> JSON | None:
    """The action to send for this view, or None when there is nothing to do."""
    legal: list[JSON] = view.get("legal") or []
    if not legal:
        return None
    plays = [action for action in legal if action["type"] == "play"]
    if not plays:
        return legal[0]  # a draw: the only other action a seat is ever offered
    board = board_from_json(view["board"], bool(view["rules"]["cross"]))
    scored = [(placement_score(board, a), PIPS[tile_from_name(a["tile"])], a) for a in plays]
    best = max((score, pips) for score, pips, _ in scored)
    candidates = [a for score, pips, a in scored if (score, pips) == best]
    return candidates[rng.randrange(len(candidates))]
