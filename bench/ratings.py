"""Ratings at scale: recompute 100,000 matches between 2,000 players; the history page.

    python -m bench.ratings [--matches 100000] [--players 2000] [--heavy 5000]

Uses DATABASE_URL (PostgreSQL; default postgres://postgres@127.0.0.1:5432/bench_ratings,
created and filled if empty). Prints ``recompute_s`` (target < 20) and the server
time of the history and profile pages of a player with ``--heavy`` matches
(target < 100 ms).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/bench_ratings"


def _flush(rows: list[Any], seats: list[Any]) -> None:
    from games.models import Match, MatchSeat

    Match.objects.bulk_create(rows, batch_size=2000)
    MatchSeat.objects.bulk_create(seats, batch_size=5000)


def seed(matches: int, players: int, heavy: int) -> None:
    from django.contrib.auth.models import User

    from games.models import Match, MatchSeat

    if Match.objects.count() >= matches:
        return
    print(f"seeding {players} players and {matches} matches ...", flush=True)
    Match.objects.all().delete()
    User.objects.filter(username__startswith="r_").delete()
    User.objects.bulk_create(
        [User(username=f"r_{i}", password="!") for i in range(players)], batch_size=5000)
    ids = list(User.objects.filter(username__startswith="r_").order_by("id")
               .values_list("id", flat=True))
    heavy_id = ids[0]
    rng = random.Random(1)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
    rows, seats = [], []
    for n in range(matches):
        if n % (matches // heavy) == 0:
            a, b = heavy_id, rng.choice(ids[1:])
        else:
            a, b = rng.sample(ids, 2)
        winner = rng.randrange(2)
        when = start + timedelta(minutes=n)
        match = Match(
            seat_users=[a, b], seat_names=[names[a], names[b]], rated=True,
            status=Match.Status.FINISHED, winner=winner,
            reason=rng.choice(["points", "points", "time", "resign"]),
            scores=[300, 0] if winner == 0 else [0, 300], started_wall=when.timestamp(),
            finished_at=when, rating_seq=n + 1,
        )
        rows.append(match)
        seats += [MatchSeat(match=match, index=i, user_id=u, rank=1 if winner == i else 2,
                            score=match.scores[i]) for i, u in enumerate((a, b))]
        if len(rows) == 2000:  # a batch's parameters stay under PostgreSQL's 65,535
            _flush(rows, seats)
            rows, seats = [], []
    _flush(rows, seats)
    # created_at is auto_now_add: spread it so the date filters and ordering are realistic.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_match SET created_at = finished_at")
        cursor.execute("ANALYZE")
    from ratings.models import RatingLedger

    RatingLedger.objects.update_or_create(pk=1, defaults={"last_seq": matches})


def time_page(client: object, path: str, repeats: int = 20) -> float:
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        response = client.get(path)  # type: ignore[attr-defined]
        timings.append(time.perf_counter() - started)
        assert response.status_code == 200, response.status_code
    return statistics.median(timings) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--heavy", type=int, default=5_000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    sys.path.insert(0, str(ROOT))
    from bench.live import ensure_database

    ensure_database(os.environ["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from ratings.services import rebuild_from

    call_command("migrate", verbosity=0)
    seed(args.matches, args.players, args.heavy)
    started = time.perf_counter()
    replayed = rebuild_from(0)
    recompute_s = time.perf_counter() - started
    print(f"matches_rated: {replayed}")
    print(f"recompute_s: {recompute_s:.2f}")
    client = Client()
    print(f"history_page_ms: {time_page(client, '/players/r_0/history/'):.1f}")
    print(f"history_page_filtered_ms: "
          f"{time_page(client, '/players/r_0/history/?result=win&rated=rated&page=40'):.1f}")
    print(f"profile_page_ms: {time_page(client, '/players/r_0/'):.1f}")
    print(f"everyone_history_ms: {time_page(client, '/history/?page=100'):.1f}")
    print(f"leaderboard_ms: {time_page(client, '/leaderboard/'):.1f}")


if __name__ == "__main__":
    main()
