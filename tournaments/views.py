"""Pages: clubs, a club, a tournament (refreshed in place from ``live``), and the exports.

Every action on these pages is a call to the JSON API (``tournaments/api.py``) made by
``static/tournaments/tournaments.js``; the pages only show.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from games import registry
from games.play.lobby import computer_levels_for
from tournaments import formats as F

from . import clubs
from .errors import NotFound
from .models import Club, Tournament
from .present import club_detail, club_summary, game_name, standings_rows, tournament_detail
from .records import library_games, player_entries
from .services import tournament_by_id
from .setup import DEFAULTS, MAX_DECIDING_GAMES, MAX_SWISS_ROUNDS, table_sizes, tournament_games


def _club(club_id: Any) -> Club:
    try:
        return clubs.club_by_id(club_id)
    except NotFound:
        raise Http404 from None


def _tournament(tournament_id: Any) -> Tournament:
    try:
        return tournament_by_id(tournament_id)
    except NotFound:
        raise Http404 from None


def club_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    mine = {c.pk for c in clubs.clubs_of(request.user)}  # type: ignore[arg-type]
    rows = [{**club_summary(c), "mine": c.pk in mine} for c in clubs.club_list(query)]
    return render(request, "tournaments/clubs.html", {
        "clubs": rows, "query": query, "policies": Club.Policy.choices,
    })


def _conventions() -> list[dict[str, Any]]:
    """Each tournament game with its table conventions and its tables of more than two
    (a table tournament's sizes), for the tournament form."""
    return [{"key": plugin.key, "name": plugin.name, "tables": table_sizes(plugin),
             # The seats are the format's (two, or the tables'): not a convention to choose.
             "conventions": [c for c in plugin.conventions()
                             if not c.fixed and c.key != "players"]}
            for plugin in tournament_games()]


def club_page(request: HttpRequest, club_id: int) -> HttpResponse:
    club = _club(club_id)
    data = club_detail(club, request.user)  # type: ignore[arg-type]
    game = request.GET.get("game", "")
    game = game if game in registry.game_keys() else registry.default_game().key
    return render(request, "tournaments/club.html", {
        "club": club, "data": data, "board": clubs.leaderboard(club, game), "game": game,
        "games": registry.all_games(), "tournament_games": _conventions(),
        "formats": Tournament.Format.choices, "defaults": DEFAULTS,
        "max_swiss_rounds": MAX_SWISS_ROUNDS, "max_deciding_games": MAX_DECIDING_GAMES,
        "table_sizes": sorted({n for g in _conventions() for n in g["tables"]}),
    })


def club_invite_page(request: HttpRequest, club_id: int, code: str) -> HttpResponse:
    club = _club(club_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return render(request, "tournaments/club_invite.html", {
        "club": club, "code": code, "valid": code == club.invite_code,
        "member": clubs.access_is_member(club, request.user),  # type: ignore[arg-type]
    })


def _live_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    data = tournament_detail(tournament, request.user)  # type: ignore[arg-type]
    current = data["round_list"][-1] if data["round_list"] else None
    if current is not None and tournament.format == Tournament.Format.ARENA:
        # An arena's one round holds every game of the hour: the page lists those being
        # played (the finished ones are in the API's round_list and the players' history).
        current = {**current, "games": [g for g in current["games"] if g["state"] == "playing"]}
    return {"t": tournament, "data": data,
            "current_round": current,
            "computer_levels": computer_levels_for(registry.game(tournament.game))["levels"]}


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    context = _live_context(request, tournament)
    context["game_name"] = game_name(tournament.game)
    return render(request, "tournaments/tournament.html", context)


def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The changing part of the tournament page; 204 while its revision is the one the
    page has (``?revision=``)."""
    tournament = _tournament(tournament_id)
    if request.GET.get("revision") == str(tournament.revision):
        return HttpResponse(status=204)
    response = render(request, "tournaments/_live.html", _live_context(request, tournament))
    response["X-Revision"] = str(tournament.revision)
    return response


def _filename(tournament: Tournament, suffix: str) -> str:
    return f"{slugify(tournament.name) or 'tournament'}-{tournament.pk}.{suffix}"


def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    _counted, rows = standings_rows(tournament)
    column = "table_points" if tournament.format == Tournament.Format.TABLES else "points"
    response = HttpResponse(F.to_csv(rows, column), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, "csv")}"'
    return response


def swiss_trf(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The TRF-16 of a Swiss after its finished rounds (what py4swiss paired from)."""
    tournament = _tournament(tournament_id)
    if tournament.format != Tournament.Format.SWISS or tournament.started_at is None:
        raise Http404
    text = F.to_trf(player_entries(tournament),
                    library_games(tournament, done_rounds_only=True),
                    total_rounds=tournament.rounds, title=tournament.name)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(tournament, "trf")}"'
    return response
