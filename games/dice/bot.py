"""Computer players that work from a seat's view only (dice are public anyway).

"careful" takes the decision with the highest exact expected recorded score of the
turn (``odds``, cached by sorted roll). "to_win" takes the one with the best chance of
finishing first at a table (``to_win``; careful when alone). "easy" stands on a good
enough roll, with a threshold drawn from the rng each turn, and otherwise keeps the dice of its
combination and re-rolls the rest: sensible, beatable.
"""

from __future__ import annotations

import random
from typing import Any

from . import odds, to_win
from .scoring import FIVE, FULL_HOUSE, LARGE_STRAIGHT, NOTHING, reading

JSON = dict[str, Any]
LEVELS = ("careful", "easy", "to_win")
DEFAULT_LEVEL = "careful"
TO_WIN = "to_win"  # for a table (see to_win.py)

EASY_THRESHOLDS = (20, 25, 30, 35)
EASY_WHIM = 0.15  # how often the easy player re-rolls everything on a whim


def decision(seat: int, keep: tuple[int, ...] | None) -> JSON:
    if keep is None:
        return {"seat": seat, "type": "stand"}
    return {"seat": seat, "type": "improve", "keep": list(keep)}


def careful_keep(dice: list[int] | tuple[int, ...]) -> tuple[int, ...] | None:
    return odds.best(dice).keep


def easy_keep(dice: list[int] | tuple[int, ...], rng: random.Random) -> tuple[int, ...] | None:
    best = reading(dice)
    if best.name in (FIVE, FULL_HOUSE, LARGE_STRAIGHT):
        return None
    if best.score >= rng.choice(EASY_THRESHOLDS):
        return None
    if best.name == NOTHING or rng.random() < EASY_WHIM:
        return ()
    return best.dice


def choose(view: JSON, rng: random.Random, level: str = DEFAULT_LEVEL) -> JSON | None:
    """The decision to send for this view, or None when the seat has none to make."""
    legal: list[JSON] = view.get("legal") or []
    table = view.get("table")
    seat = view.get("seat")
    if not legal or table is None or not isinstance(seat, int):
        return None
    dice = table["dice"]
    if level == "easy":
        keep = easy_keep(dice, rng)
    elif level == TO_WIN:
        keep = to_win.keep_to_win(view)
    else:
        keep = careful_keep(dice)
    return decision(seat, keep)
