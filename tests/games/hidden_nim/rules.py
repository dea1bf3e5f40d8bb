"""The conventions of a Hidden Nim table: the size of the pile."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from games.engine.plugin import Convention, RulesError, gettext_noop

SEATS = 2
MIN_PILE, MAX_PILE = 5, 30
STANDARD_PILE = 15
MAX_TAKE = 3  # a turn takes 1 to 3 tokens
DECK = 10  # the deal shuffles cards 1 to 10: each seat's card is its secret bonus


@dataclass(frozen=True, slots=True)
class Rules:
    pile: int = STANDARD_PILE

    def to_dict(self) -> dict[str, Any]:
        return {"pile": self.pile}


STANDARD_RULES = Rules()

CONVENTIONS: tuple[Convention, ...] = (
    Convention("pile", gettext_noop("Tokens in the pile"), "int", STANDARD_PILE,
               MIN_PILE, MAX_PILE),
)


def check_seats(seats: Any) -> None:
    if seats != SEATS or isinstance(seats, bool):
        raise RulesError(f"seats must be {SEATS}, got {seats!r}", "seats", "seats")


def parse_rules(data: Any) -> Rules:
    """Rules from a JSON object (None or {}: the defaults)."""
    if data is None:
        return STANDARD_RULES
    if not isinstance(data, dict):
        raise RulesError("rules must be an object", problem="not_object")
    unknown = sorted(str(k) for k in data if k != "pile")
    if unknown:
        raise RulesError(f"unknown rule {unknown[0]!r} (the rule is pile)", unknown[0],
                         "unknown")
    pile = data.get("pile", STANDARD_PILE)
    if (isinstance(pile, bool) or not isinstance(pile, (int, float))
            or (isinstance(pile, float) and (not math.isfinite(pile) or pile != int(pile)))
            or not MIN_PILE <= pile <= MAX_PILE):
        raise RulesError(f"pile must be a whole number from {MIN_PILE} to {MAX_PILE}, "
                         f"got {pile!r}", "pile")
    return Rules(pile=int(pile))
