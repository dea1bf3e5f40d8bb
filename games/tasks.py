"""Celery tasks: a task at every clock deadline, and a sweep every second (the safety net).

Both only call ``services.do_advance``; the engine decides what the time means.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

from celery import shared_task

from . import services
from .models import Match

log = logging.getLogger(__name__)


@shared_task(name="games.tasks.check_deadline", ignore_result=True)
def check_deadline(match_id: str) -> None:
    services.do_advance(match_id)


@shared_task(name="games.tasks.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    """Advance every active match whose deadline has passed (a lost or late task)."""
    now = time.time()
    overdue = list(
        Match.objects.filter(status=Match.Status.ACTIVE, deadline_at__lte=now)
        .values_list("pk", flat=True)[:500]
    )
    for match_id in overdue:
        try:
            services.do_advance(match_id, now)
        except Exception:
            log.exception("sweep failed for match %s", match_id)
    return len(overdue)


def schedule_deadline(match_id: Any, deadline_wall: float) -> None:
    """Ask a worker to look at the match at its deadline (plus a hair, so it has passed)."""
    eta = datetime.fromtimestamp(deadline_wall + 0.001, tz=UTC)
    try:
        check_deadline.apply_async((str(match_id),), eta=eta)
    except Exception:
        log.warning("could not schedule the deadline of %s", match_id, exc_info=True)

