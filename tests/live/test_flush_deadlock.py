"""The flush after a transactional test outlasts a deadlock (tests/conftest.py).

The live stack's processes may still be at work when a test ends, and the flush's
TRUNCATE of every table can then deadlock with one of them; PostgreSQL cancels one side.
Here the other side is a second connection of the test's own: it reads the table the
TRUNCATE locks last, then one that the TRUNCATE holds already. Its deadlock check is put
off, so the check that finds the deadlock is the flush's own, and the flush is cancelled;
tried again, it goes through once that connection has committed.
"""

from __future__ import annotations

import re
import threading
import time

import psycopg
import pytest
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection, connections

from tests.conftest import need

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def deadlocks() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        row = cursor.fetchone()
    return int(row[0])


def test_the_flush_is_tried_again_after_a_deadlock() -> None:
    need(connection.vendor == "postgresql", "needs PostgreSQL: set DATABASE_URL")
    statements = sql_flush(no_style(), connection)
    tables = re.findall(r'"(\w+)"', statements[0])
    assert statements[0].startswith("TRUNCATE") and len(tables) > 2
    info = connection.settings_dict
    other = psycopg.connect(dbname=info["NAME"], user=info["USER"] or None,
                            password=info["PASSWORD"] or None, host=info["HOST"] or None,
                            port=info["PORT"] or None)
    before = deadlocks()
    failures: list[BaseException] = []

    def flush() -> None:
        try:
            connections["default"].ops.execute_sql_flush(statements)
        except BaseException as error:  # noqa: BLE001 (reported by the test)
            failures.append(error)
        finally:
            connections["default"].close()

    try:
        with other.cursor() as cursor:
            cursor.execute("SET deadlock_timeout = '30s'")
            cursor.execute(f'SELECT 1 FROM "{tables[-1]}" LIMIT 1')
            flusher = threading.Thread(target=flush)
            flusher.start()
            time.sleep(0.5)  # the TRUNCATE holds every table but the last, and waits
            cursor.execute(f'SELECT 1 FROM "{tables[0]}" LIMIT 1')  # the deadlock
        other.commit()
        flusher.join(30)
    finally:
        other.close()
    assert not flusher.is_alive() and not failures, failures
    assert deadlocks() == before + 1
