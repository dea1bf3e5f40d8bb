"""Pages for what players come back for: leaderboard, profiles, history, replays."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.spectacular_bid.frames import frames
from games.spectacular_bid.record import RecordError, loads, parse
from ratings.elo import PROVISIONAL_MATCHES
from ratings.models import Rating

from .history import HistoryFilter, history, player_stats
from .models import Match
from .store import export_record

PAGE_SIZE = 25
MAX_UPLOAD_BYTES = 2_000_000


def _date(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


def leaderboard(request: HttpRequest) -> HttpResponse:
    ratings = (Rating.objects.filter(game="spectacular-bid", games__gte=PROVISIONAL_MATCHES)
               .select_related("user", "user__profile").order_by("-rating", "user__username"))
    page = Paginator(ratings, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "games/leaderboard.html", {"page": page,
                                                      "first_rank": page.start_index()})


def _history_page(request: HttpRequest, player: Any | None) -> HttpResponse:
    filters = HistoryFilter(
        player=player,
        opponent=request.GET.get("opponent", "").strip(),
        result=request.GET.get("result", "") if player is not None else "",
        rated=request.GET.get("rated", ""),
        since=_date(request.GET.get("since")),
        until=_date(request.GET.get("until")),
    )
    page = Paginator(history(filters), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "games/history.html", {
        "page": page, "player": player, "filters": filters, "query": query.urlencode(),
    })


def history_all(request: HttpRequest) -> HttpResponse:
    return _history_page(request, None)


def history_player(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username)
    return _history_page(request, player)


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username)
    stats = player_stats(player)
    recent = history(HistoryFilter(player=player))[:10]
    return render(request, "games/profile.html", {
        "player": player, "stats": stats, "recent": recent,
        "chart_json": json.dumps(stats["rating_chart"]),
    })


def replay_page(request: HttpRequest, match_id: Any) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("seat0", "seat1"), pk=match_id)
    if match.status == Match.Status.ACTIVE:
        raise Http404(_("The replay is available once the match is over."))
    return render(request, "games/replay.html", {"match": match,
                                                 "frames_url": f"/api/matches/{match.pk}/frames"})


def replay_upload_page(request: HttpRequest) -> HttpResponse:
    return render(request, "games/replay.html", {"match": None, "frames_url": ""})


def match_frames(request: HttpRequest, match_id: Any) -> JsonResponse:
    match = get_object_or_404(Match.objects.select_related("seat0", "seat1"), pk=match_id)
    if match.status == Match.Status.ACTIVE:
        return JsonResponse({"ok": False, "code": "running",
                             "message": _("The replay is available once the match is over.")},
                            status=409)
    data = frames(parse(export_record(match)))
    if match.status == Match.Status.ANNULLED:
        data["result"] = {"winner": None, "reason": "annulled"}  # records cannot say it
    return JsonResponse(data)


@require_POST
def replay_upload(request: HttpRequest) -> JsonResponse:
    """View an uploaded record without storing it."""
    if len(request.body) > MAX_UPLOAD_BYTES:
        return JsonResponse({"ok": False, "code": "too_large",
                             "message": _("That file is too large for a match record.")},
                            status=413)
    try:
        record = loads(request.body)
    except RecordError as exc:
        return JsonResponse({"ok": False, "code": "malformed",
                             "message": _("That is not a valid match record: %(reason)s")
                             % {"reason": exc}}, status=400)
    except RecursionError:
        return JsonResponse({"ok": False, "code": "malformed",
                             "message": _("That is not a valid match record.")}, status=400)
    return JsonResponse(frames(record))
