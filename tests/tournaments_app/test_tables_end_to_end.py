"""A table tournament played out to its final standings by computer players over the
public HTTP API, the server's tick carrying it through its rounds (as the three
end-to-end tests of test_end_to_end.py do for the two-seat formats).

Seven players of the dice game at tables of three, three rounds: 3 + 2 + 2 each round
(no byes: the dice game seats two), a no-show in round 1 (forfeited, the others play
on), a withdrawal at the start of round 2 (never seated again: 3 + 3 in round 3), the
tournament paused after round 2 (round 3 waits for the resume); every round seated
with the fewest repeat meetings possible (checked by brute force). And five Fives
players at a table of four and a bye, two rounds.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from ratings.models import RatingChange
from tests.tournaments.test_tables import _partitions_any, _weighted
from tournaments.models import Round, Tournament, TournamentGame
from tournaments.notify import pending_for

from .helpers import ApiPlayer, play_with_api
from .test_end_to_end import GAME, Clock, create, detail, field, games_of, running_round

pytestmark = pytest.mark.django_db


def tables_of(tid: int, number: int) -> list[TournamentGame]:
    return [g for g in games_of(tid) if g.round.number == number]


def play_out(players: list[ApiPlayer], clock: Clock, absent: set[int] = frozenset()  # type: ignore[assignment]
             ) -> None:
    """Everyone present plays; an absent seat is forfeited once the no-show period has
    passed and the others play on; the tick records the round."""
    play_with_api(players, GAME, absent)
    if absent:
        clock.tick()  # the server sees who has a move to make
        clock.wait(61)
        clock.tick()
        play_with_api(players, GAME, absent)
    clock.tick()


def check_seating(tid: int, number: int, expected: list[int], active: set[int]) -> None:
    """Every active player seated once, the plan's sizes, the fewest repeats possible."""
    tables = tables_of(tid, number)
    seated = [pid for g in tables for pid in g.seats()]
    assert sorted(seated) == sorted(active)
    assert sorted((len(g.seats()) for g in tables), reverse=True) == expected
    history = [tuple(g.seats()) for g in games_of(tid) if g.round.number < number]
    best = min(_weighted(option, history)
               for option in _partitions_any(sorted(seated), expected))
    assert _weighted([tuple(g.seats()) for g in tables], history) == best


def test_a_seven_player_dice_tournament_at_tables_of_three(client: Any) -> None:
    players, club = field("tb", 7)
    organizer, no_show, quitter = players[0], players[3], players[5]
    clock = Clock()
    status, refused = organizer.call("POST", f"/api/clubs/{club.pk}/tournaments", {
        "name": "bid tables", "format": "tables", "seats": 4, "rounds": 3,
        "game": "spectacular-bid", "starts_at": "2099-01-01T00:00:00Z"})
    assert status == 400 and "more than two" in refused["message"]
    tid = create(organizer, club, format="tables", seats=3, rounds=3)
    created = detail(organizer, tid)
    assert created["seats"] == 3 and created["table_points"] == [2, 1, 0]
    for player in players:
        player.ok("POST", f"/api/tournaments/{tid}/join")
    clock.wait(60)
    clock.tick()
    everyone = {p.user.pk for p in players}
    check_seating(tid, 1, [3, 2, 2], everyone)
    third_seat = next(g for g in tables_of(tid, 1) if len(g.seats()) == 3).seats()[2]
    assert any(n.get("match") for n in pending_for(third_seat)), "every seat is told"

    # Round 1: a player who never moves is forfeited; the others at the table play on.
    play_out(players, clock, absent={no_show.user.pk})
    lost = next(g for g in tables_of(tid, 1) if no_show.user.pk in g.seats())
    seat = lost.seats().index(no_show.user.pk)
    assert lost.table[seat]["forfeit"] and lost.decision == TournamentGame.Decision.FORFEIT
    assert lost.match is not None and lost.match.status == "finished"
    shown = detail(organizer, tid)["round_list"][0]["games"]
    forfeited = next(g for g in shown if any(p["username"] == no_show.user.username
                                             for p in g["players"]))
    assert next(p for p in forfeited["players"]
                if p["username"] == no_show.user.username)["table_points"] == 0

    # Round 2: a pause, then a withdrawal before moving; the pause holds round 3 once
    # round 2 ends. Paused first: round 1's second pass may already have played round 2
    # (it starts when the no-show's forfeit ends round 1), and when only the quitter's
    # game was left, the withdrawal itself ends round 2.
    assert running_round(tid).number == 2  # type: ignore[union-attr]
    check_seating(tid, 2, [3, 2, 2], everyone)
    organizer.ok("POST", f"/api/tournaments/{tid}/pause")
    organizer.ok("POST", f"/api/tournaments/{tid}/withdraw", {"username": quitter.user.username})
    play_out(players, clock, absent={quitter.user.pk})
    waiting = Round.objects.get(tournament_id=tid, number=3)
    assert waiting.status == Round.Status.PAIRED
    organizer.ok("POST", f"/api/tournaments/{tid}/resume")
    clock.tick()  # the round's start time is the test clock's
    assert running_round(tid).number == 3  # type: ignore[union-attr]
    check_seating(tid, 3, [3, 3], everyone - {quitter.user.pk})
    play_out(players, clock)

    data = detail(organizer, tid)
    assert data["status"] == "finished", data["round_list"]
    rows = data["standings"]["rows"]
    assert len(rows) == 7 and data["standings"]["after_round"] == 3
    assert [tb["key"] for tb in data["standings"]["tiebreaks"]] == [
        "game_points", "opponents_table_points"]
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    points = [r["points"] for r in rows]
    assert points == sorted(points, reverse=True)
    assert next(r for r in rows if r["username"] == quitter.user.username)["withdrawn"]
    # Each round gives 2+1+0 at the table of three and 2+0 at each of two: 7 in rounds
    # 1 and 2 (the forfeits' points go to nobody), 6 in round 3 (two tables of three).
    assert sum(points) <= 7 + 7 + 6
    played = [g.match for g in games_of(tid) if g.match is not None]
    assert all(m.rated and m.seat_count == len(m.seat_users) for m in played)
    assert RatingChange.objects.filter(match__in=played).exists()

    client.force_login(organizer.user)
    csv = client.get(f"/tournaments/{tid}/standings.csv").content.decode().splitlines()
    assert csv[0] == ("rank,player_id,start_rank,name,rating,table_points,games_played,"
                      "game_points,opponents_table_points,status")
    assert len(csv) == 8
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert 'data-testid="table-seats"' in page and "Table points" in page
    assert Tournament.objects.get(pk=tid).seed != 0
    pairs = [frozenset(p) for g in games_of(tid) for p in combinations(g.seats(), 2)]
    assert len(pairs) == 5 + 5 + 6


def test_five_fives_players_at_a_table_of_four_and_a_bye() -> None:
    """Fives seats 2 or 4: five players sit 4 and one has the bye (no Fives table seats
    3 or 1), two rounds, the bye going to another player in round 2."""
    players, club = field("fv", 5)
    organizer = players[0]
    clock = Clock()
    tid = create(organizer, club, format="tables", seats=4, rounds=2, game="fives",
                 rules={"target": 100}, rated=False)
    for player in players:
        player.ok("POST", f"/api/tournaments/{tid}/join")
    organizer.ok("POST", f"/api/tournaments/{tid}/start")
    byes = []
    for number in (1, 2):
        tables = tables_of(tid, number)
        assert sorted(len(g.seats()) for g in tables) == [1, 4]
        byes.append(next(g.seats()[0] for g in tables if len(g.seats()) == 1))
        table = next(g for g in tables if len(g.seats()) == 4)
        assert table.match is not None and table.match.seat_count == 4
        play_with_api(players, "fives")
        clock.tick()
    assert byes[0] != byes[1], "nobody has a second bye before the others"
    data = detail(organizer, tid)
    assert data["status"] == "finished"
    rows = data["standings"]["rows"]
    bye_row = next(r for r in rows if r["username"] == next(
        p.user.username for p in players if p.user.pk == byes[0]))
    assert bye_row["points"] >= 1.5  # the bye's 1.5, and the table's from round 2
    assert sum(r["points"] for r in rows) == 2 * (6 + 1.5)
