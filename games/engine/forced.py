"""Forced actions in a record: the engine applies them itself, the record may list them.

A replay applies a record's actions one by one. Some actions the engine takes on its own
(a pass when a player can neither play nor draw); a record may list them or leave them
out. ``ForcedActions`` holds those the engine applied since the record's last listed
action, so that a listed one is skipped instead of being applied twice.
"""

from __future__ import annotations


class ForcedActions:
    def __init__(self) -> None:
        self._pending: list[tuple[int | None, int]] = []

    def add(self, seat: int | None, code: int) -> None:
        self._pending.append((seat, code))

    def clear(self) -> None:
        self._pending.clear()

    def listed(self, seat: int | None, code: int) -> bool:
        """Whether the record's action is a forced one the engine already applied. Each
        may be listed or omitted: those before it are dropped too."""
        if (seat, code) not in self._pending:
            return False
        del self._pending[: self._pending.index((seat, code)) + 1]
        return True
