"""An arena played out to its final leaderboard by computer players over the public
HTTP API, the server's tick pairing whoever waits (as test_end_to_end.py does for the
round formats).

Six players of the dice game for five minutes: three games at the start; a player takes
a break (not paired while away; a game under way is played on) and comes back; after
every tick nobody is paired with their last opponent (more than two always wait), the
scores follow the streak rule (double after two wins in a row), and at the end time
nobody is paired again, the games still played count, and the arena finishes.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tournaments.formats import arena as A
from tournaments.models import Tournament, TournamentGame

from .helpers import DICE_QUICK, ApiPlayer, play_with_api
from .test_end_to_end import GAME, Clock, create, detail, field, games_of

pytestmark = pytest.mark.django_db
State = TournamentGame.State


def playing(tid: int) -> list[TournamentGame]:
    return [g for g in games_of(tid) if g.state == State.PLAYING]


def check_no_quick_rematch(tid: int) -> None:
    """No player's game is against the opponent of their game before."""
    previous: dict[int, int] = {}
    for game in sorted(games_of(tid), key=lambda g: g.board):
        a, b = game.seats()
        assert previous.get(a) != b and previous.get(b) != a, (game.board, a, b)
        previous[a], previous[b] = b, a


def outcomes_of(tid: int) -> dict[int, list[float]]:
    found: dict[int, list[float]] = {}
    for game in sorted(games_of(tid), key=lambda g: g.board):
        if game.state != State.DONE or game.decision == TournamentGame.Decision.ANNULLED:
            continue
        for seat, pid in enumerate(game.seats()):
            halves = game.halves0 if seat == 0 else game.halves1
            found.setdefault(pid, []).append({2: 1.0, 1: 0.5, 0: 0.0}[halves or 0])
    return found


def test_a_six_player_arena(client: Any) -> None:
    players, club = field("ar", 6)
    organizer, breaker = players[0], players[4]
    clock = Clock()
    status, refused = organizer.call("POST", f"/api/clubs/{club.pk}/tournaments", {
        "name": "bad arena", "format": "arena", "duration_m": 5, "seats": 4,
        "game": GAME, "starts_at": "2099-01-01T00:00:00Z"})
    assert status == 400 and "seats" in refused["message"]
    tid = create(organizer, club, format="arena", duration_m=5, rated=False,
                 rules=DICE_QUICK)
    assert detail(organizer, tid)["duration_m"] == 5
    for player in players:
        player.ok("POST", f"/api/tournaments/{tid}/join")
    clock.wait(60)
    clock.tick()
    assert len(playing(tid)) == 3  # everyone paired at the start

    breaker.ok("POST", f"/api/tournaments/{tid}/pause-me")
    for turn in range(6):
        if turn == 3:
            breaker.ok("POST", f"/api/tournaments/{tid}/resume-me")
        play_with_api(players, GAME)
        clock.wait(5)
        clock.tick()
        check_no_quick_rematch(tid)
        paired = {pid for g in playing(tid) for pid in g.seats()}
        if turn < 3:
            assert breaker.user.pk not in paired  # away: not paired
            assert len(paired) == 4  # five wait: two games, one waits on
        data = detail(breaker, tid)
        assert data["me"]["paused"] == (turn < 3)
    assert any(breaker.user.pk in g.seats() for g in games_of(tid) if g.board > 3)

    # The time is up: the games being played count, nobody is paired again.
    started = Tournament.objects.get(pk=tid).started_at
    assert started is not None
    clock.wait(5 * 60)
    clock.tick()
    last_board = max(g.board for g in games_of(tid))
    still = playing(tid)
    assert Tournament.objects.get(pk=tid).status == ("running" if still else "finished")
    play_with_api(players, GAME)
    clock.tick()
    assert max(g.board for g in games_of(tid)) == last_board
    data = detail(organizer, tid)
    assert data["status"] == "finished", data["arena"]

    board = data["arena"]["leaderboard"]
    names = {p.user.username: p.user.pk for p in players}
    results = outcomes_of(tid)
    assert len(board) == 6 and [row["rank"] for row in board] == list(range(1, 7))
    for row in board:
        mine = results.get(names[row["username"]], [])
        assert row["game_points"] == A.game_points(mine)  # the streak rule
        assert row["score"] == A.score_of(mine) and row["games"] == len(mine)
        assert row["streak"] == A.on_streak(mine) and not row["playing"]
    expected = [row.player for row in A.leaderboard(
        {pid: results.get(pid, []) for pid in names.values()},
        {names[e["username"]]: e["rating"] for e in data["entries"]})]
    assert [names[row["username"]] for row in board] == expected
    rows = data["standings"]["rows"]
    assert [r["username"] for r in rows] == [r["username"] for r in board]
    assert [r["points"] for r in rows] == [r["score"] for r in board]
    assert [tb["key"] for tb in data["standings"]["tiebreaks"]] == ["wins"]
    assert sum(len(r) for r in results.values()) == 2 * len(
        [g for g in games_of(tid) if g.state == State.DONE])
    assert started + timedelta(minutes=5) <= Tournament.objects.get(pk=tid).finished_at  # type: ignore[operator]

    client.force_login(organizer.user)
    csv = client.get(f"/tournaments/{tid}/standings.csv").content.decode().splitlines()
    assert csv[0].startswith("rank,player_id,start_rank,name,rating,points,games_played,wins")
    assert len(csv) == 7
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert 'data-testid="arena-leaderboard"' in page


def test_players_see_the_arena_over_the_api() -> None:
    players, club = field("av", 2)
    tid = create(players[0], club, format="arena", duration_m=3, rated=False,
                 rules=DICE_QUICK)
    status, refused = ApiPlayer(players[1].user).call(
        "POST", f"/api/tournaments/{tid}/pause-me")
    assert status == 400 and refused["code"] == "bad_request"
