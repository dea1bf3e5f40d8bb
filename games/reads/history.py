"""Queries behind the history, profile and leaderboard pages (indexed; see models).

Who played is in ``MatchSeat``. One-device games (one person in every seat) are
practice: they are listed, marked as such, and never count as a win, a loss, a streak
or points.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from accounts.computer import display_name
from games import registry
from games.models import Match, MatchSeat


@dataclass(frozen=True)
class HistoryFilter:
    player: Any | None = None  # a user: only their matches
    opponent: str = ""
    result: str = ""  # win | loss | other | practice (only with a player)
    rated: str = ""  # "rated" | "casual" | ""
    game: str = ""  # a registered game's key, or "" for every game
    since: date | None = None
    until: date | None = None


def _seated(user: Any, **seat: Any) -> Exists:
    return Exists(MatchSeat.objects.filter(match=OuterRef("pk"), user=user, **seat))


def history(f: HistoryFilter) -> QuerySet[Match]:
    qs = Match.objects.exclude(status=Match.Status.ACTIVE)
    if f.game:
        qs = qs.filter(game=f.game)
    if f.player is not None:
        qs = qs.filter(_seated(f.player))
        if f.opponent:
            other = get_user_model().objects.filter(username__iexact=f.opponent).first()
            if other is None or other.pk == f.player.pk:
                return qs.none()
            qs = qs.filter(_seated(other))
        if f.result == "win":
            qs = qs.filter(_seated(f.player, rank=1), one_device=False)
        elif f.result == "loss":
            qs = qs.filter(_seated(f.player, rank__gt=1), one_device=False)
        elif f.result == "other":
            qs = qs.filter(one_device=False).exclude(_seated(f.player, rank__isnull=False))
        elif f.result == "practice":
            qs = qs.filter(one_device=True)
    elif f.opponent:
        other = get_user_model().objects.filter(username__iexact=f.opponent).first()
        if other is None:
            return qs.none()
        qs = qs.filter(_seated(other))
    if f.rated == "rated":
        qs = qs.filter(rated=True)
    elif f.rated == "casual":
        qs = qs.filter(rated=False)
    if f.since:
        qs = qs.filter(created_at__date__gte=f.since)
    if f.until:
        qs = qs.filter(created_at__date__lte=f.until)
    return qs.order_by("-created_at")


def seat_rows(matches: list[Match]) -> dict[Any, list[MatchSeat]]:
    """The seats of listed matches with their users' display names (one query)."""
    rows: dict[Any, list[MatchSeat]] = {m.pk: [] for m in matches}
    for seat in (MatchSeat.objects.filter(match__in=list(rows))
                 .select_related("user", "user__profile").order_by("match", "index")):
        rows[seat.match_id].append(seat)
    return rows


def player_stats(user: Any, game: str | None = None) -> dict[str, Any]:
    """Matches, wins by each of the game's reasons (``wins_by``: [(words, count)], and
    ``wins_other``), losses, average points won, current streak, for one game; one-device
    games are counted apart (``practice``) and nowhere else.
    (The player's rating is the ratings app's: ``ratings/views.py``.)

    Counted by the database (a player may have thousands of matches); only the streak
    reads rows, newest first, until it breaks.
    """

    plugin = registry.default_game() if game is None else registry.game(game)
    finished = MatchSeat.objects.filter(user=user, match__status=Match.Status.FINISHED,
                                        match__game=plugin.key)
    practice = finished.filter(match__one_device=True).values("match").distinct().count()
    played = finished.filter(match__one_device=False)
    won = Q(rank=1)
    reasons = list(plugin.win_reasons)
    totals = played.aggregate(
        matches=Count("id"), score=Sum("score"),
        **{f"wins_{i}": Count("id", filter=won & Q(match__reason=reason))
           for i, reason in enumerate(reasons)},
        wins_other=Count("id", filter=won & ~Q(match__reason__in=reasons)),
        losses=Count("id", filter=Q(rank__gt=1)))
    count = totals["matches"]
    # What each match started from (a table's starting points), per variant.
    baseline = sum(plugin.score_baseline(row["match__rules"] or {}) * row["n"]
                   for row in played.values("match__rules").annotate(n=Count("id")))
    streak, streak_kind = _streak(played)
    wins_by = [(_(plugin.win_reasons[reason]), totals[f"wins_{i}"])
               for i, reason in enumerate(reasons)]
    return {
        "game": plugin.key,
        "matches": count,
        "practice": practice,
        "wins": sum(n for _words, n in wins_by) + totals["wins_other"],
        "wins_by": wins_by,
        "wins_other": totals["wins_other"],
        "losses": totals["losses"],
        "average_label": _(plugin.average_label),
        "average_detail": _(plugin.average_detail).format(
            baseline=plugin.score_baseline({})) if plugin.average_detail else "",
        "average_points_won": round(((totals["score"] or 0) - baseline) / count, 1)
        if count else 0,
        "streak": f"{streak}{streak_kind}" if streak_kind else "",
    }


def _streak(played: QuerySet[MatchSeat]) -> tuple[int, str]:
    """The current run of wins ("W") or losses ("L"), newest match first."""
    ranks = played.order_by("-match__finished_at", "-match_id").values_list("rank", flat=True)
    streak, kind = 0, ""
    start, size = 0, 32
    while True:
        # Pages with a LIMIT, not a server-side cursor: the planner then sorts the
        # player's own rows instead of walking every match by date for the first few.
        page = list(ranks[start:start + size])
        for rank in page:
            this = "" if rank is None else ("W" if rank == 1 else "L")
            if streak == 0 and not kind:
                kind = this
            if not this or this != kind:
                return streak, kind
            streak += 1
        if len(page) < size:
            return streak, kind
        start, size = start + size, size * 4


@dataclass(frozen=True)
class SeatShown:
    index: int
    username: str
    name: str  # the display name, else the username
    rank: int | None
    score: int | None

    @property
    def won(self) -> bool:
        return self.rank == 1


def decorate(matches: list[Match], player: Any | None = None) -> list[Match]:
    """Give listed matches what the pages show: ``shown_seats`` (names, ranks, scores),
    ``game_name``, ``winner_name`` and, for a player's list, ``player_result``
    ("win", "loss", "practice" or "")."""

    seats = seat_rows(matches)
    for match in matches:
        shown = [SeatShown(s.index, s.user.username, display_name(s.user), s.rank, s.score)
                 for s in seats.get(match.pk, [])]
        match.shown_seats = shown  # type: ignore[attr-defined]
        try:
            match.game_name = registry.game(match.game).name  # type: ignore[attr-defined]
        except registry.UnknownGame:
            match.game_name = match.game  # type: ignore[attr-defined]
        winners = [s.name for s in shown if s.rank == 1]
        match.winner_name = (  # type: ignore[attr-defined]
            winners[0] if len(winners) == 1 and not match.one_device else "")
        result = ""
        if player is not None:
            mine = [s for s in shown if s.username == player.username]
            if match.one_device:
                result = "practice"
            elif mine and mine[0].rank is not None:
                result = "win" if mine[0].rank == 1 else "loss"
        match.player_result = result  # type: ignore[attr-defined]
    return matches


