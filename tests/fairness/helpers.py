"""Seeded matches played in process (games/play/services.py), for the fairness tests."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User

from games import registry
from games.models import Match
from games.play.services import do_command, do_create_match
from games.play.store import export_record, load_engine

JSON = dict[str, Any]

# Every registered game at each seat count it allows (kept short: two and four seats for
# Fives, one and three for the dice game).
TABLES = [(plugin.key, seats) for plugin in registry.all_games()
          for seats in sorted({min(plugin.seat_counts), max(plugin.seat_counts),
                               *(n for n in plugin.seat_counts if n == 3)})]


def players(count: int) -> list[User]:
    return [User.objects.create_user(f"p{i}-{random.getrandbits(32):x}") for i in range(count)]


def new_match(game: str, users: list[User], **kwargs: Any) -> Match:
    return do_create_match(*users, rated=False, game=game, **kwargs)


def play(match: Match, users: list[User], *, chances: int = 3, commands: int = 400,
         seed: int = 1) -> Match:
    """Computer moves for every seat until the match has made ``chances`` chance events
    (then every seat resigns in turn) or is over."""
    rng = random.Random(seed)
    plugin = registry.game(match.game)
    for _ in range(commands):
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.ACTIVE:
            return match
        engine = load_engine(match)
        if match.chances >= chances:
            for seat, user in enumerate(users):
                do_command(match.pk, user, {"action": {"seat": seat, "type": plugin.forfeit_action},
                                            "version": match.version})
            continue
        acted = False
        for seat, user in enumerate(users):
            action = plugin.bot_action(plugin.view(engine, seat), rng)
            if action is not None:
                do_command(match.pk, user, {"action": action, "version": match.version})
                acted = True
                break
        assert acted, "nobody could act"
    raise AssertionError("the match did not end")


def finished_record(game: str, seats: int, **kwargs: Any) -> JSON:
    users = players(seats)
    match = play(new_match(game, users), users, **kwargs)
    assert match.status != Match.Status.ACTIVE
    return export_record(match)
