"""Scheduling the Celery task that looks at a match at its clock's next deadline.

The match writer (``services``) asks for it after each commit; the task itself
(``tasks.check_deadline``) re-arms it when the clock moved on. Sent by name, so that
this module needs nothing of the task's.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

from celery import current_app

from games.live.heartbeat import redis_client

log = logging.getLogger(__name__)
CHECK_DEADLINE = "games.tasks.check_deadline"


def _pending_key(match_id: Any) -> str:
    return f"deadline-task:{match_id}"


def forget_pending(match_id: Any) -> None:
    """The deadline task of this match has fired: no task is pending for it now."""

    _known_pending.pop(str(match_id), None)

    try:
        redis_client().delete(_pending_key(match_id))
    except Exception:
        log.warning("deadline bookkeeping unavailable", exc_info=True)


# Deadline tasks this process knows to be pending (scheduled here, or read from Redis):
# a task, once sent, fires at its time, so until then nothing needs asking again.
_known_pending: dict[str, float] = {}
KNOWN_PENDING_MAX = 20_000
KNOWN_MARGIN_S = 0.25


def _remember(match_id: str, eta: float, now: float) -> None:
    if len(_known_pending) >= KNOWN_PENDING_MAX:
        for key, when in list(_known_pending.items()):
            if when <= now:
                _known_pending.pop(key, None)
        if len(_known_pending) >= KNOWN_PENDING_MAX:
            _known_pending.clear()
    _known_pending[match_id] = eta


def schedule_deadline(match_id: Any, deadline_wall: float) -> None:
    """Make sure a task will look at the match at its deadline.

    Most moves push the deadline later, so one pending task per match is enough: when
    it fires early it re-arms itself for the new deadline. A new task is sent only when
    none is pending or the new deadline comes before the pending one (Redis remembers
    the earliest pending time; each process also remembers what it has seen, so most
    moves ask nothing at all).
    """

    match_key = str(match_id)
    now = time.time()
    known = _known_pending.get(match_key)
    # Trusted only until shortly before its time: a task may fire a little early, and
    # from then on Redis (which the firing task clears) is asked instead.
    if known is not None and now + KNOWN_MARGIN_S < known <= deadline_wall + 0.001:
        return
    key = _pending_key(match_id)
    try:
        client = redis_client()
        pending = client.get(key)
        if pending is not None and now < float(pending) <= deadline_wall + 0.001:
            _remember(match_key, float(pending), now)
            return
        client.set(key, f"{deadline_wall:.6f}", ex=max(1, int(deadline_wall - now) + 60))
    except Exception:
        log.warning("deadline bookkeeping unavailable", exc_info=True)
    eta = datetime.fromtimestamp(deadline_wall + 0.001, tz=UTC)
    try:
        # By name: the task's module imports this one (tasks -> services -> deadlines).
        current_app.send_task(CHECK_DEADLINE, (match_key,), eta=eta, ignore_result=True)
    except Exception:
        log.warning("could not schedule the deadline of %s", match_id, exc_info=True)
        return
    _remember(match_key, deadline_wall, now)
