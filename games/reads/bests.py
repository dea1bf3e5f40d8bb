"""Personal bests and the solo leaderboard, for any game a person can play alone.

A solo match (one seat) is never rated: what it leaves is its score (``MatchSeat.score``,
the game's ``scores``). Only finished solo matches count (not resigned, aborted or
annulled ones). Bests are kept per rules variant, the match's ``rules`` read back
through the game's plugin (so that a variant is the same whether its rules were stored
in full or partly), and per period: the last 7 days, the last 30 days, all time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry
from games.engine.plugin import GamePlugin, RulesError
from games.models import Match, MatchSeat
from games.reads.history import display_name

SOLO = 1
PERIODS = ("week", "month", "all")
PERIOD_DAYS = {"week": 7, "month": 30}
PERIOD_LABELS = {
    "week": gettext_lazy("Last 7 days"),
    "month": gettext_lazy("Last 30 days"),
    "all": gettext_lazy("All time"),
}
LEADERBOARD_SIZE = 50


# ------------------------------------------------------------------ rules variants

def solo_game(key: str) -> GamePlugin:
    """The game of that key if a person can play it alone, else 404."""
    try:
        plugin = registry.game(key)
    except registry.UnknownGame:
        raise Http404(_("There is no such game.")) from None
    if SOLO not in plugin.seat_counts:
        raise Http404(_("This game is not played alone."))
    return plugin


def variant_rules(plugin: GamePlugin, rules: Any) -> dict[str, Any] | None:
    """The rules as the game writes them in full, or None when they no longer parse."""
    try:
        return plugin.rules_to_dict(plugin.parse_rules(rules or None, SOLO))
    except (RulesError, ValueError, TypeError):
        return None


def variant_key(rules: dict[str, Any]) -> str:
    return json.dumps(rules, sort_keys=True, separators=(",", ":"))


def standard_key(plugin: GamePlugin) -> str:
    rules = variant_rules(plugin, None)
    assert rules is not None
    return variant_key(rules)


def variant_label(plugin: GamePlugin, rules: dict[str, Any]) -> str:
    """The conventions that differ from the standard ones, or "Standard rules"."""
    parts = []
    for convention in plugin.conventions():
        value = rules.get(convention.key, convention.default)
        if convention.fixed or value == convention.default:
            continue
        if value is True:  # a convention switched on: its name says it
            parts.append(str(_(convention.label)))
        else:
            shown = _("no") if value is False else str(value)
            parts.append(f"{_(convention.label)}: {shown}")
    return " · ".join(parts) if parts else _("Standard rules")


@dataclass(frozen=True)
class Variant:
    key: str
    rules: dict[str, Any]
    label: str
    games: int
    standard: bool


# ------------------------------------------------------------------ queries

def _since(period: str, now: datetime | None) -> datetime | None:
    days = PERIOD_DAYS.get(period)
    if days is None:
        return None
    return (now or timezone.now()) - timedelta(days=days)


def solo_seats(plugin: GamePlugin, since: datetime | None = None) -> QuerySet[MatchSeat]:
    """The seats of the finished solo matches of a game that count (since a time)."""
    seats = (MatchSeat.objects
             .filter(match__game=plugin.key, match__seat_count=SOLO,
                     match__status=Match.Status.FINISHED, score__isnull=False)
             # A solo game given up before its end (the game's forfeit) is no total.
             .exclude(match__reason=plugin.forfeit_action))
    if since is not None:
        seats = seats.filter(match__finished_at__gte=since)
    return seats


def variants(plugin: GamePlugin) -> list[Variant]:
    """Every variant played alone, the standard one first (even unplayed), then the most
    played."""
    games: dict[str, int] = {}
    rules_of: dict[str, dict[str, Any]] = {}
    for row in solo_seats(plugin).values("match__rules").annotate(n=Count("id")):
        rules = variant_rules(plugin, row["match__rules"])
        if rules is None:
            continue
        key = variant_key(rules)
        rules_of[key] = rules
        games[key] = games.get(key, 0) + row["n"]
    standard = standard_key(plugin)
    rules_of.setdefault(standard, json.loads(standard))
    games.setdefault(standard, 0)
    found = [Variant(key, rules_of[key], variant_label(plugin, rules_of[key]), games[key],
                     key == standard) for key in games]
    found.sort(key=lambda v: (not v.standard, -v.games, v.key))
    return found


def _bests(plugin: GamePlugin, variant: str, since: datetime | None
           ) -> dict[int, tuple[int, int]]:
    """Each player's best score and number of games in a variant: user id -> (best, games)."""
    bests: dict[int, tuple[int, int]] = {}
    rows = (solo_seats(plugin, since).values("match__rules", "user")
            .annotate(best=Max("score"), n=Count("id")))
    for row in rows:
        rules = variant_rules(plugin, row["match__rules"])
        if rules is None or variant_key(rules) != variant:
            continue
        best, games = bests.get(row["user"], (row["best"], 0))
        bests[row["user"]] = (max(best, row["best"]), games + row["n"])
    return bests


@dataclass(frozen=True)
class BestRow:
    rank: int
    user_id: int
    username: str
    name: str
    score: int
    games: int
    match_id: Any
    finished_at: datetime | None


def leaderboard(plugin: GamePlugin, variant: str, period: str = "all",
                limit: int = LEADERBOARD_SIZE, now: datetime | None = None
                ) -> tuple[list[BestRow], dict[int, tuple[int, int]]]:
    """The best scores of a variant in a period, one row a player; equal scores share a
    rank, the one reached first listed first. Also every player's (best, games), for a
    player's own rank."""
    since = _since(period, now)
    bests = _bests(plugin, variant, since)
    ordered = sorted(bests.items(), key=lambda item: -item[1][0])
    if not ordered:
        return [], bests
    cutoff = ordered[min(limit, len(ordered)) - 1][1][0]
    shown = {user: best for user, (best, _games) in ordered if best >= cutoff}
    # When (and in which match) each shown best was first reached.
    reached: dict[int, tuple[Any, datetime | None]] = {}
    for row in (solo_seats(plugin, since)
                .filter(user__in=list(shown), score__in=set(shown.values()))
                .order_by("match__finished_at", "match_id")
                .values("user", "score", "match_id", "match__finished_at", "match__rules")):
        user = row["user"]
        if user in reached or row["score"] != shown[user]:
            continue
        rules = variant_rules(plugin, row["match__rules"])
        if rules is not None and variant_key(rules) == variant:
            reached[user] = (row["match_id"], row["match__finished_at"])
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=list(shown))
             .select_related("profile")}
    far_future = datetime.max.replace(tzinfo=timezone.get_current_timezone())

    def first_reached(user: int) -> datetime:
        return reached.get(user, (None, None))[1] or far_future

    rows = sorted(shown, key=lambda u: (-shown[u], first_reached(u), users[u].username))
    out = []
    for user in rows[:limit]:
        best, games = bests[user]
        match_id, finished = reached.get(user, (None, None))
        out.append(BestRow(rank=1 + sum(1 for b, _g in bests.values() if b > best),
                           user_id=user, username=users[user].username,
                           name=display_name(users[user]), score=best, games=games,
                           match_id=match_id, finished_at=finished))
    return out, bests


@dataclass
class Best:
    score: int
    match_id: Any
    finished_at: datetime | None


@dataclass
class PlayerBests:
    """One player's bests in one variant."""

    variant: str
    label: str
    games: int = 0
    total: int = 0
    last: datetime | None = None
    by_period: dict[str, Best | None] = field(
        default_factory=lambda: dict.fromkeys(PERIODS))

    @property
    def average(self) -> float:
        return round(self.total / self.games, 1) if self.games else 0.0

    @property
    def week(self) -> Best | None:
        return self.by_period["week"]

    @property
    def month(self) -> Best | None:
        return self.by_period["month"]

    @property
    def all_time(self) -> Best | None:
        return self.by_period["all"]


def player_bests(plugin: GamePlugin, user: Any, now: datetime | None = None
                 ) -> list[PlayerBests]:
    """A player's bests per variant (most played first): each period's best with the
    match that reached it first, games played, average score, last game."""
    starts = {period: _since(period, now) for period in PERIODS}
    found: dict[str, PlayerBests] = {}
    rows = (solo_seats(plugin).filter(user=user)
            .order_by("match__finished_at", "match_id")
            .values_list("match__rules", "score", "match_id", "match__finished_at"))
    for rules_data, score, match_id, finished in rows.iterator():
        rules = variant_rules(plugin, rules_data)
        if rules is None:
            continue
        key = variant_key(rules)
        mine = found.get(key)
        if mine is None:
            mine = found[key] = PlayerBests(key, variant_label(plugin, rules))
        mine.games += 1
        mine.total += score
        mine.last = finished
        for period, start in starts.items():
            if start is not None and (finished is None or finished < start):
                continue
            held = mine.by_period[period]
            if held is None or score > held.score:
                mine.by_period[period] = Best(score, match_id, finished)
    return sorted(found.values(), key=lambda b: (-b.games, b.variant))


# ------------------------------------------------------------------ the page

def bests_page(request: HttpRequest, game: str) -> HttpResponse:
    plugin = solo_game(game)
    period = request.GET.get("period", "all")
    if period not in PERIODS:
        period = "all"
    known = variants(plugin)
    chosen = next((v for v in known if v.key == request.GET.get("variant")), known[0])
    rows, bests = leaderboard(plugin, chosen.key, period)
    user = request.user
    mine: list[PlayerBests] = []
    my_rank: int | None = None
    my_best: tuple[int, int] | None = None
    if user.is_authenticated:
        mine = player_bests(plugin, user)
        my_best = bests.get(user.pk)
        if my_best is not None:
            my_rank = 1 + sum(1 for b, _g in bests.values() if b > my_best[0])
    return render(request, "games/bests.html", {
        "game": plugin,
        "periods": [(key, PERIOD_LABELS[key]) for key in PERIODS],
        "period": period,
        "period_label": PERIOD_LABELS[period],
        "variants": known,
        "variant": chosen,
        "rows": rows,
        "players": len(bests),
        "mine": mine,
        "my_rank": my_rank,
        "my_best": my_best[0] if my_best else None,
    })
