"""Running the match writer from the websocket consumer's event loop.

Channels' ``database_sync_to_async`` runs ``close_old_connections`` before and after
every call, and with ``CONN_HEALTH_CHECKS`` that costs a ``SELECT 1`` round trip per
command; asgiref's thread hop itself cost about as much CPU as the database calls.
Here commands run on a small pool of writer threads, each with its own connection,
through the event loop's plain ``run_in_executor``; a connection is only looked at
when it has had an error, has outlived ``CONN_MAX_AGE`` or was left outside
autocommit. A connection that died while idle costs the next call one retry
(``retried_once``).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.db import InterfaceError, OperationalError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper

T = TypeVar("T")
# A few threads: while one waits on PostgreSQL (a commit's WAL flush), another can run.
WRITER_THREADS = int(os.environ.get("WRITER_THREADS", "4"))
_executor: ThreadPoolExecutor | None = None
_writer_connections: list[BaseDatabaseWrapper] = []  # each writer thread's own


def tidy_connections() -> None:
    """Close the connections that had errors, are too old, or were left in a transaction.

    A writer thread keeps a pooled connection checked out (its age is not looked at): the
    threads are few, so the connections they hold are bounded (config/settings.py).
    """
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        pooled = bool(conn.settings_dict["OPTIONS"].get("pool"))
        too_old = (not pooled and conn.close_at is not None
                   and time.monotonic() >= conn.close_at)
        left_open = conn.get_autocommit() != conn.settings_dict["AUTOCOMMIT"]
        if conn.errors_occurred or too_old or left_open:
            conn.close_if_unusable_or_obsolete()


def _tidied(func: Callable[..., T], *args: Any) -> T:
    try:
        return func(*args)
    finally:
        tidy_connections()


async def run_in_writer(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)`` on a writer thread, in a copy of the caller's context (the outbox)."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(WRITER_THREADS, thread_name_prefix="match-writer",
                                       initializer=_note_own_connections)
    context = contextvars.copy_context()
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_executor, context.run, _tidied, func, *args)


def _note_own_connections() -> None:
    """A new writer thread's connection objects, kept so that ``stop_writers`` can close
    them (they are the thread's own: Django keeps one per thread)."""
    _writer_connections.extend(connections[alias] for alias in connections)


def stop_writers() -> None:
    """Stop the writer threads and close their connections, which they otherwise keep
    for the life of the process: at the end of a test run, before its database is
    dropped (PostgreSQL refuses while a connection to it is open)."""
    global _executor
    executor, _executor = _executor, None
    if executor is not None:
        executor.shutdown(wait=True)
    for wrapper in _writer_connections:
        wrapper.inc_thread_sharing()  # closed from this thread; its own thread has ended
        wrapper.close()
    _writer_connections.clear()


def retried_once(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)``, once more on a fresh connection if the database connection had
    died while idle (a database restart)."""
    try:
        return func(*args)
    except (OperationalError, InterfaceError):
        connection.close()
    return func(*args)


async def read_in_writer(func: Callable[..., T], *args: Any) -> T:
    """A database read on the writer threads: no ``close_old_connections`` and health
    check around it (Channels' ``database_sync_to_async`` pays both on every call)."""
    return await run_in_writer(retried_once, func, *args)
