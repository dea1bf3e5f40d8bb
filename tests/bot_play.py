"""Matches played to the end by each seat's computer player, through ``do_command`` (the
path a command from a client takes)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User

from games.models import Match
from games.play.services import do_command
from games.play.store import load_engine, plugin_of

SeatUser = Callable[[Match, int], User | None]  # who plays a seat (None: nobody now)


def play_bots(match: Match, user_of: SeatUser, seed: int, limit: int, wait: bool) -> Match:
    """Each seat with a user plays its game's computer player until the match ends. When
    nobody can act: the match as it stands (``wait``), or an AssertionError."""
    rng = random.Random(seed)
    plugin = plugin_of(match)
    for _ in range(limit):
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.Status.ACTIVE:
            return current
        if not _bot_move(current, plugin, rng, user_of):
            assert wait, "nobody could act"
            return current  # waiting for an absent player
    raise AssertionError("the match did not end")


def _bot_move(current: Match, plugin: Any, rng: random.Random, user_of: SeatUser) -> bool:
    """The first seat with a move makes it; False when there is none."""
    engine = load_engine(current)
    for seat in range(len(current.seat_users)):
        user = user_of(current, seat)
        if user is None:
            continue
        action = plugin.bot_action(plugin.view(engine, seat), rng)
        if action is None:
            continue
        result = do_command(current.pk, user, {"action": action, "version": current.version})
        assert result.ok, (action, result)
        return True
    return False
