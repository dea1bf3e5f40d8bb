"""Celery tasks: a task at every clock deadline, and a sweep every second (the safety net).

Both only call ``services.do_advance``; the engine decides what the time means. And the
game review of a finished match (``games/play/review.py``).
"""

from __future__ import annotations

import logging
import time

from celery import shared_task

from games.models import Match
from games.play import review, services
from games.play.deadlines import forget_pending, schedule_deadline

log = logging.getLogger(__name__)


def _deadline_of(match_id: str) -> float | None:
    return (Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE)
            .values_list("deadline_at", flat=True).first())


@shared_task(name="games.tasks.check_deadline", ignore_result=True)
def check_deadline(match_id: str) -> None:
    forget_pending(match_id)  # this task is no longer pending, whatever happens next
    deadline = _deadline_of(match_id)
    if deadline is not None and deadline <= time.time() + EARLY_S:
        time.sleep(max(0.0, deadline - time.time()))  # the timer may fire a hair early
        services.do_advance(match_id)
        deadline = _deadline_of(match_id)
    if deadline is not None:
        schedule_deadline(match_id, deadline)  # the clock moved on: re-arm for it


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


@shared_task(name=review.REVIEW_TASK, ignore_result=True)
def review_match(match_id: str) -> None:
    review.run_review(match_id)


EARLY_S = 0.05
