"""The match clock as arithmetic on times passed in (microseconds).

Each seat has a bank for the whole match. Every new decision gets a fresh delay
that is spent before the bank. A decision started at ``s`` with delay ``d`` by a
seat with bank ``b`` has its deadline at ``s + d + b``; a command received at or
after the deadline is too late. With delay 0 this is a plain per-player clock
(Fives); with bank 0 it is a fixed limit per decision (dice).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class MatchClock:
    banks_us: list[int]
    delay_us: int
    running: int | None = None
    started_us: int = 0
    period_delay_us: int = 0

    @classmethod
    def for_seats(cls, seats: int, bank_us: int, delay_us: int) -> MatchClock:
        return cls(banks_us=[bank_us] * seats, delay_us=delay_us)

    def start(self, seat: int, now_us: int) -> None:
        """Start ``seat``'s clock for a new decision, with a fresh delay."""
        self.running = seat
        self.started_us = now_us
        self.period_delay_us = self.delay_us

    def stop(self, now_us: int) -> int:
        """Stop the running clock at ``now_us``; returns the bank it used."""
        seat = self.running
        if seat is None:
            return 0
        used = min(self.banks_us[seat], max(0, now_us - self.started_us - self.period_delay_us))
        self.banks_us[seat] -= used
        self.running = None
        return used

    def deadline_us(self) -> int | None:
        if self.running is None:
            return None
        return self.started_us + self.period_delay_us + self.banks_us[self.running]

    def is_late(self, now_us: int) -> bool:
        """At the deadline instant the player has already lost on time."""
        deadline = self.deadline_us()
        return deadline is not None and now_us >= deadline

    def flag(self) -> int | None:
        """Stop the running clock at its deadline, bank spent; returns the flagged seat."""
        seat = self.running
        if seat is not None:
            self.banks_us[seat] = 0
            self.running = None
        return seat

    def remaining(self, seat: int, now_us: int) -> tuple[int, int]:
        """(delay left, bank left) for ``seat`` at ``now_us``."""
        bank = self.banks_us[seat]
        if self.running != seat:
            return (0, bank)
        elapsed = max(0, now_us - self.started_us)
        delay_left = max(0, self.period_delay_us - elapsed)
        over = max(0, elapsed - self.period_delay_us)
        return (delay_left, max(0, bank - over))

    def copy(self) -> MatchClock:
        return MatchClock(list(self.banks_us), self.delay_us, self.running, self.started_us,
                          self.period_delay_us)
