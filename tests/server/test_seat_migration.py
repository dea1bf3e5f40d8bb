"""Migration 0006: every match played before seats existed keeps its players, result and
log, and still replays."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.spectacular_bid.plugin import GAME as SB

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0004_match_last_t_us"), ("ratings", "0001_initial"),
          ("accounts", "0001_initial")]
AFTER = [("games", "0008_seats_replace_seat0_seat1")]


def test_old_matches_get_their_seats_and_still_replay() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User, Match, Event = (old.get_model("auth", "User"), old.get_model("games", "Match"),
                          old.get_model("games", "MatchEvent"))
    alice = User.objects.create(username="alice")
    bob = User.objects.create(username="bob")
    done = Match.objects.create(seat0=alice, seat1=bob, status="finished", winner=1,
                                reason="resign", rated=False, balances=[150, 150],
                                started_wall=0.0, version=3)
    deal = SB.sample_chance(SB.new_state(SB.parse_rules(None, 2), 2), random.Random(4))
    Event.objects.create(match=done, seq=1, kind="deal", payload=deal, t_us=0)
    Event.objects.create(match=done, seq=2, kind="action", seat=0,
                         payload={"seat": 0, "type": "continue"}, t_us=1000)
    Event.objects.create(match=done, seq=3, kind="action", seat=0,
                         payload={"seat": 0, "type": "resign"}, t_us=2000)
    running = Match.objects.create(seat0=bob, seat1=alice, balances=[150, 150],
                                   started_wall=0.0)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from games.models import Match as NewMatch
    from games.models import MatchEvent, MatchSeat
    from games.play.store import load_engine, rebuild

    finished = NewMatch.objects.get(pk=done.pk)
    assert finished.seat_users == [alice.pk, bob.pk]
    assert finished.seat_names == ["alice", "bob"]
    assert finished.scores == [150, 150] and finished.chances == 1
    seats = list(MatchSeat.objects.filter(match=finished).order_by("index")
                 .values_list("user_id", "rank", "score"))
    assert seats == [(alice.pk, 2, 150), (bob.pk, 1, 150)]
    assert set(MatchEvent.objects.filter(match=finished).values_list("kind", flat=True)) == {
        "chance", "action"}
    engine = rebuild(finished)
    assert engine.result is not None and engine.result.winner == 1
    assert load_engine(finished).view(None) == engine.view(None)
    active = NewMatch.objects.get(pk=running.pk)
    assert active.seat_users == [bob.pk, alice.pk]
    assert list(MatchSeat.objects.filter(match=active).values_list("rank", flat=True)) == [
        None, None]
