"""The conventions of a dice table (dice.md, "A game"): rounds, the quick version, time."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from games.engine.plugin import Convention, RulesError, gettext_noop

US = 1_000_000  # microseconds in a second

MIN_SEATS, MAX_SEATS = 1, 6
MIN_ROUNDS, MAX_ROUNDS = 1, 25
MIN_DECISION_S, MAX_DECISION_S = 5, 600
STANDARD_ROUNDS = 5
STANDARD_DECISION_S = 30
ROUND_CHOICES = tuple(range(MIN_ROUNDS, MAX_ROUNDS + 1, 2))


@dataclass(frozen=True, slots=True)
class Rules:
    rounds: int = STANDARD_ROUNDS
    quick: bool = False  # rounds only, no point totals
    decision_s: int = STANDARD_DECISION_S

    @property
    def decision_us(self) -> int:
        return self.decision_s * US

    def to_dict(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "quick": self.quick, "decision_s": self.decision_s}


STANDARD_RULES = Rules()

CONVENTIONS: tuple[Convention, ...] = (
    Convention("rounds", gettext_noop("Rounds"), "int", STANDARD_ROUNDS, MIN_ROUNDS, MAX_ROUNDS,
               choices=ROUND_CHOICES),
    Convention("quick", gettext_noop("Quick version: rounds only, no point totals"), "bool", False),
    Convention("decision_s", gettext_noop("Seconds per decision"), "int", STANDARD_DECISION_S,
               MIN_DECISION_S, MAX_DECISION_S, unit="seconds"),
)


def _whole(name: str, value: Any, low: int, high: int, what: str) -> int:
    """A whole number in [low, high]; 30.0 counts as 30, a boolean is not a number."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and (not math.isfinite(value) or value != int(value)))
    ):
        raise RulesError(f"{name} must be {what} from {low} to {high}, got {value!r}", name)
    number = int(value)
    if not low <= number <= high:
        raise RulesError(f"{name} must be {what} from {low} to {high}, got {value!r}", name)
    return number


def check_seats(seats: Any) -> int:
    return _whole("seats", seats, MIN_SEATS, MAX_SEATS, "a number of players")


def parse_rules(data: Any) -> Rules:
    """Rules from a JSON object (None or {}: the defaults; keys may be omitted)."""
    if data is None:
        return STANDARD_RULES
    if not isinstance(data, dict):
        raise RulesError("rules must be an object", problem="not_object")
    unknown = sorted(str(k) for k in data if k not in ("rounds", "quick", "decision_s"))
    if unknown:
        raise RulesError(f"unknown rule {unknown[0]!r} (rules are rounds, quick, decision_s)",
                         unknown[0], "unknown")
    rounds = STANDARD_ROUNDS
    if "rounds" in data:
        rounds = _whole("rounds", data["rounds"], MIN_ROUNDS, MAX_ROUNDS, "an odd number")
        if rounds % 2 == 0:
            raise RulesError(
                f"rounds must be an odd number from {MIN_ROUNDS} to {MAX_ROUNDS}, got {rounds}",
                "rounds")
    quick = data.get("quick", False)
    if not isinstance(quick, bool):
        raise RulesError(f"quick must be true or false, got {quick!r}", "quick")
    decision_s = STANDARD_DECISION_S
    if "decision_s" in data:
        decision_s = _whole("decision_s", data["decision_s"], MIN_DECISION_S, MAX_DECISION_S,
                            "a whole number of seconds")
    return Rules(rounds=rounds, quick=quick, decision_s=decision_s)
