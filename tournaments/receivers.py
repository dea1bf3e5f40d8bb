"""An arena pairs a player again the moment a game ends, not at the next tick: after
the finished match commits, its arena advances (results recorded, whoever waits paired)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.signals import match_finished

from .lifecycle import advance
from .models import Tournament, TournamentGame

log = logging.getLogger(__name__)


@receiver(match_finished, dispatch_uid="tournaments.receivers.arena_game_over")
def arena_game_over(sender: Any, match: Any, **kwargs: Any) -> None:
    tournament_id = (TournamentGame.objects
                     .filter(match_id=match.pk, tournament__format=Tournament.Format.ARENA,
                             tournament__status=Tournament.Status.RUNNING)
                     .values_list("tournament_id", flat=True).first())
    if tournament_id is not None:
        transaction.on_commit(lambda: _advance(tournament_id))


def _advance(tournament_id: int) -> None:
    try:
        advance(tournament_id)
    except Exception:  # the game's own request must not fail for the arena's sake
        log.exception("arena %s could not advance after a game", tournament_id)
