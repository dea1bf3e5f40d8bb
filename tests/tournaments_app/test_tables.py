"""Table tournaments on the server: their settings, a table's match and result, absent
seats, annulling, a withdrawal under way, pause, the standings."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Match
from games.play.services import do_command
from games.play.store import load_engine, plugin_of
from tournaments.errors import Refused
from tournaments.lifecycle import do_tick
from tournaments.models import Round, TournamentGame
from tournaments.services import (
    do_annul_game,
    do_create_tournament,
    do_pause,
    do_resume,
    do_withdraw,
)

from .helpers import (
    DICE_QUICK,
    ApiPlayer,
    active_games,
    club_of,
    enter,
    new_tournament,
    play_round,
    soon,
    tick,
    users,
)
from .test_tournaments import later

pytestmark = pytest.mark.django_db
State = TournamentGame.State
BASE = {"name": "Table night", "format": "tables", "rounds": 2, "seats": 3, "game": "dice",
        "rated": False}


@pytest.fixture
def setup() -> dict[str, Any]:
    people = users(*(f"t{i}" for i in range(8)))
    club = club_of(people[0], people[1:])
    return {"people": people, "club": club, "owner": people[0]}


def started(setup: dict[str, Any], count: int = 7, **fields: Any) -> Any:
    tournament = new_tournament(setup["owner"], setup["club"], format="tables",
                                rules=DICE_QUICK, **fields)
    enter(tournament, setup["people"][:count])
    tick(tournament.starts_at)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize("change,words", [
    ({"game": "spectacular-bid", "seats": 4}, "more than two"),
    ({"seats": None}, "'seats'"),
    ({"seats": 7}, "'seats'"),
    ({"game": "fives", "seats": 3, "rules": None}, "one of 4"),
    ({"rounds": None}, "number of rounds"),
    ({"table_points": [3, 2]}, "'table_points'"),
    ({"table_points": [1, 2, 0]}, "'table_points'"),
    ({"table_points": [2, 1, True]}, "'table_points'"),
    ({"bye_points": 5}, "'bye_points'"),
    ({"format": "swiss", "seats": 3}, "tables only"),
    ({"format": "round_robin", "rounds": 3, "seats": None}, "these formats only"),
    ({"max_players": 201}, "'max_players'"),
])
def test_bad_table_settings_are_refused(setup, change, words) -> None:
    body = {**BASE, "starts_at": soon(3600), **change}
    body = {key: value for key, value in body.items() if value is not None}
    status, answer = ApiPlayer(setup["owner"]).call(
        "POST", f"/api/clubs/{setup['club'].pk}/tournaments", body)
    assert status == 400 and words in answer["message"], answer["message"]


def test_fives_at_four_and_the_settings_as_given(setup) -> None:
    created = do_create_tournament(setup["owner"], setup["club"], {
        **BASE, "game": "fives", "seats": 4, "table_points": [5, 3, 1, 0], "bye_points": 2,
        "starts_at": soon(), "max_players": 200})
    assert (created.seats, created.table_points, created.bye_points) == (4, [5, 3, 1, 0], 2.0)


def test_a_table_is_one_match_for_its_seats_and_its_places_give_table_points(setup) -> None:
    tournament = started(setup)
    tables = list(TournamentGame.objects.filter(round__number=1).order_by("board"))
    assert [len(t.seats()) for t in tables] == [3, 2, 2]
    for table in tables:
        assert table.match.seat_users == table.seats()
    play_round(tournament)
    tick()
    first = TournamentGame.objects.get(pk=tables[0].pk)
    assert first.state == State.DONE and first.decision == "played"
    assert sorted(seat["place"] for seat in first.table)[0] == 1
    data = ApiPlayer(setup["owner"]).ok("GET", f"/api/tournaments/{tournament.pk}")
    rows = data["standings"]["rows"]
    assert len(rows) == 7 and sum(r["points"] for r in rows) == pytest.approx(3 + 2 + 2)
    game = data["round_list"][0]["games"][0]
    assert len(game["players"]) == 3
    assert game["usernames"] == [p["username"] for p in game["players"]]
    assert game["result"].count("/") == 2
    assert Round.objects.get(tournament=tournament, number=2).status == Round.Status.RUNNING


def test_absent_seats_are_forfeited_one_by_one_as_each_has_a_move_to_make(setup) -> None:
    """The dice game asks one seat at a time: each absent seat is forfeited once its own
    no-show period has passed; the last one left wins, as a forfeit win would."""
    tournament = started(setup, count=3)
    row = active_games(tournament)[0]
    later(61)
    row.refresh_from_db()
    assert sum(seat["forfeit"] for seat in row.table) == 1 and row.state == State.PLAYING
    later(130)
    row.refresh_from_db()
    assert row.state == State.DONE and row.decision == "forfeit"
    assert sum(seat["forfeit"] for seat in row.table) == 2
    assert row.match.status == Match.Status.FINISHED
    data = ApiPlayer(setup["owner"]).ok("GET", f"/api/tournaments/{tournament.pk}")
    seats = data["round_list"][0]["games"][0]["players"]
    assert sorted(p["table_points"] for p in seats) == [0, 0, 2]
    no_shows = [r for r in data["standings"]["rows"] if r["no_show"]]
    assert len(no_shows) == 2 and data["standings"]["rows"][0]["points"] == 2


def test_annulling_a_table_replays_it_turned_or_scores_nothing(setup) -> None:
    tournament = started(setup, count=4)  # 4 at tables of 3: 2 + 2
    first = active_games(tournament)[0]
    do_annul_game(setup["owner"], tournament, str(first.match_id), "wrong table")
    first.refresh_from_db()
    assert first.state == State.REPLACED
    again = TournamentGame.objects.get(round=first.round, board=first.board, attempt=2)
    assert again.seats() == first.seats()[1:] + first.seats()[:1]
    assert again.state == State.PLAYING and again.match.seat_users == again.seats()
    play_round(tournament)
    tick()
    do_annul_game(setup["owner"], tournament, str(again.match_id))
    again.refresh_from_db()
    assert again.decision == "annulled" and all(seat["forfeit"] for seat in again.table)
    with pytest.raises(Refused, match="already annulled"):
        do_annul_game(setup["owner"], tournament, str(again.match_id))


def _one_move(match: Match) -> int:
    """The seat with a move to make makes one (the game's computer player chooses)."""
    match.refresh_from_db()
    plugin = plugin_of(match)
    engine = load_engine(match)
    seat = next(s for s in range(match.seat_count)
                if plugin.legal_actions(plugin.view(engine, s)))
    action = plugin.bot_action(plugin.view(engine, seat), random.Random(1))
    user = User.objects.get(pk=match.seat_users[seat])
    do_command(match.pk, user, {"action": action, "version": match.version})
    return seat


def test_withdrawing_a_player_who_moved_resigns_and_the_table_plays_on(setup) -> None:
    tournament = started(setup, count=3)
    row = active_games(tournament)[0]
    seat = _one_move(row.match)
    quitter = User.objects.get(pk=row.seats()[seat])
    do_withdraw(setup["owner"], tournament, quitter.username)
    row.refresh_from_db()
    assert row.match.status == Match.Status.ACTIVE, "the other two play on"
    assert not row.table[seat]["forfeit"]
    play_round(tournament)
    tick()
    row.refresh_from_db()
    assert row.state == State.DONE and row.table[seat]["place"] == 3
    second = TournamentGame.objects.get(tournament=tournament, round__number=2)
    assert quitter.pk not in second.seats() and len(second.seats()) == 2


def test_nobody_at_a_table_is_forfeited_while_paused(setup) -> None:
    tournament = started(setup, count=3)
    row = active_games(tournament)[0]
    tick()  # the seat to move is due from now
    row.refresh_from_db()
    assert any(seat["due_at"] for seat in row.table)
    do_pause(setup["owner"], tournament)
    do_tick(timezone.now() + timedelta(seconds=120))
    row.refresh_from_db()
    assert not any(seat["forfeit"] for seat in row.table)
    do_resume(setup["owner"], tournament)
    row.refresh_from_db()
    assert not any(seat["due_at"] for seat in row.table), "a whole period from the resume"
