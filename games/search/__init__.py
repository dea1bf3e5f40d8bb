"""One search for every registered game, through the game protocol (pure Python).

Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012, the
single-observer variant, SO-ISMCTS) over determinizations, with max-n rewards so that
every seat of a 2- to 6-seat table picks its own best; and computer-player levels built
on it (``levels``). No Django, no clock reads, no randomness of its own: a
``random.Random`` and a budget (iterations, or a deadline with the caller's ``now()``)
are passed in.
"""

from __future__ import annotations

from .budget import Budget
from .ismcts import ActionStats, choose, evaluate

__all__ = ["ActionStats", "Budget", "choose", "evaluate"]
