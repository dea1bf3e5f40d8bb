"""Telling players at once, on any page they have open: the ``/ws/notifications/`` socket.

Every logged-in page joins its user's group (``NotificationConsumer``); a message to the
group reaches each of the user's pages (games/live/notices.py). Messages are sent once
the change commits, so a player is never sent to a match that was rolled back. The text
is the page's own (in the reader's language): a message carries only what happened and
where. A page drops its "Play now" banner when told that the match is over
(``tournament_match_over``), the tournament has ended (``tournament_over``), or, on
(re)connecting, that the match is no longer among those waiting (``tournament_waiting``).
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from games.live.notices import send_after_commit, user_group

from .models import Tournament, TournamentGame

__all__ = ["game_ready", "notice_of", "pending_for", "send_after_commit", "user_group",
           "waiting_of"]


def notice_of(row: TournamentGame) -> dict[str, Any]:
    """What a player is told about their game of a round: a match to play, or a bye."""
    tournament = row.tournament
    notice: dict[str, Any] = {
        "type": "tournament_bye" if row.match_id is None else "tournament_match",
        "tournament": tournament.pk,
        "tournament_name": tournament.name,
        "tournament_url": f"/tournaments/{tournament.pk}/",
        "round": row.round.number,
    }
    if row.match_id is not None:
        notice["match"] = str(row.match_id)
        notice["url"] = f"/matches/{row.match_id}/"
    return notice


def game_ready(row: TournamentGame) -> None:
    """The players of a new match (or the player with a bye) are told."""
    send_after_commit(row.seats(), notice_of(row))


def pending_for(user_id: int) -> list[dict[str, Any]]:
    """The tournament matches this player has to play now (shown when a page opens)."""
    rows = TournamentGame.objects.being_played_by(user_id)
    return [notice_of(row) for row in rows.select_related("tournament", "round")[:10]]


def waiting_of(pending: list[dict[str, Any]]) -> dict[str, Any]:
    """Sent after the pending notices on connect: every tournament match still waiting."""
    return {"type": "tournament_waiting",
            "matches": [notice["match"] for notice in pending if "match" in notice]}


@receiver(post_save, sender=TournamentGame, dispatch_uid="tournaments.notify.game_over")
def _game_over(sender: Any, instance: TournamentGame, update_fields: Any = None,
               **kwargs: Any) -> None:
    """A game of a round got its result (or is replayed): its banner goes."""
    if instance.match_id is None or instance.state == TournamentGame.State.PLAYING:
        return
    if update_fields is not None and "state" not in update_fields:
        return
    if instance.state not in (TournamentGame.State.DONE, TournamentGame.State.REPLACED):
        return
    send_after_commit(instance.seats(), {"type": "tournament_match_over",
                                         "tournament": instance.tournament_id,
                                         "match": str(instance.match_id)})


@receiver(post_save, sender=Tournament, dispatch_uid="tournaments.notify.tournament_over")
def _tournament_over(sender: Any, instance: Tournament, update_fields: Any = None,
                     **kwargs: Any) -> None:
    if instance.status not in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return
    if update_fields is not None and "status" not in update_fields:
        return
    players = list(instance.entries.values_list("user_id", flat=True))
    send_after_commit(players, {"type": "tournament_over", "tournament": instance.pk})
