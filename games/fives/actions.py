"""Action codes: small integers inside the engine, record-shaped dicts at the edges.

A placement is ``tile << 8 | target << 3 | port``; a hand's lead uses itself as the
target and the pseudo-port LEAD. Other actions have fixed codes; events (a flag, an
annulment) appear in the engine's steps only and are never sent by a player.
"""

from __future__ import annotations

from typing import Any

from games.dominoes.actions import first_tile_code, play_fields, play_from_dict
from games.dominoes.actions import play_code as play_code
from games.dominoes.actions import play_parts as play_parts
from games.dominoes.board import FIRST_TILE_PORT
from games.engine.plugin import ActionError

LEAD = FIRST_TILE_PORT  # pseudo-port of a hand's first tile

DRAW = 8192
PASS = 8193
RESIGN = 8194
EVENT_BASE = 32768  # codes from here on are events, not actions
FLAG = 32769
ANNUL = 32770

MAX_SEATS = 4

SIMPLE_TYPES: dict[str, int] = {"draw": DRAW, "pass": PASS, "resign": RESIGN}
SIMPLE_NAMES: dict[int, str] = {code: name for name, code in SIMPLE_TYPES.items()}
EVENT_NAMES: dict[int, str] = {FLAG: "flag", ANNUL: "annul"}


lead_code = first_tile_code  # play_code and play_parts are the dominoes' too


def is_play(code: int) -> bool:
    return 0 <= code < DRAW


def action_type(code: int) -> str:
    if is_play(code):
        return "play"
    return SIMPLE_NAMES.get(code) or EVENT_NAMES.get(code, "event")


def action_fields(code: int) -> dict[str, Any]:
    """The action's own record fields (type, tile, target, port), no seat."""
    if is_play(code):
        return play_fields(code)
    return {"type": action_type(code)}


def action_to_dict(seat: int | None, code: int) -> dict[str, Any]:
    return {"seat": seat, **action_fields(code)}


def action_from_dict(data: Any, seats: int = MAX_SEATS) -> tuple[int, int]:
    """A record-shaped action -> (seat, code). Raises ActionError when unreadable.

    Other keys (``t``, ``points``, ...) are ignored.
    """
    if not isinstance(data, dict):
        raise ActionError("an action must be an object")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise ActionError(f"seat must be a whole number from 0 to {seats - 1}, got {seat!r}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ActionError(f"unknown action type {kind!r}")
    if kind in SIMPLE_TYPES:
        return seat, SIMPLE_TYPES[kind]
    if kind != "play":
        raise ActionError(f"unknown action type {kind!r}")
    return seat, play_from_dict(
        data, ActionError, "a placement names both target and port, or neither (a lead)")
