"""Action codes: small integers inside the engine, record-shaped dicts at the edges.

A placement is ``tile << 8 | target << 3 | port``; the opening tile uses itself as
target and the port OPEN. Other actions have fixed codes; a bid is BID + amount.
"""

from __future__ import annotations

import math
from typing import Any

from games.dominoes.actions import first_tile_code, play_fields, play_from_dict
from games.dominoes.actions import play_code as play_code
from games.dominoes.actions import play_parts as play_parts
from games.dominoes.board import FIRST_TILE_PORT

OPEN = FIRST_TILE_PORT  # pseudo-port of the opening tile

DRAW = 8192
PASS = 8193
CONTINUE = 8194
REVEAL = 8195
ACCEPT = 8196
DECLINE = 8197
RESIGN = 8198
ABORT = 8199
BID = 16384  # BID + amount
# Events no player sends; they appear in the engine's steps only.
EVENT_BASE = 32768  # codes from here on are events, not actions
FLAG = 32769
ANNUL = 32770

SIMPLE_TYPES: dict[str, int] = {
    "draw": DRAW,
    "pass": PASS,
    "continue": CONTINUE,
    "reveal": REVEAL,
    "accept": ACCEPT,
    "decline": DECLINE,
    "resign": RESIGN,
    "abort": ABORT,
}
SIMPLE_NAMES: dict[int, str] = {code: name for name, code in SIMPLE_TYPES.items()}
ACTION_TYPES = frozenset({"play", "bid", *SIMPLE_TYPES})


class ActionFormatError(ValueError):
    """An action that is not well formed (as opposed to well formed but illegal)."""


opening_code = first_tile_code  # play_code and play_parts are the dominoes' too


def is_play(code: int) -> bool:
    return code < DRAW


def is_bid(code: int) -> bool:
    return BID <= code < EVENT_BASE


def action_type(code: int) -> str:
    if code < DRAW:
        return "play"
    if BID <= code < EVENT_BASE:
        return "bid"
    return SIMPLE_NAMES.get(code, "event")


def action_fields(code: int) -> dict[str, Any]:
    """The action's own record fields (type, tile, target, port, amount), no seat."""
    if code < DRAW:
        return play_fields(code)
    if BID <= code < EVENT_BASE:
        return {"type": "bid", "amount": code - BID}
    return {"type": action_type(code)}


def action_to_dict(seat: int | None, code: int) -> dict[str, Any]:
    return {"seat": seat, **action_fields(code)}


def action_from_dict(data: Any) -> tuple[int, int]:
    """A record-shaped action -> (seat, code). Raises ActionFormatError."""
    if not isinstance(data, dict):
        raise ActionFormatError("an action must be an object")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
        raise ActionFormatError(f"seat must be 0 or 1, got {seat!r}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:  # (a list is unhashable)
        raise ActionFormatError(f"unknown action type {kind!r}")
    assert isinstance(kind, str)
    if kind == "bid":
        amount = data.get("amount")
        if (
            isinstance(amount, bool)
            or not isinstance(amount, (int, float))
            or not math.isfinite(amount)
            or amount != int(amount)
        ):
            raise ActionFormatError(f"bid amount must be a whole number, got {amount!r}")
        if not 0 <= amount < EVENT_BASE - BID:
            raise ActionFormatError(f"bid amount out of range: {amount!r}")
        return seat, BID + int(amount)
    if kind != "play":
        return seat, SIMPLE_TYPES[kind]
    return seat, play_from_dict(
        data, ActionFormatError, "a placement names both target and port, or neither")
