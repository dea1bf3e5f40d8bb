"""The numbers of a Spectacular Bid table (spec §1, §6, §7).

Every convention has a range (``RANGES``), so that whatever a table is given can be
played, stored and broadcast: no huge numbers, no NaN or infinity, no booleans for numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from games.engine.plugin import Convention, RulesError, gettext_noop

US = 1_000_000  # microseconds in a second
STANDARD_GRACE_S = 60


@dataclass(frozen=True, slots=True)
class Range:
    """What one convention may be: a flag, a whole number of points or a number of seconds."""

    kind: str  # "bool" | "points" (whole, a multiple of ``step``) | "seconds"
    low: int = 0
    high: int = 0
    step: int = 1

    def describe(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "points":
            return f"a multiple of {self.step} from {self.low} to {self.high}"
        return f"a number of seconds from {self.low} to {self.high}"

    def admits(self, value: Any) -> bool:
        if self.kind == "bool":
            return isinstance(value, bool)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if isinstance(value, float) and not math.isfinite(value):
            return False  # (math.isfinite cannot take an int beyond a double's range)
        if not self.low <= value <= self.high:
            return False
        if self.kind == "points":
            return value == int(value) and int(value) % self.step == 0
        return True


# Points are multiples of 5 like every score and bid (spec §1, §6); a day of bank and an
# hour of delay or grace are far beyond any real table, and keep microseconds in 64 bits.
RANGES: dict[str, Range] = {
    "start_points": Range("points", 5, 10_000, 5),
    "bank_s": Range("seconds", 0, 86_400),
    "delay_s": Range("seconds", 0, 3_600),
    "min_bid": Range("points", 5, 10_000, 5),
    "bid_step": Range("points", 5, 10_000, 5),
    "jockey_discount": Range("points", 0, 10_000, 5),
    "grace_s": Range("seconds", 1, 3_600),
    "one_device": Range("bool"),
}


def convention(key: str, label: str = "", default: Any = None) -> Convention:
    """A convention as the platform describes it, with its range from ``RANGES``."""
    bounds = RANGES[key]
    if bounds.kind == "bool":
        return Convention(key, label or key, "bool", default)
    if bounds.kind == "points":
        return Convention(key, label or key, "int", default, bounds.low, bounds.high,
                          step=bounds.step)
    return Convention(key, label or key, "float", default, bounds.low, bounds.high,
                      unit="seconds")


def table_conventions() -> list[Convention]:
    """The conventions a table chooses (the lobby's form, the rules page)."""
    return [
        convention("start_points", gettext_noop("Starting points"), 150),
        convention("bank_s", gettext_noop("Time bank (s)"), 120),
        convention("delay_s", gettext_noop("Delay per decision (s)"), 10),
        convention("min_bid", gettext_noop("Lowest bid"), 15),
        convention("bid_step", gettext_noop("Raise step"), 5),
        convention("jockey_discount", gettext_noop("Jockey discount"), 15),
    ]


def record_conventions() -> list[Convention]:
    """Every key a record's ``rules`` may hold: the table's, the grace period before a
    hand starts anyway, and the one-device flag."""
    return [*table_conventions(),
            convention("grace_s", "Seconds before a dealt hand starts anyway", STANDARD_GRACE_S),
            convention("one_device", "One device passed between the players", False)]


def _out_of_range(name: str) -> RulesError:
    return RulesError(f"rule {name!r} must be {RANGES[name].describe()}", name,
                      convention=convention(name))


@dataclass(frozen=True, slots=True)
class Rules:
    start_points: int = 150
    bank_s: float = 120
    delay_s: float = 10
    min_bid: int = 15
    bid_step: int = 5
    jockey_discount: int = 15
    # Platform additions (spec §8): how long a Continue may wait before it counts as
    # pressed, and whether two people share one screen.
    grace_s: float = STANDARD_GRACE_S
    one_device: bool = False

    @property
    def bank_us(self) -> int:
        return round(self.bank_s * US)

    @property
    def delay_us(self) -> int:
        return round(self.delay_s * US)

    @property
    def grace_us(self) -> int:
        return round(self.grace_s * US)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from a JSON object (None: the standard ones); RulesError names the first
        convention that is unknown or out of its range."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesError("rules must be an object", problem="not_object")
        unknown = sorted(str(name) for name in data if name not in RANGES)
        if unknown:
            raise RulesError(f"unknown rule {unknown[0]!r}", unknown[0], "unknown")
        values: dict[str, Any] = {}
        for name in RANGES:  # a fixed order: the same input names the same rule
            if name not in data:
                continue
            value = data[name]
            if not RANGES[name].admits(value):
                raise _out_of_range(name)
            values[name] = int(value) if RANGES[name].kind == "points" else value
        rules = cls(**values)
        rules.check()
        return rules

    def check(self) -> None:
        """RulesError unless every convention is within its range."""
        for field in fields(self):
            if not RANGES[field.name].admits(getattr(self, field.name)):
                raise _out_of_range(field.name)

    def to_dict(self) -> dict[str, Any]:
        # The fields are plain numbers and flags: no deep copy needed (asdict makes one,
        # and every view of every move asks for this).
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def record_dict(self) -> dict[str, Any]:
        """The record's ``rules`` object: the six standard keys, plus any addition in use."""
        data = self.to_dict()
        if data["grace_s"] == STANDARD_GRACE_S:
            del data["grace_s"]
        if not data["one_device"]:
            del data["one_device"]
        return data


STANDARD_RULES = Rules()
