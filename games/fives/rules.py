"""The table conventions of Fives with the cross (fives.md, "Table conventions").

Chosen: cross, full record, time per player for the whole game, target, players.
Fixed (always off in this room, shown and not implemented): double playable from
both sides, first move into a double, full fish, rule 13, bonuses for 6-6 and 0-0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from games.engine.plugin import Convention, RulesError, gettext_noop

US = 1_000_000  # microseconds in a second

SEAT_COUNTS = (2, 4)
TARGETS = (100, 250, 500)
DEFAULT_TIME_S = 900  # 15 minutes per player for the whole game
MIN_TIME_S = 1
MAX_TIME_S = 86_400

FIXED_OFF: dict[str, str] = {
    "double_both_sides": gettext_noop("Double playable from both sides"),
    "first_move_into_double": gettext_noop("First move into a double"),
    "full_fish": gettext_noop("Full fish"),
    "rule_13": gettext_noop("Rule 13"),
    "bonus_66_00": gettext_noop("Bonuses for 6-6 and 0-0"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    cross: bool = False
    full_record: bool = False
    time_s: int = DEFAULT_TIME_S
    target: int = 250

    @property
    def time_us(self) -> int:
        return self.time_s * US

    def to_dict(self) -> dict[str, Any]:
        """The record's ``rules`` object (always all four keys)."""
        return {
            "cross": self.cross,
            "full_record": self.full_record,
            "time_s": self.time_s,
            "target": self.target,
        }


DEFAULT_RULES = Rules()


def conventions() -> list[Convention]:
    chosen = [
        Convention("cross", gettext_noop("Cross"), "bool", False),
        Convention("full_record", gettext_noop("Full record"), "bool", False),
        Convention("time_s", gettext_noop("Time per player for the whole game (minutes)"), "int",
                   DEFAULT_TIME_S, minimum=MIN_TIME_S, maximum=MAX_TIME_S, unit="seconds",
                   asked_in="minutes"),
        Convention("target", gettext_noop("Game to (points)"), "int", 250, choices=TARGETS),
        Convention("players", gettext_noop("Players"), "int", 2, choices=SEAT_COUNTS),
    ]
    fixed = [Convention(key, label, "bool", False, fixed=True) for key, label in FIXED_OFF.items()]
    return chosen + fixed


def _boolean(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"convention {name!r} must be true or false", name)
    return value


def _whole(name: str, value: Any, what: str) -> int:
    """A whole number (an int, or a float with no fraction); never a boolean, NaN or inf."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RulesError(f"convention {name!r} must be {what}", name)
    if isinstance(value, float) and (not math.isfinite(value) or value != int(value)):
        raise RulesError(f"convention {name!r} must be {what}", name)
    return int(value)


def check_seats(seats: Any) -> int:
    if isinstance(seats, bool) or not isinstance(seats, int) or seats not in SEAT_COUNTS:
        raise RulesError(f"convention 'players' must be 2 or 4, got {seats!r}", "players",
                         "seats")
    return seats


def parse_rules(data: Any, seats: int) -> Rules:
    """Rules from a JSON object (None: the defaults), checked strictly.

    ``players`` may be present only when it equals ``seats``; a fixed convention may be
    present only as false.
    """
    check_seats(seats)
    if data is None:
        return DEFAULT_RULES
    if not isinstance(data, dict):
        raise RulesError("rules must be an object", problem="not_object")
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name in ("cross", "full_record"):
            values[name] = _boolean(name, value)
        elif name == "time_s":
            time_s = _whole(name, value, f"a whole number of seconds from {MIN_TIME_S} "
                                         f"to {MAX_TIME_S}")
            if not MIN_TIME_S <= time_s <= MAX_TIME_S:
                raise RulesError(f"convention 'time_s' must be from {MIN_TIME_S} to "
                                 f"{MAX_TIME_S} seconds, got {value!r}", name)
            values[name] = time_s
        elif name == "target":
            target = _whole(name, value, "one of 100, 250, 500")
            if target not in TARGETS:
                raise RulesError(f"convention 'target' must be one of 100, 250, 500, "
                                 f"got {value!r}", name)
            values[name] = target
        elif name == "players":
            if _whole(name, value, "2 or 4") != seats:
                raise RulesError(f"convention 'players' is {value!r} but the table has "
                                 f"{seats} seats (2 or 4)", name, "seats")
        elif name in FIXED_OFF:
            if _boolean(name, value):
                raise RulesError(f"convention {name!r} is always off in this room (false only)",
                                 name, "fixed")
        else:
            raise RulesError(f"unknown convention {name!r}", str(name), "unknown")
    return Rules(**values)


def rated_allows(rules: Rules) -> bool:
    """Rated games may choose cross, full record and target, but play the default time,
    so that ratings compare games under one clock."""
    return rules.time_s == DEFAULT_TIME_S
