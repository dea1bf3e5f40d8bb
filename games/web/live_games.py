"""The lobby's "Live games": matches being played now, to watch with one click.

``GET /api/live``: how many players are online, and the latest active matches (not the
private one-device games), each with its players and spectators (games/live/presence.py).
One query through the ``(status, -created_at)`` index, at most ``LIMIT`` rows, and one
Redis round trip for all the spectator counts.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games import registry
from games.live import presence
from games.models import Match
from games.reads.history import decorate
from games.web.api import api_view

log = logging.getLogger(__name__)
LIMIT = 20


def live_matches() -> list[Match]:
    rows = (Match.objects.filter(status=Match.Status.ACTIVE, one_device=False)
            .only("id", "game", "seat_count", "rated", "created_at", "one_device", "status")
            .order_by("-created_at")[:LIMIT])
    return decorate(list(rows))


def _game_name(key: str) -> str:
    try:
        return _(registry.game(key).name)
    except registry.UnknownGame:
        return key


def live_rows(matches: list[Match]) -> list[dict[str, Any]]:
    ids = [str(match.pk) for match in matches]
    try:
        watching = presence.spectator_counts(ids)
    except Exception:  # Redis away a moment: the list without its counts
        log.warning("spectator counts not read", exc_info=True)
        watching = {}
    return [{
        "id": str(match.pk),
        "game": match.game,
        "game_name": _game_name(match.game),
        "players": [seat.name for seat in match.shown_seats],  # type: ignore[attr-defined]
        "rated": match.rated,
        "spectators": watching.get(str(match.pk)),
        "url": f"/matches/{match.pk}/",
    } for match in matches]


def online_now() -> int | None:
    try:
        return presence.online_count()
    except Exception:  # Redis away: no count shown
        log.warning("online count not read", exc_info=True)
        return None


@api_view(["GET"])
def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"online": online_now(), "matches": live_rows(live_matches())})
