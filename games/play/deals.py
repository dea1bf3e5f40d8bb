"""Where a match's chance comes from: committed seeds (``games/engine/fairness.py``).

A new match gets a secret server seed (32 bytes from ``secrets``) and shows its SHA-256
from the start. Each seated player may send a seed of their own until the first chance
event, which waits for them (at most ``FAIR_SEED_WAIT_S`` seconds); a seat that sent
none counts as the empty string. Every deal and roll is then derived from the seeds,
and the server seed is revealed once the match is over, so that anybody can recompute
them (``manage.py verify_deals``, the replay page).

Matches from before seeded deals have no seeds: their chance comes from the OS, as it did.
Tests may fix chance with TEST_FIXED_DEALS=true and TEST_DEALS_SEED: the n-th chance
outcome of a match then comes from the seed and n, and the match has no seeds (settings
refuse this when DEBUG is off, so it cannot be enabled in production).
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from games.engine.fairness import (
    ALGORITHM,
    MAX_PLAYER_SEED,
    SEED_BYTES,
    DerivedChance,
    Fairness,
    commitment,
)
from games.engine.protocol import ChanceSource
from games.models import Match

_system = secrets.SystemRandom()


class SeedError(ValueError):
    """A player's seed that cannot be taken; the message is for the sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def seed_new_match(match: Match) -> None:
    """Draw the server seed of a new match (before it is first saved) and open the window
    in which its players may send theirs."""
    if settings.TEST_FIXED_DEALS:
        return
    seed = secrets.token_bytes(SEED_BYTES)
    match.fair_algorithm = ALGORITHM
    match.fair_server_seed = seed.hex()
    match.fair_commitment = commitment(seed)
    match.fair_player_seeds = [None] * match.seat_count
    match.fair_seeds_until = match.started_wall + float(settings.FAIR_SEED_WAIT_S)


def is_seeded(match: Match) -> bool:
    return bool(match.fair_server_seed)


def chance_source(match: Match) -> ChanceSource:
    """The source of the match's next chance outcome (number ``match.chances``)."""
    if is_seeded(match):
        return DerivedChance(bytes.fromhex(match.fair_server_seed), player_seeds(match),
                             str(match.pk), match.chances)
    if settings.TEST_FIXED_DEALS:
        return random.Random(f"{settings.TEST_DEALS_SEED}:{match.chances}")
    return _system


def player_seeds(match: Match) -> list[str]:
    """Each seat's seed as the derivation reads it: a seat that sent none, the empty string."""
    return ["" if seed is None else str(seed) for seed in match.fair_player_seeds]


def waits_for_seeds(match: Match, now_wall: float) -> bool:
    """Whether the first chance event still waits: a seat has not sent its seed and the
    window has not closed."""
    if not is_seeded(match) or match.chances > 0 or match.fair_seeds_until is None:
        return False
    if all(seed is not None for seed in match.fair_player_seeds):
        return False
    return now_wall < match.fair_seeds_until


def check_seed(match: Match, seats: list[int], seed: Any) -> str:
    """The seed ``seats``' player sends, checked; SeedError says why it is refused."""
    if not seats:
        raise SeedError("forbidden", _("Only a player of this match may send a seed."))
    if not isinstance(seed, str) or len(seed) > MAX_PLAYER_SEED:
        raise SeedError("bad_request", _("A seed is a string of at most %(n)d characters.")
                        % {"n": MAX_PLAYER_SEED})
    if match.status != Match.Status.ACTIVE:
        raise SeedError("over", _("The match is over."))
    if not is_seeded(match):
        raise SeedError("unavailable", _("This match's chance is not seeded."))
    if match.chances > 0:
        raise SeedError("too_late", _("Too late: the first deal or roll has been made; "
                                      "seeds count only before it."))
    return seed


def public(match: Match) -> dict[str, Any] | None:
    """What everybody may see of the seeds (the match header): the commitment and the
    players' seeds at once, the server seed only once the match is over."""
    block = record_block(match)
    if block is None:
        return None
    return {
        "algorithm": block.algorithm,
        "commitment": block.commitment,
        "server_seed": block.server_seed,
        "player_seeds": list(match.fair_player_seeds),  # None: not sent (yet)
        "seeds_open": block.server_seed is None and match.chances == 0,
        "seeds_until": match.fair_seeds_until,
    }


def record_block(match: Match) -> Fairness | None:
    """The record's ``fairness`` object (the server seed only once the match is over)."""
    if not is_seeded(match):
        return None
    over = match.status != Match.Status.ACTIVE
    return Fairness(match.fair_algorithm, str(match.pk), match.fair_commitment,
                    match.fair_server_seed if over else None, player_seeds(match))
