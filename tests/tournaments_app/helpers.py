"""Players, a club and tournaments for the tournament tests, and the computer players
that play their matches: through ``do_command`` (fast) or through the public HTTP API
with access tokens, as ``bots/runner.py`` does."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import AccessToken
from games.models import Match
from tests.bot_play import play_bots
from tournaments.clubs import do_create_club, do_join_club
from tournaments.lifecycle import do_tick
from tournaments.models import Club, Tournament, TournamentGame
from tournaments.services import do_create_tournament, do_join

# Dice, standard for a rated table (five rounds), with a long decision clock so that a
# player who stays away is caught by the no-show rule, not by the clock.
DICE_RATED = {"rounds": 5, "quick": False, "decision_s": 600}
DICE_QUICK = {"rounds": 1, "quick": False, "decision_s": 600}


def users(*names: str) -> list[User]:
    return [User.objects.create_user(name) for name in names]  # no password: no hashing


def club_of(owner: User, members: list[User], name: str = "Chess Club",
            policy: str = "open") -> Club:
    club = do_create_club(owner, {"name": name, "description": "", "language": "en",
                                  "policy": "open"})
    for member in members:
        do_join_club(member, club)
    if policy != "open":
        club.policy = policy
        club.save()
    return club


def soon(seconds: float = 60) -> str:
    return (timezone.now() + timedelta(seconds=seconds)).isoformat()


def new_tournament(owner: User, club: Club, **fields: Any) -> Tournament:
    data = {"name": "Spring Open", "format": "swiss", "game": "dice",
            "rules": DICE_QUICK, "rated": False, "starts_at": soon(), "round_gap_s": 0,
            "no_show_s": 60, "max_players": 16}
    data.update(fields)
    if data["format"] in ("swiss", "tables"):
        data.setdefault("rounds", 3)
    if data["format"] == "tables":
        data.setdefault("seats", 3)
    if data["format"] == "arena":
        data.setdefault("duration_m", 30)
    return do_create_tournament(owner, club, data)


def enter(tournament: Tournament, players: list[User]) -> None:
    for player in players:
        do_join(player, tournament)


def tick(at: datetime | None = None) -> None:
    do_tick(at or timezone.now())


def active_games(tournament: Tournament) -> list[TournamentGame]:
    return list(tournament.games.filter(state=TournamentGame.State.PLAYING,
                                        match__status=Match.Status.ACTIVE)
                .select_related("match"))


def play_match(match: Match, absent: set[int] = frozenset(), seed: int = 1,  # type: ignore[assignment]
               limit: int = 3000) -> Match:
    """Every seat but the absent users' plays its game's computer player (do_command)."""
    users_by_id = User.objects.in_bulk(match.seat_users)

    def user_of(current: Match, seat: int) -> User | None:
        user_id = current.seat_users[seat]
        return None if user_id in absent else users_by_id[user_id]

    return play_bots(match, user_of, seed, limit, wait=True)


def play_round(tournament: Tournament, absent: set[int] = frozenset()) -> int:  # type: ignore[assignment]
    played = 0
    for row in active_games(tournament):
        assert row.match is not None
        play_match(row.match, absent, seed=row.pk)
        played += 1
    return played


class ApiPlayer:
    """A player with an access token, using only the public HTTP API."""

    def __init__(self, user: User) -> None:
        self.user = user
        _row, self.token = AccessToken.issue(user, "tests")
        self.client = Client()
        self.rng = random.Random(user.pk)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        kwargs: dict[str, Any] = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"}
        if body is not None or method.upper() == "POST":
            kwargs.update(data=b"" if body is None else json.dumps(body),
                          content_type="application/json")
        response = getattr(self.client, method.lower())(path, **kwargs)
        content = response.content
        return response.status_code, json.loads(content) if content else None

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, data = self.call(method, path, body)
        assert status in (200, 201), (path, status, data)
        return data

    def play_my_matches(self, game_key: str) -> int:
        """One decision in each of my active matches where one is due; how many sent."""
        from games import registry

        plugin = registry.game(game_key)
        sent = 0
        for summary in self.ok("GET", "/api/matches?status=active")["matches"]:
            state = self.ok("GET", f"/api/matches/{summary['id']}")
            view = state.get("view")
            if view is None:
                continue
            action = plugin.bot_action(view, self.rng)
            if action is None:
                continue
            status, answer = self.call("POST", f"/api/matches/{summary['id']}/commands",
                                       {"action": action, "version": state["version"]})
            assert status in (200, 409), answer  # 409: the match moved on meanwhile
            sent += 1
        return sent


def play_with_api(players: list[ApiPlayer], game_key: str, absent: set[int] = frozenset(),  # type: ignore[assignment]
                  limit: int = 5000) -> None:
    """Every present player plays until none of them has anything to do."""
    for _ in range(limit):
        sent = sum(p.play_my_matches(game_key) for p in players if p.user.pk not in absent)
        if not sent:
            return
    raise AssertionError("the matches did not end")
