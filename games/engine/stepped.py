"""What every game's state does around its own rules: collect the steps of one call.

An ``advance``, an ``apply`` or an ``annul`` gathers the steps the game emits into a
fresh list (``_steps``) and returns it; a late action lets time pass first and is not
applied when that ended the game; an annulment ends a game with no result, and only
relabels a game that had already ended. Each game supplies its checks and transitions.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable

from .protocol import GameState, Illegal, Outcome, Result, Step, gettext_noop

ANNULLED = "annulled"


class SteppedState(GameState):
    """A game state whose calls emit steps into ``_steps`` (see the module)."""

    # What an action after the end is told (Spectacular Bid says "match").
    over_reason: str = gettext_noop("the game is over")
    _result: Result | None
    _steps: list[Step]

    @property
    def result(self) -> Result | None:
        return self._result

    def _collect(self, run: Callable[[int], None], now_us: int) -> list[Step]:
        steps: list[Step] = []
        self._steps = steps
        run(now_us)
        self._steps = []
        return steps

    def advance(self, now_us: int) -> list[Step]:
        return self._collect(self._advance, now_us)

    def apply(self, seat: int, action: int, now_us: int) -> Outcome | Illegal:
        if self._result is not None:
            return Illegal(self.over_reason)
        steps: list[Step] = []
        self._steps = steps
        try:
            if self._late(now_us):
                # Time events first; the action is then judged in the new position.
                self._advance(now_us)
                if self._result is not None:
                    return Outcome(applied=False, steps=steps)
            refusal = self._check(seat, action)
            if refusal is not None:
                return Illegal(refusal)
            self._do(seat, action, now_us)
            return Outcome(applied=True, steps=steps)
        finally:
            self._steps = []

    def annul(self, now_us: int) -> list[Step]:
        """No result, no rating change: the service could not keep time reliably, or
        staff annulled the game (also after it ended)."""
        if self._result is not None:
            if self._result.reason != ANNULLED:
                self._result = Result(None, ANNULLED)
                self._annulled_after_end()
            return []
        return self._collect(self._annul, now_us)

    def _annulled_after_end(self) -> None:
        """What else an annulment changes in a game that had already ended."""

    @abstractmethod
    def _advance(self, now_us: int) -> None:
        """Let time pass to ``now_us``, emitting its steps."""

    @abstractmethod
    def _late(self, now_us: int) -> bool:
        """True when time events are due before an action received at ``now_us``."""

    @abstractmethod
    def _check(self, seat: int, action: int) -> str | None:
        """Why ``action`` is refused now, or None when it is legal."""

    @abstractmethod
    def _do(self, seat: int, action: int, now_us: int) -> None:
        """Apply a legal action, emitting its steps."""

    @abstractmethod
    def _annul(self, now_us: int) -> None:
        """End a running game with no result, emitting the annulment."""
