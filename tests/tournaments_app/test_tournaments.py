"""Tournament settings, joining, the organizers' actions and the lifecycle's rules, through
the API and the services: bad input gets a clear message and changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match, MatchSeat
from games.play.services import do_command, do_forfeit
from ratings.models import RatingChange
from tournaments.errors import Forbidden, Refused
from tournaments.lifecycle import do_tick
from tournaments.models import Entry, Round, Tournament, TournamentGame
from tournaments.rounds import knockout_state
from tournaments.services import (
    do_annul_game,
    do_join,
    do_pause,
    do_repair,
    do_resume,
    do_start_now,
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

pytestmark = pytest.mark.django_db
State = TournamentGame.State


@pytest.fixture
def setup() -> dict[str, Any]:
    people = users("olga", "adam", "mia", "nick", "zoe")
    club = club_of(people[0], people[1:4])  # zoe is not a member
    return {"people": people, "club": club, "owner": people[0], "outsider": people[4]}


def started(setup: dict[str, Any], **fields: Any) -> Tournament:
    tournament = new_tournament(setup["owner"], setup["club"], **fields)
    enter(tournament, setup["people"][:4])
    tick(tournament.starts_at)
    tournament.refresh_from_db()
    return tournament


def later(seconds: float) -> None:
    """A tick ``seconds`` from now (a tick now has seen who has a move to make)."""
    tick()
    do_tick(timezone.now() + timedelta(seconds=seconds))


# ------------------------------------------------------------------ creating

BASE = {"name": "Club night", "format": "swiss", "rounds": 3, "game": "dice", "rated": False}


@pytest.mark.parametrize("change,words", [
    ({"starts_at": (timezone.now() - timedelta(minutes=1)).isoformat()}, "in the past"),
    ({"starts_at": "tomorrow"}, "date and time"),
    ({"registration_deadline": soon(7200)}, "not be after the start"),
    ({"format": "ladder"}, "'format'"),
    ({"game": "chess"}, "'game'"),
    ({"rounds": None}, "number of rounds"),
    ({"rounds": 40}, "'rounds'"),
    ({"max_players": 4, "rounds": 4}, "at most 3 rounds"),
    ({"min_players": 8, "max_players": 4}, "minimum"),
    ({"double": True}, "round robin only"),
    ({"rated": "yes"}, "true or false"),
    ({"rated": True, "rules": {"rounds": 3}}, "standard rules"),
    ({"rules": {"rounds": 2}}, "one of 1, 3, 5"),
    ({"no_show_s": 1}, "'no_show_s'"),
    ({"round_gap_s": -5}, "'round_gap_s'"),
    ({"colour": "red"}, "Unknown field"),
])
def test_bad_settings_are_refused_and_nothing_is_created(setup, change, words) -> None:
    organizer = ApiPlayer(setup["owner"])
    body = {**BASE, "starts_at": soon(3600), **change}
    body = {key: value for key, value in body.items() if value is not None}
    status, answer = organizer.call("POST", f"/api/clubs/{setup['club'].pk}/tournaments", body)
    assert status == 400 and answer["ok"] is False and answer["code"] == "bad_request"
    assert words in answer["message"], answer["message"]
    assert not Tournament.objects.exists()


def test_only_the_clubs_admins_create_its_tournaments(setup) -> None:
    member = ApiPlayer(setup["people"][1])
    status, answer = member.call("POST", f"/api/clubs/{setup['club'].pk}/tournaments",
                                 {**BASE, "starts_at": soon(3600)})
    assert status == 403 and answer["code"] == "forbidden"
    assert not Tournament.objects.exists()


def test_every_two_player_game_of_the_registry_can_be_a_tournaments(setup) -> None:
    from games import registry

    organizer = ApiPlayer(setup["owner"])
    for plugin in registry.all_games():
        if 2 not in plugin.seat_counts:
            continue
        data = organizer.ok("POST", f"/api/clubs/{setup['club'].pk}/tournaments",
                            {**BASE, "game": plugin.key, "rated": True, "starts_at": soon()})
        assert data["tournament"]["game"] == plugin.key


# ------------------------------------------------------------------ joining

def test_joining_refusals_change_nothing(setup) -> None:
    owner, adam, mia, nick = setup["people"][:4]
    tournament = new_tournament(owner, setup["club"], max_players=2, rounds=1)
    do_join(owner, tournament)
    with pytest.raises(Refused, match="Only members"):
        do_join(setup["outsider"], tournament)
    with pytest.raises(Refused, match="already in"):
        do_join(owner, tournament)
    do_join(adam, tournament)
    with pytest.raises(Refused, match="full"):
        do_join(mia, tournament)
    assert tournament.entries.count() == 2
    late = new_tournament(owner, setup["club"], registration_deadline=soon(30), starts_at=soon(90))
    with pytest.raises(Refused, match="Registration closed"):
        do_join(nick, late, now=timezone.now() + timedelta(seconds=60))
    open_to_all = new_tournament(owner, setup["club"], members_only=False)
    assert do_join(setup["outsider"], open_to_all).joined_at_round == 1


def test_a_started_round_robin_or_knockout_takes_nobody_late(setup) -> None:
    for kind in ("round_robin", "knockout"):
        tournament = new_tournament(setup["owner"], setup["club"], format=kind)
        enter(tournament, setup["people"][:3])
        tick(tournament.starts_at)
        with pytest.raises(Refused, match="already started"):
            do_join(setup["people"][3], tournament)
        assert tournament.entries.count() == 3


def test_too_few_players_at_the_start_time_cancel_it(setup) -> None:
    tournament = new_tournament(setup["owner"], setup["club"], min_players=4)
    enter(tournament, setup["people"][:3])
    with pytest.raises(Refused, match="at least 4"):
        do_start_now(setup["owner"], tournament)
    tick(tournament.starts_at)
    tournament.refresh_from_db()
    assert tournament.status == "cancelled" and "3 players" in tournament.notice


# ------------------------------------------------------------------ organizers

@pytest.mark.parametrize("action", ["start", "pause", "resume", "repair", "cancel", "withdraw",
                                    "annul"])
def test_an_organizers_action_by_a_non_organizer_is_refused(setup, action) -> None:
    tournament = new_tournament(setup["owner"], setup["club"])
    enter(tournament, setup["people"][:4])
    member = ApiPlayer(setup["people"][1])
    body = {"withdraw": {"username": "mia"},
            "annul": {"match": "00000000-0000-0000-0000-000000000000"}}.get(action)
    before = Tournament.objects.values().get(pk=tournament.pk)
    status, answer = member.call("POST", f"/api/tournaments/{tournament.pk}/{action}", body)
    assert status == 403 and answer["code"] == "forbidden" and "organizers" in answer["message"]
    assert Tournament.objects.values().get(pk=tournament.pk) == before
    assert tournament.entries.filter(withdrawn=False).count() == 4


def test_pause_holds_the_next_round_and_resume_starts_it(setup) -> None:
    tournament = started(setup)
    do_pause(setup["owner"], tournament)
    with pytest.raises(Refused, match="already paused"):
        do_pause(setup["owner"], tournament)
    play_round(tournament)
    tick()
    second = Round.objects.get(tournament=tournament, number=2)
    assert second.status == Round.Status.PAIRED  # paired at once, not started
    assert not active_games(tournament)
    do_resume(setup["owner"], tournament)
    second.refresh_from_db()
    assert second.status == Round.Status.RUNNING and len(active_games(tournament)) == 2
    with pytest.raises(Refused, match="not paused"):
        do_resume(setup["owner"], tournament)


def test_only_a_round_that_has_not_started_is_re_paired(setup) -> None:
    tournament = started(setup, round_gap_s=600)
    with pytest.raises(Refused, match="not started"):
        do_repair(setup["owner"], tournament)
    play_round(tournament)
    tick()
    waiting = Round.objects.get(tournament=tournament, number=2)
    before = sorted(tuple(g.seats()) for g in waiting.games.all())
    do_withdraw(setup["owner"], tournament, "mia")
    after = sorted(tuple(g.seats()) for g in waiting.games.all())
    mia = setup["people"][2].pk
    assert any(mia in pair for pair in before) and not any(mia in pair for pair in after)
    assert [len(pair) for pair in after].count(1) == 1  # three players: one bye
    do_repair(setup["owner"], tournament)
    waiting.refresh_from_db()
    assert waiting.status == Round.Status.PAIRED
    with pytest.raises(Refused, match="already withdrawn"):
        do_withdraw(setup["owner"], tournament, "mia")
    with pytest.raises(Refused, match="not in this tournament"):
        do_withdraw(setup["owner"], tournament, "nobody")


def test_annulling_rebuilds_ratings_and_replays_or_scores_nothing(setup) -> None:
    tournament = started(setup, rated=True, rules={**DICE_QUICK, "rounds": 5})
    first = active_games(tournament)
    play_round(tournament)
    done = TournamentGame.objects.get(pk=first[0].pk)
    assert RatingChange.objects.filter(match=done.match).count() == 2
    # In the round being played: annulled, ratings rebuilt, played again (seats swapped).
    do_annul_game(setup["owner"], tournament, str(done.match_id), "wrong table")
    done.refresh_from_db()
    assert done.state == State.REPLACED and done.match.status == Match.Status.ANNULLED
    assert done.match.annul_reason == "wrong table"
    assert not RatingChange.objects.filter(match=done.match).exists()
    again = TournamentGame.objects.get(round=done.round, board=done.board, attempt=2)
    assert (again.seat0_id, again.seat1_id) == (done.seat1_id, done.seat0_id)
    assert again.state == State.PLAYING
    play_round(tournament)
    tick()
    # In a round that is over: a double forfeit, nothing replayed.
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.DONE
    do_annul_game(setup["owner"], tournament, str(again.match_id))
    again.refresh_from_db()
    assert again.state == State.DONE and again.decision == "annulled"
    assert not TournamentGame.objects.filter(round=done.round, attempt=3).exists()
    with pytest.raises(Refused, match="already annulled"):
        do_annul_game(setup["owner"], tournament, str(again.match_id))
    with pytest.raises(Refused, match="not a game of this tournament"):
        do_annul_game(setup["owner"], tournament, "00000000-0000-0000-0000-000000000000")


def test_a_knockout_annuls_only_in_the_round_being_played(setup) -> None:
    tournament = started(setup, format="knockout")
    while Round.objects.get(tournament=tournament, number=1).status != Round.Status.DONE:
        play_round(tournament)  # a level game is played again
        tick()
    first = TournamentGame.objects.filter(round__number=1, state=State.DONE).first()
    assert first is not None
    with pytest.raises(Refused, match="knockout"):
        do_annul_game(setup["owner"], tournament, str(first.match_id))
    first.refresh_from_db()
    assert first.match.status == Match.Status.FINISHED


def test_a_level_knockout_game_is_played_again(setup) -> None:
    tournament = started(setup, format="knockout")
    row = active_games(tournament)[0]
    match = row.match
    # The game ends level, on points too (a tie that dice can give).
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, scores=[12, 12],
                                             winner=None, reason="finished")
    MatchSeat.objects.filter(match=match).update(rank=1)
    tick()
    row.refresh_from_db()
    assert row.state == State.REPLACED and row.decision == "played"
    again = TournamentGame.objects.get(round=row.round, board=row.board, attempt=2)
    assert again.state == State.PLAYING and again.match_id != match.pk


def _end_level(row: TournamentGame) -> None:
    """The row's match ends level, on places and on points (as dice can)."""
    Match.objects.filter(pk=row.match_id).update(status=Match.Status.FINISHED, scores=[12, 12],
                                                 winner=None, reason="finished")
    MatchSeat.objects.filter(match_id=row.match_id).update(rank=1)
    tick()


@pytest.mark.parametrize("deciding", [0, 1, 3])
def test_level_knockout_games_are_decided_by_rule(setup, deciding: int) -> None:
    """A level game is followed by up to ``deciding_games`` deciding games, seats swapped
    each time; still level after the last, the higher seed goes through."""
    tournament = started(setup, format="knockout", deciding_games=deciding)
    assert tournament.deciding_games == deciding
    first = active_games(tournament)[0]
    seeds = list(knockout_state(tournament).seeds)  # seed 1 first
    row = first
    for attempt in range(1, deciding + 1):
        _end_level(row)
        row.refresh_from_db()
        assert row.state == State.REPLACED and (row.halves0, row.halves1) == (1, 1)
        row = TournamentGame.objects.get(round=first.round, board=first.board,
                                         attempt=attempt + 1)
        assert (row.seat0_id, row.seat1_id) == ((first.seat1_id, first.seat0_id)
                                                if attempt % 2 else
                                                (first.seat0_id, first.seat1_id))
    _end_level(row)
    row.refresh_from_db()
    assert row.state == State.DONE and row.decision == "seed"
    winner = row.seat0_id if row.halves0 == 2 else row.seat1_id
    other = row.seat1_id if winner == row.seat0_id else row.seat0_id
    assert seeds.index(winner) < seeds.index(other)
    assert not TournamentGame.objects.filter(round=first.round, board=first.board,
                                             attempt=deciding + 2).exists()


def test_deciding_games_is_a_knockout_setting(setup) -> None:
    with pytest.raises(Refused, match="deciding_games"):
        new_tournament(setup["owner"], setup["club"], format="swiss", rounds=2,
                       deciding_games=1)
    with pytest.raises(Refused, match="'deciding_games'"):
        new_tournament(setup["owner"], setup["club"], format="knockout", deciding_games=9)
    assert new_tournament(setup["owner"], setup["club"], format="knockout").deciding_games == 2


# ------------------------------------------------------------------ no-shows

def test_a_no_show_loses_by_forfeit_once_the_period_has_passed(setup) -> None:
    tournament = started(setup, no_show_s=60)
    row = active_games(tournament)[0]
    plugin_due = [seat for seat in (0, 1) if rounds_due(row.match, seat)]
    assert len(plugin_due) == 1  # dice: one player rolls first
    later(30)
    row.refresh_from_db()
    assert row.state == State.PLAYING  # not yet
    assert getattr(row, f"due{plugin_due[0]}_at") is not None
    assert getattr(row, f"due{1 - plugin_due[0]}_at") is None  # not the other's turn yet
    do_tick(timezone.now() + timedelta(seconds=61))
    row.refresh_from_db()
    assert row.state == State.DONE and row.decision == "forfeit"
    winner = 1 - plugin_due[0]
    assert (row.halves0, row.halves1) == ((2, 0) if winner == 0 else (0, 2))
    assert row.match.reason == "forfeit" and row.match.winner == winner


def rounds_due(match: Match, seat: int) -> bool:
    from tournaments.lifecycle import _is_due

    return _is_due(match, seat)


def test_two_no_shows_score_nothing_and_annul_the_match(setup) -> None:
    # Spectacular Bid: both players must press Continue first, so both are due at once.
    tournament = started(setup, game="spectacular-bid", rules={}, rated=True)
    row = active_games(tournament)[0]
    later(61)
    row.refresh_from_db()
    assert row.decision == "annulled" and (row.halves0, row.halves1) == (0, 0)
    assert row.match.status == Match.Status.ANNULLED
    assert not RatingChange.objects.filter(match=row.match).exists()


def test_a_player_who_moved_is_no_no_show(setup) -> None:
    tournament = started(setup, game="spectacular-bid", rules={}, rated=False)
    row = active_games(tournament)[0]
    users_by_seat = {0: row.seat0, 1: row.seat1}
    assert do_command(row.match_id, users_by_seat[0],
                      {"action": {"seat": 0, "type": "continue"}}).ok
    later(61)
    row.refresh_from_db()
    assert row.moved0 and not row.moved1
    assert row.decision == "forfeit" and (row.halves0, row.halves1) == (2, 0)


def test_do_forfeit_resigns_the_seat_through_the_writer(setup) -> None:
    from games.play.services import do_create_match

    alice, bob = setup["people"][:2]
    match = do_create_match(alice, bob, game="dice", rated=True,
                            rules={**DICE_QUICK, "rounds": 5})
    assert do_forfeit(match.pk, 1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.reason == "forfeit"
    assert match.winner == 0
    assert list(MatchSeat.objects.filter(match=match).values_list("rank", flat=True)) == [1, 2]
    assert RatingChange.objects.filter(match=match).count() == 2  # rated, as any loss
    assert match.events.filter(kind="action", seat=1, payload__type="resign").exists()
    assert not do_forfeit(match.pk, 0)  # over: nothing more
    assert not do_forfeit("not-a-uuid", 0)


def test_withdrawing_with_a_game_under_way_resigns_it(setup) -> None:
    tournament = started(setup, game="spectacular-bid", rules={}, rated=False)
    row = active_games(tournament)[0]
    seat0 = row.seat0
    assert do_command(row.match_id, seat0, {"action": {"seat": 0, "type": "continue"}}).ok
    do_withdraw(setup["owner"], tournament, seat0.username)
    row.refresh_from_db()
    assert row.match.reason == "resign" and row.decision == "played"
    assert Entry.objects.get(tournament=tournament, user=seat0).withdrawn


def test_errors_from_the_api_have_the_error_shape(setup) -> None:
    tournament = new_tournament(setup["owner"], setup["club"])
    player = ApiPlayer(setup["people"][1])
    for path, body in [(f"/api/tournaments/{tournament.pk}/join", {"x": 1}),
                       (f"/api/tournaments/{tournament.pk}/withdraw", {"username": 5}),
                       ("/api/tournaments/999/join", None),
                       ("/api/tournaments?status=nope", None)]:
        method = "GET" if "?" in path else "POST"
        status, answer = player.call(method, path, body)
        assert status in (400, 403, 404), (path, status)
        assert set(answer) == {"ok", "code", "message"} and answer["ok"] is False
        assert answer["message"]
    raw = player.client.post(f"/api/tournaments/{tournament.pk}/join", data=b"{nope",
                             content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {player.token}")
    assert raw.status_code == 400 and raw.json()["code"] == "bad_json"


def test_forbidden_and_refused_are_the_apis_403_and_400() -> None:
    assert Forbidden("x").status == 403 and Refused("x").status == 400


def test_a_player_with_only_a_bye_so_far_keeps_the_place_his_points_give(setup) -> None:
    from tournaments.present import tournament_detail

    tournament = new_tournament(setup["owner"], setup["club"], rounds=2)
    enter(tournament, setup["people"][:3])  # three players: a bye in round 1
    tick(tournament.starts_at)
    play_round(tournament)
    tick()
    tournament.refresh_from_db()
    rows = tournament_detail(tournament, None)["standings"]["rows"]
    bye = TournamentGame.objects.get(tournament=tournament, round__number=1,
                                     seat1__isnull=True).seat0.username
    mine = next(row for row in rows if row["username"] == bye)
    assert mine["points"] == 1 and not mine["no_show"]
    assert all(mine["rank"] < row["rank"] for row in rows if row["points"] < 1)


def test_the_staff_pages_list_clubs_and_tournaments(setup) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    started(setup)
    staff = Client()
    staff.force_login(User.objects.create_superuser("root", "root@example.com", "x-pass-1234"))
    for page in ("club", "tournament", "round", "tournamentgame"):
        assert staff.get(f"/admin/tournaments/{page}/").status_code == 200, page
    tournament = Tournament.objects.get()
    assert staff.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").status_code == 200


def test_a_swiss_round_that_cannot_be_paired_ends_it_with_the_reason(setup) -> None:
    tournament = new_tournament(setup["owner"], setup["club"], rounds=2, max_players=3)
    enter(tournament, setup["people"][:2])  # two players cannot meet twice
    tick(tournament.starts_at)
    play_round(tournament)
    tick()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert "Round 2 could not be paired" in tournament.notice
    assert tournament.round_set.count() == 1


def test_the_page_offers_joining_only_while_entries_are_taken(setup) -> None:
    from django.test import Client

    tournament = new_tournament(setup["owner"], setup["club"], max_players=2, rounds=1)
    page = Client()
    page.force_login(setup["people"][2])
    url = f"/tournaments/{tournament.pk}/"
    assert 'data-testid="join"' in page.get(url).content.decode()
    enter(tournament, setup["people"][:2])
    assert 'data-testid="join"' not in page.get(url).content.decode()  # full


def test_nobody_is_forfeited_while_paused_and_resuming_gives_a_whole_period(setup) -> None:
    tournament = started(setup, no_show_s=60)
    tick()  # the players to move first are seen
    do_pause(setup["owner"], tournament)
    do_tick(timezone.now() + timedelta(seconds=120))
    assert all(row.state == State.PLAYING for row in active_games(tournament))
    do_resume(setup["owner"], tournament)
    assert all(row.due0_at is None and row.due1_at is None
               for row in active_games(tournament))
    later(30)
    assert len(active_games(tournament)) == 2


def _keys(data: Any) -> set[str]:
    """Every key of a JSON answer, nested ones too (their names only)."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            found.add(key)
            found |= _keys(value)
    elif isinstance(data, list):
        for value in data:
            found |= _keys(value)
    return found


@pytest.mark.parametrize("kind", ["knockout", "round_robin", "swiss", "tables", "arena"])
def test_every_field_of_a_tournament_is_documented(setup, kind: str) -> None:
    """docs/api.md describes every field a client reads (issue: the game fields, the
    bracket keys and the notice were not)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    section = text.split("### A tournament's fields", 1)[1].split("\n## ", 1)[0]
    section += text.split("A tournament's settings", 1)[1].split("### A tournament's", 1)[0]
    tournament = started(setup, format=kind)
    play_round(tournament)
    tick()
    status, answer = ApiPlayer(setup["owner"]).call("GET", f"/api/tournaments/{tournament.pk}")
    assert status == 200
    # Crosstable rows and tiebreak values are keyed by data, not by field names.
    # The rules are the game's own conventions (its section of docs/api.md).
    skip = ("standings", "crosstable", "rules")
    keys = _keys({k: v for k, v in answer["tournament"].items() if k not in skip}
                 if "tournament" in answer else
                 {k: v for k, v in answer.items() if k not in skip})
    keys |= _keys({"standings": {k: v for k, v in answer["standings"].items()
                                 if k != "rows"}})
    keys |= {k for row in answer["standings"]["rows"] for k in row if k != "tiebreaks"}
    keys -= {"ok", "tournament"}
    missing = sorted(k for k in keys
                     if not re.search(rf"`(?:[\w\[\].]*\.)?{re.escape(k)}(?:\[\])*`", section))
    assert not missing, missing
