"""The dice game's pages on the server: the odds (advice) and analysis hooks and their API,
personal bests and the solo leaderboard, and the board the shared match page mounts."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.test import Client
from django.utils import timezone

from games import registry
from games.dice import odds
from games.dice.plugin import GAME as DICE
from games.models import Match
from games.play.services import do_command, do_create_match
from games.play.store import export_record, load_engine
from games.reads.bests import leaderboard, player_bests, standard_key, variant_key, variants
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def users(*names: str) -> list[User]:
    return [User.objects.create_user(name, password="pw-123456") for name in names]


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def play_out(match: Match, seat_users: list[User], level: str = "careful") -> Match:
    """Every seat plays the dice computer player of ``level`` through ``do_command``."""
    rng = random.Random(7)
    for _ in range(500):
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.Status.ACTIVE:
            return current
        engine = load_engine(current)
        seat = engine.to_act()
        assert seat is not None, "nobody to act"
        action = DICE.bot_action_at(DICE.view(engine, seat), rng, level)
        result = do_command(current.pk, seat_users[seat],
                            {"action": action, "version": current.version})
        assert result.ok, (action, result)
    raise AssertionError("the match did not end")


# ------------------------------------------------------------------ the plugin hooks

def test_other_games_have_neither_advice_nor_analysis() -> None:
    fives = registry.game("fives")
    state = fives.new_state(fives.parse_rules(None, 2), 2)
    assert fives.advice(state, 0) is None
    assert fives.analysis({"format": "fives/1"}) is None


def test_dice_advice_is_the_exact_odds_of_the_roll_on_the_table() -> None:
    state = DICE.new_state(DICE.parse_rules(None, 1), 1)
    assert DICE.advice(state, 0) is None  # no roll yet
    DICE.apply_chance(state, {"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, 4]}, 0)
    advice = DICE.advice(state, 0)
    assert advice is not None
    assert advice["dice"] == [1, 2, 3, 4, 4] and advice["round"] == 0
    assert advice["stand"] == 40  # the small straight 1 2 3 4 beats the pair of fours
    assert advice["fallback"] == 10
    expected = [o["expected"] for o in advice["options"]]
    assert expected == sorted(expected, reverse=True)
    assert advice["best"] == advice["options"][0]
    assert advice["best"] == odds.best([1, 2, 3, 4, 4]).to_dict()
    keeps = [tuple(o["keep"]) for o in advice["options"] if o["type"] == "improve"]
    assert len(keeps) == len(set(keeps)) == len(odds.options([1, 2, 3, 4, 4])) - 1
    assert DICE.advice(state, 1) is None  # not that seat's decision
    json.dumps(advice)  # JSON-ready


def test_dice_analysis_puts_each_decision_beside_the_best() -> None:
    record = {
        "format": "dice/1", "players": ["ann"], "rules": {"rounds": 1},
        # A pair of sixes rerolled from nothing (keep none): a poor decision.
        "actions": [{"type": "roll", "seat": 0, "dice": [6, 6, 1, 2, 4]},
                    {"type": "improve", "seat": 0, "keep": [], "dice": [1, 1, 2, 3, 5]}],
    }
    analysis = DICE.analysis(record)
    assert analysis is not None
    (decision,) = analysis["decisions"]
    assert decision["decision"] == {"type": "improve", "keep": [],
                                    "expected": pytest.approx(float(
                                        odds.keep_expectation([6, 6, 1, 2, 4], [])))}
    assert decision["best"] == odds.best([6, 6, 1, 2, 4]).to_dict()
    assert decision["cost"] > 0
    assert analysis["seats"] == [{"seat": 0, "decisions": 1, "best": 0,
                                  "cost": decision["cost"]}]
    assert DICE.analysis({"format": "dice/1", "players": []}) is None  # malformed


def test_the_board_is_named_on_the_plugin_and_exists() -> None:
    assert DICE.board_template == "games/dice/board.html"
    assert DICE.board_module == "games/dice/board.js"
    get_template(DICE.board_template)
    assert finders.find(DICE.board_module), "board.js is not on the static path"
    assert finders.find("games/dice/board.css"), "board.css is not on the static path"


# ------------------------------------------------------------------ GET .../advice

def test_advice_for_my_own_decision_in_a_casual_match() -> None:
    (me,) = users("solo")
    match = do_create_match(me, game="dice", rated=False)
    answer = client_for(me).get(f"/api/matches/{match.pk}/advice")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    table = DICE.view(load_engine(match), 0)["table"]
    assert data["ok"] and data["seat"] == 0
    assert data["version"] == Match.objects.get(pk=match.pk).version
    assert data["advice"]["dice"] == table["dice"]
    assert data["advice"]["stand"] == table["stand_records"]


def test_advice_is_refused_where_it_must_be() -> None:
    ann, bob, eve = users("ann", "bob", "eve")
    rated = do_create_match(ann, bob, game="dice", rated=True)
    assert rated.rated
    for user in (ann, bob):
        answer = client_for(user).get(f"/api/matches/{rated.pk}/advice")
        assert (answer.status_code, answer.json()["code"]) == (403, "rated")
    casual = do_create_match(ann, bob, game="dice", rated=False)
    engine = load_engine(casual)
    while engine.to_act() is None:  # the order dice are rolled by the server
        casual = Match.objects.get(pk=casual.pk)
        engine = load_engine(casual)
    waiting = [ann, bob][1 - engine.to_act()]
    answer = client_for(waiting).get(f"/api/matches/{casual.pk}/advice")
    assert (answer.status_code, answer.json()["code"]) == (409, "no_advice")
    answer = client_for(eve).get(f"/api/matches/{casual.pk}/advice")
    assert (answer.status_code, answer.json()["code"]) == (403, "forbidden")
    answer = client_for(None).get(f"/api/matches/{casual.pk}/advice")
    assert answer.status_code == 401
    answer = client_for(ann).post(f"/api/matches/{casual.pk}/advice")
    assert answer.status_code == 405
    answer = client_for(ann).get("/api/matches/00000000-0000-0000-0000-000000000000/advice")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    assert do_command(casual.pk, ann, {"action": {"seat": 0, "type": "resign"}}).ok
    answer = client_for(bob).get(f"/api/matches/{casual.pk}/advice")
    assert (answer.status_code, answer.json()["code"]) == (409, "over")


# ------------------------------------------------------------------ GET .../analysis

def test_analysis_once_over_and_public() -> None:
    ann, bob = users("ann", "bob")
    match = do_create_match(ann, bob, game="dice", rated=False)
    answer = client_for(None).get(f"/api/matches/{match.pk}/analysis")
    assert (answer.status_code, answer.json()["code"]) == (409, "running")
    done = play_out(match, [ann, bob])
    answer = client_for(None).get(f"/api/matches/{done.pk}/analysis")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["ok"] and data["game"] == "dice" and data["players"] == ["ann", "bob"]
    record = export_record(done)
    assert len(data["decisions"]) == sum(
        1 for a in record["actions"] if a["type"] in ("stand", "improve")) == 10
    ranks = list(done.match_seats.order_by("index").values_list("rank", flat=True))
    assert DICE.view(load_engine(done), None)["result"]["ranks"] == ranks  # for the page
    # The careful computer maximizes the expectation: it never gives points away.
    assert [s["decisions"] for s in data["seats"]] == [5, 5]
    assert [s["best"] for s in data["seats"]] == [5, 5]
    assert all(d["cost"] == pytest.approx(0, abs=1e-9) for d in data["decisions"])


def test_the_easy_computer_gives_points_away() -> None:
    (me,) = users("easy")
    done = play_out(do_create_match(me, game="dice", rated=False,
                                    rules={"rounds": 25}), [me], level="easy")
    data = client_for(me).get(f"/api/matches/{done.pk}/analysis").json()
    assert data["seats"][0]["decisions"] == 25
    assert data["seats"][0]["cost"] > 0
    assert data["seats"][0]["best"] < 25


def test_no_analysis_for_a_game_without_one() -> None:
    ann, bob = users("ann", "bob")
    match = make_match(ann, bob, game="fives", status=Match.Status.ABORTED)
    answer = client_for(None).get(f"/api/matches/{match.pk}/analysis")
    assert (answer.status_code, answer.json()["code"]) == (404, "no_analysis")


# ------------------------------------------------------------------ personal bests

def solo(user: User, score: int, days_ago: float = 0, rules: Any = None, **fields: Any) -> Match:
    fields.setdefault("status", Match.Status.FINISHED)
    fields.setdefault("reason", "finished")
    return make_match(user, game="dice", scores=[score], rules=rules or {},
                      finished_at=timezone.now() - timedelta(days=days_ago), **fields)


def test_the_solo_leaderboard_is_each_players_best_per_variant_and_period() -> None:
    ann, bob, cid, dan = users("ann", "bob", "cid", "dan")
    standard = standard_key(DICE)
    solo(ann, 200, days_ago=40)
    solo(ann, 150, days_ago=1, rules={"rounds": 5, "quick": False, "decision_s": 30})
    solo(bob, 180, days_ago=10)
    first_cid = solo(cid, 180, days_ago=12)
    solo(cid, 180, days_ago=2)
    solo(dan, 400, rules={"rounds": 7})  # another variant
    solo(dan, 999, reason="resign")  # left before the end: no total
    solo(dan, 999, status=Match.Status.ANNULLED)
    solo(dan, 999, status=Match.Status.ACTIVE)
    make_match(ann, bob, game="dice", scores=[500, 10], status=Match.Status.FINISHED,
               reason="finished", finished_at=timezone.now())  # not alone

    rows, bests = leaderboard(DICE, standard, "all")
    assert [(r.username, r.score, r.rank) for r in rows] == [
        ("ann", 200, 1), ("cid", 180, 2), ("bob", 180, 2)]  # cid reached 180 first
    assert rows[1].match_id == first_cid.pk and rows[1].games == 2
    assert rows[0].games == 2  # stored in full or partly, the same variant
    assert set(bests) == {ann.pk, bob.pk, cid.pk}
    month, _ = leaderboard(DICE, standard, "month")
    assert [(r.username, r.score) for r in month] == [("cid", 180), ("bob", 180), ("ann", 150)]
    week, _ = leaderboard(DICE, standard, "week")
    assert [(r.username, r.score) for r in week] == [("cid", 180), ("ann", 150)]
    seven = variant_key({"rounds": 7, "quick": False, "decision_s": 30})
    assert [(r.username, r.score) for r in leaderboard(DICE, seven, "all")[0]] == [("dan", 400)]
    found = variants(DICE)
    assert [(v.key, v.games, v.standard) for v in found] == [
        (standard, 5, True), (seven, 1, False)]
    assert found[0].label == "Standard rules" and found[1].label == "Rounds: 7"
    top_one, _ = leaderboard(DICE, standard, "all", limit=1)
    assert [r.username for r in top_one] == ["ann"]


def test_a_players_own_bests() -> None:
    (ann,) = users("ann")
    old = solo(ann, 210, days_ago=100)
    solo(ann, 120, days_ago=20)
    recent = solo(ann, 90, days_ago=3)
    solo(ann, 60, days_ago=2, rules={"rounds": 3})
    (mine, three) = player_bests(DICE, ann)
    assert mine.variant == standard_key(DICE) and mine.games == 3
    assert mine.all_time is not None and mine.all_time.match_id == old.pk
    assert mine.month is not None and mine.month.score == 120
    assert mine.week is not None and (mine.week.score, mine.week.match_id) == (90, recent.pk)
    assert mine.average == 140.0
    assert three.label == "Rounds: 3" and three.games == 1


def test_the_bests_page() -> None:
    ann, bob = users("ann", "bob")
    solo(ann, 222)
    solo(bob, 111, days_ago=9)
    page = client_for(None).get("/games/dice/bests/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index('data-player="ann"') < html.index('data-player="bob"')
    assert 'data-testid="my-bests"' not in html
    week = client_for(bob).get("/games/dice/bests/?period=week").content.decode()
    assert 'data-player="ann"' in week and 'data-player="bob"' not in week
    assert 'data-testid="my-bests-table"' in week  # bob's own bests (all time) are listed
    mine = client_for(bob).get("/games/dice/bests/").content.decode()
    assert 'data-testid="my-rank"' in mine and "rank 2 of 2" in mine
    seven = variant_key({"rounds": 7, "quick": False, "decision_s": 30})
    other = client_for(None).get("/games/dice/bests/", {"variant": seven, "period": "x"})
    html = other.content.decode()  # a variant nobody played alone: the standard one, all time
    assert 'data-player="ann"' in html and 'data-player="bob"' in html
    assert client_for(None).get("/games/fives/bests/").status_code == 404  # not played alone
    assert client_for(None).get("/games/chess/bests/").status_code == 404


def test_a_solo_game_played_out_is_a_personal_best() -> None:
    (me,) = users("me")
    done = play_out(do_create_match(me, game="dice", rated=False), [me])
    rows, _ = leaderboard(DICE, standard_key(DICE), "week")
    assert [(r.username, r.score, r.match_id) for r in rows] == [("me", done.scores[0], done.pk)]


@pytest.mark.django_db(transaction=True)
def test_a_game_that_ends_on_a_re_roll_through_the_optimistic_path_is_finished() -> None:
    """Outside a transaction a move goes to the process's copy of the match first; when
    the re-roll that follows an improvement ends the game, the end is written too."""
    (me,) = users("last")
    match = do_create_match(me, game="dice", rated=False, rules={"rounds": 3})
    for _ in range(3):
        current = Match.objects.get(pk=match.pk)
        assert current.status == Match.Status.ACTIVE
        result = do_command(current.pk, me, {"action": {"seat": 0, "type": "improve", "keep": []},
                                             "version": current.version})
        assert result.ok, result
    done = Match.objects.get(pk=match.pk)
    assert done.status == Match.Status.FINISHED and done.finished_at is not None
    assert done.scores == DICE.scores(load_engine(done))
    assert list(done.match_seats.values_list("rank", "score")) == [(1, done.scores[0])]
