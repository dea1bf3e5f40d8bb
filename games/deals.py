"""Where chance comes from: the OS's randomness, drawn by the server for each deal or roll.

Each game draws its own outcome (``GamePlugin.sample_chance``) from the generator given
here. Tests may fix it with TEST_FIXED_DEALS=true and TEST_DEALS_SEED: the n-th chance
outcome of a match then comes from the seed and n (settings refuse this when DEBUG is
off, so it cannot be enabled in production).
"""

from __future__ import annotations

import random
import secrets

from django.conf import settings

_system = secrets.SystemRandom()


def chance_rng(match_id: object, n: int) -> random.Random:
    """The generator for a match's ``n``-th chance outcome (0-based)."""
    if settings.TEST_FIXED_DEALS:
        return random.Random(f"{settings.TEST_DEALS_SEED}:{n}")
    return _system
