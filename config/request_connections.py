"""HTTP requests hold a database connection only while they run.

Under ASGI a synchronous view may run on a thread of its own, and a connection kept
for later use in that thread is never used again: it stays open on the server until
the garbage collector finds it. PostgreSQL connections come from the pool, which
Django's own end-of-request check returns them to (CONN_MAX_AGE is 0 with the pool);
any other connection of the request's thread is closed here.
"""

from __future__ import annotations

from typing import Any

from django.core.signals import request_finished
from django.db import connections


def close_request_connections(**kwargs: Any) -> None:
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.settings_dict["OPTIONS"].get("pool"):
            continue
        if conn.in_atomic_block:  # a test's transaction around the request: not ours
            continue
        conn.close()


def connect() -> None:
    request_finished.connect(close_request_connections,
                             dispatch_uid="close_request_connections")
