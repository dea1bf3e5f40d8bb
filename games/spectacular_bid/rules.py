"""The numbers of a Spectacular Bid table (spec §1, §6, §7)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

US = 1_000_000  # microseconds in a second
STANDARD_GRACE_S = 60


class RulesError(ValueError):
    """Table settings that cannot make a game."""


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
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RulesError("rules must be an object")
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise RulesError(f"unknown rule {unknown[0]!r}")
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name == "one_device":
                if not isinstance(value, bool):
                    raise RulesError("rule 'one_device' must be true or false")
            elif isinstance(value, bool) or not isinstance(value, (int, float)):
                raise RulesError(f"rule {name!r} must be a number")
            elif name in ("start_points", "min_bid", "bid_step", "jockey_discount"):
                if value != int(value):
                    raise RulesError(f"rule {name!r} must be a whole number")
                value = int(value)
            values[name] = value
        rules = cls(**values)
        rules.check()
        return rules

    def check(self) -> None:
        if self.start_points <= 0 or self.start_points % 5:
            raise RulesError("start_points must be a positive multiple of 5")
        if self.min_bid <= 0 or self.min_bid % 5:
            raise RulesError("min_bid must be a positive multiple of 5")
        if self.bid_step <= 0 or self.bid_step % 5:
            raise RulesError("bid_step must be a positive multiple of 5")
        if self.jockey_discount < 0:
            raise RulesError("jockey_discount must not be negative")
        if self.bank_s < 0 or self.delay_s < 0 or self.grace_s < 0:
            raise RulesError("times must not be negative")

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
