"""A short strength smoke test: hard beats easy clearly over duplicate matches.

Fives for two to 100 points (about three hands a match), a fixed budget of iterations so
that the result does not depend on the machine's speed (everything is seeded, so the run
is the same each time): 8 duplicate pairs, 16 matches, in under a minute. The full
benchmark, at a time per decision, is ``bench/bots.py``.
"""

from __future__ import annotations

import argparse

from bench.bots import run_pairing
from games import registry

PAIRS = 8
ITERATIONS = 200


def test_hard_beats_easy_at_fives() -> None:
    args = argparse.Namespace(pairs=PAIRS, iterations=ITERATIONS, move_ms=0.0, seed=11)
    tally = run_pairing(registry.game("fives"), 2, "hard", "easy", args)
    assert tally.matches == 2 * PAIRS
    assert tally.wins / tally.matches >= 0.6, tally
    assert tally.margin > 0, tally
