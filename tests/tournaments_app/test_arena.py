"""Arenas on the server: settings, pairing whoever waits (at the start, after each game,
never the last opponent while another waits), a player's break, the end time, the
leaderboard with streaks, the CSV."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tournaments.errors import Refused
from tournaments.formats import arena as A
from tournaments.models import Tournament, TournamentGame
from tournaments.services import (
    do_annul_game,
    do_create_tournament,
    do_join,
    do_pause,
    do_pause_me,
    do_resume,
    do_resume_me,
    do_withdraw,
)

from .helpers import (
    ApiPlayer,
    active_games,
    club_of,
    enter,
    new_tournament,
    play_match,
    tick,
    users,
)

pytestmark = pytest.mark.django_db
State = TournamentGame.State


@pytest.fixture
def setup() -> dict[str, Any]:
    people = users(*(f"a{i}" for i in range(7)))
    club = club_of(people[0], people[1:])
    return {"people": people, "club": club, "owner": people[0]}


def started(setup: dict[str, Any], count: int = 5, minutes: int = 30) -> Tournament:
    tournament = new_tournament(setup["owner"], setup["club"], format="arena",
                                duration_m=minutes)
    enter(tournament, setup["people"][:count])
    tick(tournament.starts_at)
    tournament.refresh_from_db()
    return tournament


def test_arena_settings(setup: dict[str, Any]) -> None:
    tournament = new_tournament(setup["owner"], setup["club"], format="arena", duration_m=45)
    assert (tournament.duration_m, tournament.rounds) == (45, 1)
    for wrong, words in (({"duration_m": None}, "duration_m"), ({"duration_m": 0}, "duration_m"),
                         ({"duration_m": 30, "seats": 4}, "seats"),
                         ({"duration_m": 30, "rounds": 3}, "rounds")):
        with pytest.raises(Refused, match=words):
            new_tournament(setup["owner"], setup["club"], format="arena", **wrong)
    with pytest.raises(Refused, match="duration_m"):
        new_tournament(setup["owner"], setup["club"], format="swiss", duration_m=30)
    with pytest.raises(Refused):
        do_create_tournament(setup["owner"], setup["club"], {
            "name": "Fives arena", "format": "arena", "duration_m": 30, "game": "fives",
            "rated": False, "starts_at": (timezone.now() + timedelta(minutes=1)).isoformat(),
            "rules": {"seats": 4}})


def test_waiting_players_are_paired_again_at_once(setup: dict[str, Any]) -> None:
    tournament = started(setup)
    assert tournament.status == Tournament.Status.RUNNING
    games = active_games(tournament)
    assert len(games) == 2  # five players: one waits
    first = games[0]
    assert first.match is not None
    play_match(first.match, seed=3)
    tick()
    tournament.refresh_from_db()
    now_playing = active_games(tournament)
    assert len(now_playing) == 3 - 1  # the two finished: one paired with the waiting one
    newest = max(now_playing, key=lambda row: row.board)
    assert set(newest.seats()) != set(first.seats())  # not the last opponent
    assert len(set(first.seats()) & set(newest.seats())) == 1
    assert all(row.round.number == 1 for row in tournament.games.all())


def test_a_game_over_pairs_at_once(setup: dict[str, Any],
                                   django_capture_on_commit_callbacks: Any) -> None:
    tournament = started(setup, count=3)
    (game,) = active_games(tournament)
    assert game.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        play_match(game.match, seed=5)
    assert len(active_games(tournament)) == 1  # paired without a tick


def test_last_opponents_wait_for_a_game_being_played(
        setup: dict[str, Any], django_capture_on_commit_callbacks: Any) -> None:
    """Games end one at a time: the two players of the first to end are the only two
    waiting, and wait on for the other game rather than meet again at once (else an even
    field would replay the same pairs for the whole arena)."""
    tournament = started(setup, count=4)
    first, second = active_games(tournament)
    assert first.match is not None and second.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        play_match(first.match, seed=3)
    assert active_games(tournament) == [second]  # the receiver paired nobody
    tick()
    assert active_games(tournament) == [second]  # nor does the tick
    with django_capture_on_commit_callbacks(execute=True):
        play_match(second.match, seed=4)
    fresh = active_games(tournament)
    assert len(fresh) == 2
    for row in fresh:
        assert set(row.seats()) not in (set(first.seats()), set(second.seats()))


def test_streak_scoring_and_leaderboard(setup: dict[str, Any]) -> None:
    tournament = started(setup, count=4)
    for _ in range(4):
        for row in active_games(tournament):
            assert row.match is not None
            play_match(row.match, seed=row.pk)
        tick()
    tournament.refresh_from_db()
    answer = ApiPlayer(setup["owner"]).ok("GET", f"/api/tournaments/{tournament.pk}")
    board = answer["arena"]["leaderboard"]
    assert [row["rank"] for row in board] == [1, 2, 3, 4]
    by_name = {p.username: p.pk for p in setup["people"]}
    done = tournament.games.filter(state=State.DONE).order_by("board")
    for row in board:
        pid = by_name[row["username"]]
        outcomes = []
        for game in done:
            if pid in game.seats():
                halves = game.halves0 if game.seat0_id == pid else game.halves1
                outcomes.append({2: 1.0, 1: 0.5, 0: 0.0}[halves or 0])
        assert row["game_points"] == A.game_points(outcomes)
        assert row["score"] == sum(row["game_points"]) and row["games"] == len(outcomes)
        assert row["streak"] == A.on_streak(outcomes)
    scores = [row["score"] for row in board]
    assert scores == sorted(scores, reverse=True)
    standings = answer["standings"]["rows"]
    assert [row["username"] for row in standings] == [row["username"] for row in board]
    assert answer["duration_m"] == 30 and answer["arena"]["ends_at"]
    csv = Client().get(f"/tournaments/{tournament.pk}/standings.csv").content.decode()
    assert board[0]["username"] in csv.splitlines()[1]


def test_a_break_and_coming_back(setup: dict[str, Any]) -> None:
    tournament = started(setup, count=4)
    player = setup["people"][0]
    api = ApiPlayer(player)
    api.ok("POST", f"/api/tournaments/{tournament.pk}/pause-me")
    status, answer = api.call("POST", f"/api/tournaments/{tournament.pk}/pause-me")
    assert status == 400, answer
    mine = next(row for row in active_games(tournament) if player.pk in row.seats())
    assert mine.match is not None
    play_match(mine.match, seed=1)  # the game being played is played on
    tick()
    assert not any(player.pk in row.seats() for row in active_games(tournament))
    detail = api.ok("GET", f"/api/tournaments/{tournament.pk}")
    assert detail["me"]["paused"] is True
    assert next(r for r in detail["arena"]["leaderboard"]
                if r["username"] == player.username)["paused"] is True
    api.ok("POST", f"/api/tournaments/{tournament.pk}/resume-me")
    # Back, with only the last opponent waiting and the other game being played: both
    # wait for it to end rather than meet again.
    (other,) = active_games(tournament)
    assert player.pk not in other.seats() and other.match is not None
    play_match(other.match, seed=2)
    tick()
    again = next(row for row in active_games(tournament) if player.pk in row.seats())
    assert set(again.seats()) != set(mine.seats())
    with pytest.raises(Refused):
        do_resume_me(player, tournament)
    swiss = new_tournament(setup["owner"], setup["club"])
    with pytest.raises(Refused):
        do_pause_me(player, swiss)


def test_nobody_is_paired_while_the_organizer_has_paused_the_arena(
        setup: dict[str, Any]) -> None:
    tournament = started(setup, count=4)
    owner, people = setup["owner"], setup["people"]
    do_pause(owner, tournament)
    tournament.refresh_from_db()
    before = tournament.games.count()
    do_join(people[4], tournament)  # a newcomer waits
    do_withdraw(owner, tournament, people[1].username)  # and so does the opponent left
    do_pause_me(people[2], tournament)
    do_resume_me(people[2], tournament)
    tick()
    assert tournament.games.count() == before, "paired while paused"
    do_resume(owner, tournament)
    tick()
    newest = tournament.games.order_by("-board").first()
    assert tournament.games.count() > before and newest is not None
    assert people[4].pk in newest.seats()


def test_withdrawal_and_the_end_time(setup: dict[str, Any]) -> None:
    tournament = started(setup, count=4, minutes=10)
    leaver = setup["people"][1]
    do_withdraw(setup["owner"], tournament, leaver.username)
    assert not any(leaver.pk in row.seats() for row in active_games(tournament))
    assert tournament.started_at is not None
    end = tournament.started_at + timedelta(minutes=10)
    running = active_games(tournament)
    assert running
    tick(end)  # the time is up: games being played go on, nobody is paired again
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    for row in running:
        assert row.match is not None
        play_match(row.match, seed=row.pk)
    tick(end + timedelta(seconds=1))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert not active_games(tournament)
    assert tournament.games.filter(state=State.DONE).count() == tournament.games.count()


def test_a_no_show_is_put_on_a_break(setup: dict[str, Any]) -> None:
    tournament = started(setup, count=4)
    tournament.no_show_s = 10
    tournament.save(update_fields=["no_show_s"])
    absent = setup["people"][0]
    mine = next(row for row in active_games(tournament) if absent.pk in row.seats())
    assert mine.match is not None
    play_match(mine.match, absent={absent.pk}, seed=2)  # the other plays what it can
    tick()
    tick(timezone.now() + timedelta(seconds=11))
    mine.refresh_from_db()
    assert mine.decision == TournamentGame.Decision.FORFEIT
    assert tournament.entries.get(user=absent).paused
    assert not any(absent.pk in row.seats() for row in active_games(tournament))
    do_resume_me(absent, tournament)
    assert not tournament.entries.get(user=absent).paused


def test_the_page_shows_the_leaderboard_and_the_games_being_played(
        setup: dict[str, Any]) -> None:
    tournament = started(setup, count=4)
    finished = active_games(tournament)[0]
    assert finished.match is not None
    play_match(finished.match, seed=4)
    tick()
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-testid="arena-leaderboard"' in page and "Games being played" in page
    assert page.count('data-testid="arena-row"') == 4
    assert 'data-testid="standings"' not in page  # the leaderboard is its standings
    live = Client().get(f"/tournaments/{tournament.pk}/live/")
    assert live.status_code == 200


def test_an_annulled_game_counts_for_nobody_and_is_not_replayed(setup: dict[str, Any]) -> None:
    tournament = started(setup, count=4)
    row = active_games(tournament)[0]
    do_annul_game(setup["owner"], tournament, str(row.match_id))
    row.refresh_from_db()
    assert row.decision == TournamentGame.Decision.ANNULLED and row.state == State.DONE
    assert tournament.games.filter(state=State.REPLACED).count() == 0
    tick()
    board = ApiPlayer(setup["owner"]).ok("GET", f"/api/tournaments/{tournament.pk}")
    assert all(r["games"] == 0 for r in board["arena"]["leaderboard"])
