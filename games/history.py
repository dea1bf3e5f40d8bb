"""Queries behind the history, profile and leaderboard pages (indexed; see models)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from .models import Match


@dataclass(frozen=True)
class HistoryFilter:
    player: Any | None = None  # a user: only their matches
    opponent: str = ""
    result: str = ""  # win | loss | other (only with a player)
    rated: str = ""  # "rated" | "casual" | ""
    since: date | None = None
    until: date | None = None


def history(f: HistoryFilter) -> QuerySet[Match]:
    qs = Match.objects.exclude(status=Match.Status.ACTIVE).select_related("seat0", "seat1")
    if f.player is not None:
        qs = qs.filter(Q(seat0=f.player) | Q(seat1=f.player))
        if f.opponent:
            other = get_user_model().objects.filter(username__iexact=f.opponent).first()
            if other is None:
                return qs.none()
            qs = qs.filter(Q(seat0=other) | Q(seat1=other))
        if f.result == "win":
            qs = qs.filter(Q(seat0=f.player, winner=0) | Q(seat1=f.player, winner=1))
        elif f.result == "loss":
            qs = qs.filter(Q(seat0=f.player, winner=1) | Q(seat1=f.player, winner=0))
        elif f.result == "other":
            qs = qs.filter(winner__isnull=True)
    elif f.opponent:
        qs = qs.filter(Q(seat0__username__iexact=f.opponent)
                       | Q(seat1__username__iexact=f.opponent))
    if f.rated == "rated":
        qs = qs.filter(rated=True)
    elif f.rated == "casual":
        qs = qs.filter(rated=False)
    if f.since:
        qs = qs.filter(created_at__date__gte=f.since)
    if f.until:
        qs = qs.filter(created_at__date__lte=f.until)
    return qs.order_by("-created_at")


def player_stats(user: Any) -> dict[str, Any]:
    """Matches, wins by points and on time, losses, average points won, current streak."""
    from ratings.models import Rating, RatingChange

    finished = (Match.objects.filter(Q(seat0=user) | Q(seat1=user),
                                     status=Match.Status.FINISHED)
                .order_by("-finished_at").values_list("seat0_id", "winner", "reason",
                                                      "balances", "rules"))
    wins_points = wins_time = wins_other = losses = 0
    points_won = 0
    streak = 0
    streak_kind = ""
    count = 0
    for seat0_id, winner, reason, balances, rules in finished.iterator():
        count += 1
        seat = 0 if seat0_id == user.pk else 1
        start = (rules or {}).get("start_points", 150)
        if balances:
            points_won += balances[seat] - start
        won = winner == seat
        if won:
            if reason == "points":
                wins_points += 1
            elif reason == "time":
                wins_time += 1
            else:
                wins_other += 1
        elif winner is not None:
            losses += 1
        kind = "W" if won else ("L" if winner is not None else "")
        if count == 1:
            streak_kind = kind
        if kind and kind == streak_kind and streak == count - 1:
            streak += 1
    rating = Rating.objects.filter(user=user, game="spectacular-bid").first()
    chart = list(RatingChange.objects.filter(user=user, game="spectacular-bid")
                 .order_by("seq").values_list("seq", "after"))
    return {
        "matches": count,
        "wins_points": wins_points,
        "wins_time": wins_time,
        "wins_other": wins_other,
        "losses": losses,
        "average_points_won": round(points_won / count, 1) if count else 0,
        "streak": f"{streak}{streak_kind}" if streak_kind else "",
        "rating": rating,
        "rating_chart": [[i, after] for i, (_seq, after) in enumerate(chart, start=1)],
    }
