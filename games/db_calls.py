"""Running the match writer from the websocket consumer's event loop.

Channels' ``database_sync_to_async`` runs ``close_old_connections`` before and after
every call, and with ``CONN_HEALTH_CHECKS`` that costs a ``SELECT 1`` round trip per
command: a sixth of a move's database work. Here a connection is only looked at when
it has had an error, has outlived ``CONN_MAX_AGE`` or was left outside autocommit;
a connection that died while idle costs the next command one retry (see consumers).
"""

from __future__ import annotations

import time
from typing import Any

from asgiref.sync import SyncToAsync
from django.db import connections


def tidy_connections() -> None:
    """Close the connections that had errors, are too old, or were left in a transaction."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        too_old = conn.close_at is not None and time.monotonic() >= conn.close_at
        left_open = conn.get_autocommit() != conn.settings_dict["AUTOCOMMIT"]
        if conn.errors_occurred or too_old or left_open:
            conn.close_if_unusable_or_obsolete()


class WriterSyncToAsync(SyncToAsync):
    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            tidy_connections()


writer_sync_to_async = WriterSyncToAsync
