"""How long a search may run: a number of iterations, or a deadline on the caller's clock.

The search never reads a clock itself: with a deadline, the caller passes ``now`` (a
callable returning the time on the same scale as the deadline), so that tests and
replays can drive time by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

DEFAULT_ITERATIONS = 200
# A search on a deadline stops early enough that its decision is made by then: two of its
# mean iterations before it (the one under way ends inside it), and a share of the time
# it has run for what follows the loop (its tree, one node an iteration, is freed as it
# returns: 0.25 ms after 100 ms at four seats of Fives). Without them the 95th percentile
# of a 100 ms decision was 100.5 ms there.
RESERVE_ITERATIONS = 2.0
RESERVE_SHARE = 0.01


@dataclass(slots=True)
class Budget:
    iterations: int | None = None
    deadline: float | None = None
    now: Callable[[], float] | None = None
    # When the search began (its first ``spent(0)``): the mean iteration is read from it.
    started: float | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.deadline is not None and self.now is None:
            raise ValueError("a deadline needs the caller's now()")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("a search needs at least one iteration")

    @classmethod
    def of(cls, iterations: int | None, deadline: float | None,
           now: Callable[[], float] | None) -> Budget:
        """The budget of ``choose``'s keywords; neither given: the default iterations."""
        if iterations is None and deadline is None:
            return cls(iterations=DEFAULT_ITERATIONS)
        return cls(iterations, deadline, now)

    def spent(self, done: int) -> bool:
        """Whether a search that has run ``done`` iterations must stop (one always runs).
        On a deadline: once the reserve (see ``RESERVE_ITERATIONS``) would pass it."""
        if done < 1:
            if self.now is not None and self.deadline is not None and self.started is None:
                self.started = self.now()
            return False
        if self.iterations is not None and done >= self.iterations:
            return True
        if self.deadline is None or self.now is None:
            return False
        now = self.now()
        if self.started is None:
            return now >= self.deadline
        ran = now - self.started
        return now + RESERVE_ITERATIONS * ran / done + RESERVE_SHARE * ran >= self.deadline

    def share(self, fraction: float, time_fraction: float | None = None) -> Budget:
        """A smaller budget: a fraction of the iterations, and of the time left
        (``time_fraction`` when given: a search whose iterations cost less than another's
        gets less of the time for the same share of its iterations)."""
        iterations = None if self.iterations is None else max(1, int(self.iterations * fraction))
        if self.deadline is None or self.now is None:
            return Budget(iterations)
        start = self.now()
        of_time = fraction if time_fraction is None else time_fraction
        return Budget(iterations, start + (self.deadline - start) * of_time, self.now)
