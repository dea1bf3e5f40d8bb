"""Three club tournaments played out to their final standings by computer players that use
only the public HTTP API (access tokens; the match API's snapshot and commands), while
the server's tick (what Celery beat runs every second) carries each through its rounds.

* a 9-player Swiss of 5 rounds: a late entry in round 2, a no-show in round 2, a
  withdrawal while round 4 waits to start (the round is paired again);
* a 6-player double round robin: a no-show in round 1, a withdrawal after round 5;
* an 11-player knockout seeded by rating, with a third-place match: five byes, a
  no-show in round 1, a withdrawal during round 2.

The game is dice, rated (the standard five rounds), with a decision clock longer than
the no-show period, so that an absent player is caught by the no-show rule.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match
from ratings.models import Rating, RatingChange
from tournaments.lifecycle import do_tick
from tournaments.models import Round, Tournament, TournamentGame

from .helpers import DICE_RATED, ApiPlayer, club_of, play_with_api, users

pytestmark = pytest.mark.django_db
GAME = "dice"


class Clock:
    """The server's time for the tick: real time, moved on by the test when it waits
    (the start time, a no-show period, the time between rounds); it never goes back."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def wait(self, seconds: float) -> None:
        self.offset += timedelta(seconds=seconds)

    def tick(self) -> None:
        do_tick(timezone.now() + self.offset)


def field(prefix: str, count: int) -> tuple[list[ApiPlayer], Any]:
    people = users(*[f"{prefix}{i:02d}" for i in range(1, count + 1)])
    club = club_of(people[0], people[1:], name=f"{prefix} club")
    return [ApiPlayer(user) for user in people], club


def create(organizer: ApiPlayer, club: Any, **settings: Any) -> int:
    body = {"name": f"{settings['format']} cup", "game": GAME, "rules": DICE_RATED,
            "rated": True, "starts_at": (timezone.now() + timedelta(seconds=60)).isoformat(),
            "round_gap_s": 0, "no_show_s": 60, "max_players": 16, **settings}
    return int(organizer.ok("POST", f"/api/clubs/{club.pk}/tournaments", body)
               ["tournament"]["id"])


def detail(player: ApiPlayer, tid: int) -> dict[str, Any]:
    return dict(player.ok("GET", f"/api/tournaments/{tid}"))


def running_round(tid: int) -> Round | None:
    return Round.objects.filter(tournament_id=tid, status=Round.Status.RUNNING).first()


def play_round_out(players: list[ApiPlayer], clock: Clock, tid: int,
                   absent: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Everyone present plays; an absent player's games end when the no-show period has
    passed; the tick then records the round and pairs (and starts) the next."""
    play_with_api(players, GAME, absent)
    if absent:
        clock.tick()  # the server sees who has a move to make
        clock.wait(61)
    clock.tick()


def games_of(tid: int) -> list[TournamentGame]:
    return list(TournamentGame.objects.filter(tournament_id=tid)
                .exclude(state=TournamentGame.State.REPLACED)
                .select_related("round", "match"))


def check_standings_are_ordered(rows: list[dict[str, Any]]) -> None:
    ranks = [row["rank"] for row in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    shown = [row for row in rows if not row["no_show"]]
    assert all(not row["no_show"] for row in rows[:len(shown)]), "no-shows are listed last"


def check_rated_matches(tid: int) -> None:
    """Tournament matches are ordinary rated matches: ratings, history, records."""
    played = [g.match for g in games_of(tid) if g.match is not None
              and g.match.status == Match.Status.FINISHED]
    assert played and all(match.rated for match in played)
    assert RatingChange.objects.filter(match__in=played).count() == 2 * len(played)
    assert Rating.objects.filter(game=GAME, games__gt=0).exists()


# ------------------------------------------------------------------ Swiss

def _join_eight_and_refuse_the_others(players: list[ApiPlayer], outsider: ApiPlayer,
                                      tid: int) -> None:
    """Eight members join; an outsider may not join and a player may not start it."""
    for player in players[:8]:
        player.ok("POST", f"/api/tournaments/{tid}/join")
    status, refused = outsider.call("POST", f"/api/tournaments/{tid}/join")
    assert status == 400 and refused["code"] == "bad_request"
    assert "members" in refused["message"]
    status, refused = players[1].call("POST", f"/api/tournaments/{tid}/start")
    assert status == 403 and refused["ok"] is False  # not an organizer


def _check_the_finished_swiss(organizer: ApiPlayer, late: ApiPlayer, quitter: ApiPlayer,
                              tid: int) -> None:
    """Five rounds done, no repeat pairing, one bye at most each, the standings right."""
    data = detail(organizer, tid)
    assert data["status"] == "finished"
    assert [r["status"] for r in data["round_list"]] == ["done"] * 5
    games = games_of(tid)
    pairs = [frozenset(g.seats()) for g in games if not g.is_bye]
    assert len(pairs) == len(set(pairs)), "no repeat pairings"
    byes = Counter(g.seat0_id for g in games if g.is_bye)
    assert byes and max(byes.values()) == 1, "at most one bye each"
    assert all(g.round.number >= 3 for g in games if late.user.pk in g.seats())
    assert all(g.round.number <= 3 for g in games if quitter.user.pk in g.seats())
    rows = data["standings"]["rows"]
    assert len(rows) == 9
    assert [tb["key"] for tb in data["standings"]["tiebreaks"]] == [
        "buchholz", "median_buchholz", "head_to_head", "game_points"]
    check_standings_are_ordered(rows)
    assert next(r for r in rows if r["username"] == quitter.user.username)["withdrawn"]
    check_rated_matches(tid)


def _check_the_swiss_exports(client: Any, organizer: ApiPlayer, no_show: ApiPlayer,
                             tid: int) -> None:
    """The TRF and CSV exports list the nine players; the history names the round."""
    client.force_login(organizer.user)
    trf = client.get(f"/tournaments/{tid}/tournament.trf").content.decode()
    assert trf.count("\n001 ") + trf.startswith("001 ") == 9 and "XXR 5" in trf
    csv = client.get(f"/tournaments/{tid}/standings.csv").content.decode()
    assert csv.splitlines()[0].startswith("rank,player_id,start_rank,name")
    assert len(csv.splitlines()) == 10
    history = client.get(f"/players/{no_show.user.username}/history/").content.decode()
    assert "swiss cup, round 2" in history


def test_a_nine_player_swiss_of_five_rounds(client) -> None:
    players, club = field("sw", 10)
    organizer, late, no_show, quitter, too_late = (players[0], players[8], players[3],
                                                   players[5], players[9])
    outsider = ApiPlayer(users("outsider")[0])
    clock = Clock()
    tid = create(organizer, club, format="swiss", rounds=5, round_gap_s=30)
    _join_eight_and_refuse_the_others(players, outsider, tid)

    clock.wait(60)  # the start time: the server starts it and round 1 at once
    clock.tick()
    data = detail(organizer, tid)
    assert data["status"] == "running" and data["rounds_started"] == 1
    play_round_out(players[:8], clock, tid)
    clock.wait(30)  # the time between rounds
    clock.tick()
    assert running_round(tid).number == 2  # type: ignore[union-attr]

    # Round 2: a late entrant (paired from round 3), and a player who never moves.
    assert late.ok("POST", f"/api/tournaments/{tid}/join")["tournament"]["me"]["entered"]
    play_round_out(players[:8], clock, tid, absent={no_show.user.pk})
    forfeited = [g for g in games_of(tid) if g.round.number == 2
                 and no_show.user.pk in g.seats()]
    assert len(forfeited) == 1 and forfeited[0].decision == TournamentGame.Decision.FORFEIT
    assert forfeited[0].match is not None and forfeited[0].match.reason == "forfeit"

    clock.wait(30)
    clock.tick()
    play_round_out(players[:9], clock, tid)
    # Round 4 is paired and waits; the withdrawal pairs it again without the quitter.
    waiting = Round.objects.get(tournament_id=tid, number=4)
    assert waiting.status == Round.Status.PAIRED
    organizer.ok("POST", f"/api/tournaments/{tid}/withdraw", {"username": quitter.user.username})
    organizer.ok("POST", f"/api/tournaments/{tid}/repair")
    assert all(quitter.user.pk not in g.seats() for g in waiting.games.all())
    status, refused = too_late.call("POST", f"/api/tournaments/{tid}/join")
    assert status == 400 and "late entries" in refused["message"]  # 3 of 5 rounds started
    for _round in (4, 5):
        clock.wait(30)
        clock.tick()
        play_round_out(players[:9], clock, tid)

    _check_the_finished_swiss(organizer, late, quitter, tid)
    _check_the_swiss_exports(client, organizer, no_show, tid)


# ------------------------------------------------------------------ round robin

def test_a_six_player_double_round_robin() -> None:
    players, club = field("rr", 6)
    organizer, no_show, quitter = players[0], players[2], players[4]
    clock = Clock()
    tid = create(organizer, club, format="round_robin", double=True)
    for player in players:
        player.ok("POST", f"/api/tournaments/{tid}/join")
    organizer.ok("POST", f"/api/tournaments/{tid}/start")  # the organizer starts it early
    status, refused = ApiPlayer(users("rr-latecomer")[0]).call(
        "POST", f"/api/tournaments/{tid}/join")
    assert status == 400 and "started" in refused["message"]
    assert Tournament.objects.get(pk=tid).rounds == 10

    play_round_out(players, clock, tid, absent={no_show.user.pk})  # round 1
    for number in range(2, 11):
        if number == 6:
            organizer.ok("POST", f"/api/tournaments/{tid}/withdraw",
                         {"username": quitter.user.username})
        play_round_out(players, clock, tid)

    data = detail(organizer, tid)
    assert data["status"] == "finished"
    games = games_of(tid)
    first = next(g for g in games if g.round.number == 1 and no_show.user.pk in g.seats())
    assert first.decision == TournamentGame.Decision.FORFEIT
    # Every pair twice, the second time with the seats swapped.
    meetings = Counter(frozenset(g.seats()) for g in games)
    assert len(meetings) == 15 and set(meetings.values()) == {2}
    for pair in meetings:
        seat0s = {g.seat0_id for g in games if frozenset(g.seats()) == pair}
        assert len(seat0s) == 2
    after = [g for g in games if quitter.user.pk in g.seats() and g.round.number >= 6]
    assert len(after) == 5 and all(g.decision == "forfeit" for g in after)
    assert all(g.match is None for g in after if g.round.number >= 7), "never paired again"
    assert [tb["key"] for tb in data["standings"]["tiebreaks"]] == [
        "sonneborn_berger", "head_to_head", "game_points"]
    check_standings_are_ordered(data["standings"]["rows"])
    grid = data["crosstable"]["rows"]
    assert len(grid) == 6 and all(len(row) == 6 + 3 for row in grid)
    check_rated_matches(tid)


# ------------------------------------------------------------------ knockout

def test_an_eleven_player_knockout_with_a_third_place_match() -> None:
    players, club = field("ko", 11)
    for rank, player in enumerate(players):  # seeds follow the ratings
        Rating.objects.create(user=player.user, game=GAME, rating=2000 - 10 * rank, games=20)
    organizer = players[0]
    no_show, quitter = players[10], players[1]  # seed 11; seed 2 (a bye, then round 2)
    clock = Clock()
    tid = create(organizer, club, format="knockout", third_place=True)
    for player in players:
        player.ok("POST", f"/api/tournaments/{tid}/join")
    clock.wait(60)
    clock.tick()
    first = [g for g in games_of(tid) if g.round.number == 1]
    byes = sorted(g.seat0_id for g in first if g.is_bye)
    assert byes == sorted(p.user.pk for p in players[:5]), "the top five seeds have byes"
    assert len([g for g in first if not g.is_bye]) == 3

    play_round_out(players, clock, tid, absent={no_show.user.pk})
    lost = next(g for g in first if no_show.user.pk in g.seats())
    lost.refresh_from_db()
    assert lost.decision == "forfeit"
    # Round 2 runs: the quitter withdraws before moving and loses that game.
    assert running_round(tid).number == 2  # type: ignore[union-attr]
    organizer.ok("POST", f"/api/tournaments/{tid}/withdraw", {"username": quitter.user.username})
    for _round in range(8):  # rounds 2 to 4, and any level game played again
        play_round_out(players, clock, tid)
        if Tournament.objects.get(pk=tid).status == Tournament.Status.FINISHED:
            break
    data = detail(organizer, tid)
    assert data["status"] == "finished", data["round_list"]
    bracket = data["bracket"]
    assert bracket["champion"] == data["standings"]["rows"][0]["username"]
    assert bracket["third_place"] is not None and bracket["third_place"]["winner"]
    placings = [row["rank"] for row in data["standings"]["rows"]]
    assert placings[:4] == [1, 2, 3, 4]
    assert data["standings"]["rows"][-1]["username"] == no_show.user.username
    assert data["standings"]["rows"][-1]["no_show"]
    check_rated_matches(tid)
