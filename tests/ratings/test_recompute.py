"""Live rating updates equal a rebuild from the history, also after an annulment."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User

from games.models import Match, MatchSeat
from games.play.services import do_annul
from ratings.models import Rating, RatingChange
from ratings.services import apply_match, changes_snapshot, rebuild_from, snapshot
from tests.factories import make_match

pytestmark = pytest.mark.django_db


def finish(match: Match, winner: int, reason: str = "points") -> None:
    """What the match writer does when a rated match ends."""
    match.status = Match.Status.FINISHED
    match.winner = winner
    match.reason = reason
    match.save()
    ranks = [1 if seat == winner else 2 for seat in range(match.seat_count)]
    finish_ranked(match, ranks)


def finish_ranked(match: Match, ranks: list[int]) -> None:
    match.status = Match.Status.FINISHED
    match.save()
    for seat, rank in enumerate(ranks):
        MatchSeat.objects.filter(match=match, index=seat).update(rank=rank)
    apply_match(match, ranks)


def simulate(count: int, players: int = 12, seed: int = 7) -> list[Match]:
    rng = random.Random(seed)
    users = [User.objects.create_user(f"p{i}") for i in range(players)]
    matches = []
    for _ in range(count):
        a, b = rng.sample(users, 2)
        match = make_match(a, b, rated=rng.random() < 0.9,
                                     started_wall=0.0)
        kind = rng.random()
        if kind < 0.05:
            match.status = Match.Status.ABORTED
            match.reason = "abort"
            match.save()
        elif kind < 0.08:
            match.status = Match.Status.ANNULLED
            match.reason = "annulled"
            match.save()
        else:
            finish(match, rng.choice([0, 1]), rng.choice(["points", "time", "resign"]))
        matches.append(match)
    return matches


def test_recompute_equals_the_live_updates() -> None:
    simulate(300)
    live, live_changes = snapshot(), changes_snapshot()
    assert RatingChange.objects.count() > 400
    rebuild_from(0)
    assert snapshot() == live
    assert changes_snapshot() == live_changes


def test_annulling_a_finished_match_rebuilds_from_it_as_if_it_never_counted() -> None:
    matches = simulate(200)
    rated = [m for m in matches if m.rating_seq is not None]
    middle = rated[len(rated) // 2]
    middle.refresh_from_db()
    do_annul(middle, "test: annulled by staff")
    middle.refresh_from_db()
    assert middle.status == Match.Status.ANNULLED and middle.rating_seq is None
    assert not RatingChange.objects.filter(match=middle).exists()
    after_annul, changes_after = snapshot(), changes_snapshot()
    rebuild_from(0)  # a full rebuild agrees with the partial one
    assert snapshot() == after_annul
    assert changes_snapshot() == changes_after


def test_aborted_annulled_and_casual_matches_never_change_a_rating() -> None:
    a, b = User.objects.create_user("a"), User.objects.create_user("b")
    for status, rated in ((Match.Status.ABORTED, True), (Match.Status.ANNULLED, True),
                          (Match.Status.FINISHED, False)):
        match = make_match(a, b, rated=rated, status=status, winner=0,
                                     started_wall=0.0)
        apply_match(match, [1, 2])
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_a_win_between_new_players_moves_20_points() -> None:
    a, b = User.objects.create_user("a"), User.objects.create_user("b")
    match = make_match(a, b, rated=True, started_wall=0.0)
    finish(match, 1)
    assert Rating.objects.get(user=a).rating == 1480
    winner = Rating.objects.get(user=b)
    assert (winner.rating, winner.games, winner.wins, winner.display) == (1520, 1, 1, "1520?")


def test_four_player_matches_rate_pairwise_and_recompute_exactly() -> None:
    rng = random.Random(3)
    users = [User.objects.create_user(f"f{i}") for i in range(8)]
    for _ in range(60):
        table = rng.sample(users, 4)
        match = make_match(*table, game="fives", rated=True, started_wall=0.0)
        ranks = [1, 2, 3, 4]
        rng.shuffle(ranks)
        if rng.random() < 0.2:
            ranks = [1, 1, 3, 4]  # equal scores share a rank
        finish_ranked(match, ranks)
    live, live_changes = snapshot(), changes_snapshot()
    assert RatingChange.objects.filter(game="fives").count() == 240
    rebuild_from(0)
    assert snapshot() == live
    assert changes_snapshot() == live_changes


def test_a_four_player_win_between_new_players() -> None:
    table = [User.objects.create_user(f"n{i}") for i in range(4)]
    match = make_match(*table, game="fives", rated=True, started_wall=0.0)
    finish_ranked(match, [2, 1, 4, 3])
    # K 40 / 3 others, every expectation 1/2: first +20, second +6.67 -> 7, third -7, last -20.
    got = [Rating.objects.get(user=u, game="fives").rating for u in table]
    assert got == [1507, 1520, 1480, 1493]
