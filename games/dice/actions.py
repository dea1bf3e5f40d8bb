"""Action codes: small integers inside the engine, record-shaped dicts at the edges.

A decision is ``STAND``, or ``IMPROVE | key`` where ``key`` is the multiset key
(``scoring.key_of``) of the dice kept: a keep is a multiset of values, so two equal
dice kept are one decision, not two. Events no player sends (chance, annulment)
use codes from ``EVENT_BASE`` on and appear only in the engine's steps.
"""

from __future__ import annotations

from typing import Any

from games.engine.plugin import ActionError

from .scoring import DICE, DiceError, check_dice, dice_of, key_of

STAND = 1
RESIGN = 2
IMPROVE = 1 << 16  # IMPROVE | keep key (every key is below 6 ** 6 < 2 ** 16)
EVENT_BASE = 1 << 17
ORDER_ROLLED = EVENT_BASE + 1
ROLLED = EVENT_BASE + 2
REROLLED = EVENT_BASE + 3
ANNUL = EVENT_BASE + 4

MAX_SEAT = 5
MAX_KEEP = DICE - 1


def improve_code(keep: tuple[int, ...] | list[int]) -> int:
    return IMPROVE | key_of(keep)


def is_improve(code: int) -> bool:
    return IMPROVE <= code < EVENT_BASE


def keep_of(code: int) -> tuple[int, ...]:
    """The kept dice of an improve code, ascending."""
    return dice_of(code - IMPROVE)


def action_fields(code: int) -> dict[str, Any]:
    """The action's own record fields (type, keep), no seat."""
    if code == STAND:
        return {"type": "stand"}
    if code == RESIGN:
        return {"type": "resign"}
    if is_improve(code):
        return {"type": "improve", "keep": list(keep_of(code))}
    return {"type": "event"}


def action_to_dict(seat: int | None, code: int) -> dict[str, Any]:
    return {"seat": seat, **action_fields(code)}


def parse_keep(value: Any) -> tuple[int, ...]:
    """A ``keep`` field: 0 to 4 dice (five kept would be no improvement at all)."""
    try:
        keep = check_dice(value, where="keep")
    except DiceError as exc:
        raise ActionError(str(exc)) from None
    if len(keep) > MAX_KEEP:
        raise ActionError(f"keep holds 0 to {MAX_KEEP} dice, got {len(keep)}")
    return keep


def parse_seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEAT:
        raise ActionError(f"seat must be a whole number from 0 to {MAX_SEAT}, got {value!r}")
    return value


def action_from_dict(data: Any) -> tuple[int, int]:
    """A record-shaped decision -> (seat, code). Raises ActionError.

    An ``improve`` from a client names only ``keep``; a record's also carries ``dice``
    (the re-roll, a chance outcome), which the record reader takes separately.
    """
    if not isinstance(data, dict):
        raise ActionError("an action must be an object")
    seat = parse_seat(data.get("seat"))
    kind = data.get("type")
    if kind == "stand":
        return seat, STAND
    if kind == "resign":
        return seat, RESIGN
    if kind == "improve":
        if "keep" not in data:
            raise ActionError("improve names the dice it keeps (keep, a list)")
        return seat, improve_code(parse_keep(data["keep"]))
    raise ActionError(f"unknown action type {kind!r} (stand, improve, resign)")
