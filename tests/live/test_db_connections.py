"""HTTP requests do not pile up database connections (PostgreSQL, two daphne processes).

Under ASGI each synchronous view may run on a thread of its own; connections kept per
thread used to stay open until the garbage collector found them, until the server had
none left. Now they come from a bounded pool per process (config/settings.py).
"""

from __future__ import annotations

import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection

from games.play.services import do_create_match
from tests.conftest import need

from .helpers import make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

REQUESTS = 500
# Two web processes with a pool of DB_POOL_MAX each, the Celery worker and beat (a few
# each), and this test's own connection.
BOUND = 2 * settings.DB_POOL_MAX + 10


def platform_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                       " AND pid <> pg_backend_pid()")
        row = cursor.fetchone()
    return int(row[0])


def get(url: str, token: str | None) -> int:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_500_mixed_requests_keep_the_connection_count_bounded(live_stack) -> None:
    need(connection.vendor == "postgresql", "the connection count is PostgreSQL's")
    alice, token = make_player("alice")
    bob, _ = make_player("bob")
    match = do_create_match(alice, bob, rated=False)
    paths = [("/api/me", token), ("/leaderboard/", None), ("/history/", None),
             (f"/api/matches/{match.pk}", token), (f"/matches/{match.pk}/", None),
             ("/players/alice/", None), ("/", None), ("/rules/", None),
             ("/api/matches?status=active", token), ("/api/seeks", token)]
    jobs = [(live_stack.urls[i % 2] + paths[i % len(paths)][0],
             paths[i % len(paths)][1]) for i in range(REQUESTS)]
    counts = []
    with ThreadPoolExecutor(16) as pool:
        # A warm-up round first: the pools grow to what 16 requests at once need (and the
        # Celery worker and beat open theirs) before anything is counted.
        assert not [s for s in pool.map(lambda job: get(*job), jobs[:64]) if s >= 500]
        for half in (jobs[: REQUESTS // 2], jobs[REQUESTS // 2 :]):
            statuses = list(pool.map(lambda job: get(*job), half))
            assert not [s for s in statuses if s >= 500], statuses
            counts.append(platform_connections())
    assert max(counts) <= BOUND, counts
    # The second half of the requests opened nothing the first had not: the pool is reused.
    assert counts[1] <= counts[0] + 2, counts
