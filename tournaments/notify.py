"""Telling players at once, on any page they have open: the ``/ws/notifications/`` socket.

Every logged-in page joins its user's group (``NotificationConsumer``); a message to the
group reaches each of the user's pages. Messages are sent once the change commits, so a
player is never sent to a match that was rolled back. The text is the page's own (in
the reader's language): a message carries only what happened and where.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Q

from .models import TournamentGame


def user_group(user_id: Any) -> str:
    return f"notify.user.{user_id}"


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


def send_after_commit(user_ids: list[int], notice: dict[str, Any]) -> None:
    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        for user_id in user_ids:
            async_to_sync(layer.group_send)(user_group(user_id),
                                            {"type": "tournament.notice", "notice": notice})

    transaction.on_commit(send)


def game_ready(row: TournamentGame) -> None:
    """Both players of a new match (or the player with a bye) are told."""
    send_after_commit(row.seats(), notice_of(row))


def pending_for(user_id: int) -> list[dict[str, Any]]:
    """The tournament matches this player has to play now (shown when a page opens)."""
    rows = TournamentGame.objects.filter(Q(seat0_id=user_id) | Q(seat1_id=user_id),
                                         state=TournamentGame.State.PLAYING,
                                         match__status="active")
    return [notice_of(row) for row in rows.select_related("tournament", "round")[:10]]
