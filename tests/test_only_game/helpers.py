"""Playing Hidden Nim on the platform for the tests of this folder."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User

from games import registry
from games.models import Match
from games.play.services import do_command
from games.play.store import load_engine

KEY = "hidden-nim"


def plugin() -> Any:
    return registry.game(KEY)


def users(*names: str) -> list[User]:
    return [User.objects.create_user(name) for name in names]


def play_out(match: Match, seat_users: list[User], seed: int = 1, limit: int = 200) -> Match:
    """Each seat plays the game's computer player through ``do_command``; every view
    along the way hides the other seat's bonus."""
    rng = random.Random(seed)
    game = plugin()
    for _ in range(limit):
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.Status.ACTIVE:
            return current
        engine = load_engine(current)
        acted = False
        for seat, user in enumerate(seat_users):
            view = game.view(engine, seat)
            assert view["bonuses"][1 - seat] is None, view  # the other's bonus is secret
            action = game.bot_action(view, rng)
            if action is None:
                continue
            result = do_command(current.pk, user, {"action": action, "version": current.version})
            assert result.ok, (action, result)
            acted = True
            break
        assert acted, "nobody could act"
    raise AssertionError("the match did not end")
