"""Logging filters of the platform's own."""

from __future__ import annotations

import logging

from django.core.exceptions import RequestAborted


class DropAbortedRequests(logging.Filter):
    """Drops asyncio's "Task exception was never retrieved" for a request whose client
    went away: when daphne stops (Ctrl-C) under an open request it cancels Django's
    handler, and the handler's disconnect listener then raises ``RequestAborted`` in a
    task nobody awaits any more. A request cut short by a stop is not an error, and its
    traceback on the terminal looks like one."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, RequestAborted)
