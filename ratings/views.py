"""The leaderboard and player profiles: ratings per game beside the match history.

These pages live with the ratings (which depend on the games app), so that the games
app imports nothing of the ratings.
"""

from __future__ import annotations

import json

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import registry
from games.reads.history import HistoryFilter, decorate, display_name, history, player_stats
from games.web.pages import PAGE_SIZE, player_or_404

from .elo import PROVISIONAL_MATCHES
from .models import Rating, RatingChange


def _game(request: HttpRequest) -> str:
    game = request.GET.get("game", "")
    return game if game in registry.game_keys() else registry.default_game().key


def leaderboard(request: HttpRequest) -> HttpResponse:
    game = _game(request)
    ratings = (Rating.objects.filter(game=game, games__gte=PROVISIONAL_MATCHES)
               .select_related("user", "user__profile").order_by("-rating", "user__username"))
    page = Paginator(ratings, PAGE_SIZE).get_page(request.GET.get("page"))
    # New players have a section of their own (their ratings still move a long way).
    provisional = (Rating.objects.filter(game=game, games__gt=0, games__lt=PROVISIONAL_MATCHES)
                   .select_related("user", "user__profile")
                   .order_by("-rating", "user__username")[:PAGE_SIZE])
    return render(request, "games/leaderboard.html", {
        "page": page, "first_rank": page.start_index(), "games": registry.all_games(),
        "game": game, "provisional": list(provisional)})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = player_or_404(username)
    game = _game(request)
    stats = player_stats(player, game)
    stats["rating"] = Rating.objects.filter(user=player, game=game).first()
    chart = list(RatingChange.objects.filter(user=player, game=game)
                 .order_by("seq").values_list("seq", "after"))
    stats["rating_chart"] = [[i, after] for i, (_seq, after) in enumerate(chart, start=1)]
    recent = decorate(list(history(HistoryFilter(player=player))[:10]), player)
    return render(request, "games/profile.html", {
        "player": player, "stats": stats, "recent": recent, "games": registry.all_games(),
        "game": game, "display_name": display_name(player),
        "chart_json": json.dumps(stats["rating_chart"]),
    })
