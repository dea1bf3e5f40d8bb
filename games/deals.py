"""Where deals come from: a fresh shuffle from the OS's randomness.

Tests may fix the deals with TEST_FIXED_DEALS=true and TEST_DEALS_SEED (settings
refuse this when DEBUG is off, so it cannot be enabled in production).
"""

from __future__ import annotations

import random
import secrets

from django.conf import settings

from games.spectacular_bid.state import BONEYARD_SIZE, HAND_SIZE, Deal

_system = secrets.SystemRandom()


def deal_from_order(tiles: list[int]) -> Deal:
    return Deal(
        (tiles[:HAND_SIZE], tiles[HAND_SIZE : 2 * HAND_SIZE]),
        tiles[2 * HAND_SIZE : 2 * HAND_SIZE + BONEYARD_SIZE],
    )


def next_deal(match_id: object, hand_no: int) -> Deal:
    tiles = list(range(28))
    if settings.TEST_FIXED_DEALS:
        seed = f"{settings.TEST_DEALS_SEED}:{hand_no}"
        random.Random(seed).shuffle(tiles)
    else:
        _system.shuffle(tiles)
    return deal_from_order(tiles)
