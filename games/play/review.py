"""The game review of a finished match (``games/search/review.py``), stored in
``MatchReview``, for any game whose plugin has no analysis of its own (the domino games).

When a match finishes, the writer's ``match_finished`` signal (in its transaction) only
asks for a review after the commit: the row is made then, and the Celery task
``games.tasks.review_match`` (sent by name) does the work in a worker, never in the
writer. The task is idempotent: a review done, or running elsewhere, is left alone; one
queued or running for longer than ``STALE`` (a lost task, a worker that died) is taken
up again, and reading the review asks for one that is missing or stale (matches from
before reviews existed).
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from celery import current_app
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.engine.plugin import GamePlugin, RecordError
from games.models import Match, MatchReview
from games.play.store import export_record, log_of, plugin_of
from games.search.review import frame_indices, review
from games.signals import match_finished

log = logging.getLogger(__name__)
REVIEW_TASK = "games.tasks.review_match"
STALE = timedelta(minutes=15)  # far longer than any review takes (docs/api.md)
PROGRESS_EVERY_S = 0.5  # the least time between two writes of the progress


def has_review(plugin: GamePlugin) -> bool:
    """Whether this game's finished matches are reviewed: those of a game whose plugin
    gives no analysis of its own (``GamePlugin.analysis``)."""
    return type(plugin).analysis is GamePlugin.analysis


def reviewable(match: Match) -> bool:
    return match.status == Match.Status.FINISHED and has_review(plugin_of(match))


@receiver(match_finished, dispatch_uid="games.review.after_finish")
def review_after_finish(sender: Any, match: Match, **kwargs: Any) -> None:
    """In the writer's transaction: once it commits, ask for the review."""
    if has_review(plugin_of(match)):
        match_id = match.pk
        transaction.on_commit(lambda: request_review(match_id))


def request_review(match_id: Any) -> MatchReview | None:
    """Make the review's row (queued) and send the task, unless a review is done or
    under way; the row as it stands, None when the match has no review."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not reviewable(match):
        return None
    row, made = MatchReview.objects.get_or_create(match=match)
    if not made and not stale(row):
        return row
    if not made:
        MatchReview.objects.filter(pk=row.pk).update(
            status=MatchReview.Status.QUEUED, created_at=timezone.now())
        row.refresh_from_db()
    try:
        current_app.send_task(REVIEW_TASK, args=[str(match.pk)])
    except Exception:  # the broker is down: a later read asks again once it is stale
        log.warning("review task for match %s not sent", match.pk, exc_info=True)
    return row


def stale(row: MatchReview) -> bool:
    """A review to ask for again: failed, or queued or running for too long."""
    if row.status == MatchReview.Status.FAILED:
        return False  # it would fail again; staff may delete the row to retry
    if row.status == MatchReview.Status.DONE:
        return False
    since = row.started_at if row.status == MatchReview.Status.RUNNING else row.created_at
    return since is None or timezone.now() - since > STALE


def _claim(match_id: Any) -> MatchReview | None:
    """Mark the review running, unless it is done or another worker runs it."""
    with transaction.atomic():
        row = MatchReview.objects.select_for_update().filter(pk=match_id).first()
        if row is None or row.status in (MatchReview.Status.DONE, MatchReview.Status.FAILED):
            return None
        if row.status == MatchReview.Status.RUNNING and not stale(row):
            return None
        row.status = MatchReview.Status.RUNNING
        row.started_at = timezone.now()
        row.done, row.total = 0, None
        row.save(update_fields=["status", "started_at", "done", "total"])
        return row


def run_review(match_id: Any) -> bool:
    """The task's work: review the match, writing the progress as it goes, and store the
    result. False when there was nothing to do (done, running elsewhere, no such row)."""
    row = _claim(match_id)
    if row is None:
        return False
    match = Match.objects.get(pk=match_id)
    plugin = plugin_of(match)
    last_write = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done in (0, total) or now - last_write[0] >= PROGRESS_EVERY_S:
            last_write[0] = now
            MatchReview.objects.filter(pk=row.pk).update(done=done, total=total)

    try:
        result = review(plugin, match.rules or None, match.seat_count, log_of(match),
                        progress=progress)
        _add_frames(plugin, match, result)
    except Exception:
        log.exception("the review of match %s failed", match_id)
        MatchReview.objects.filter(pk=row.pk).update(
            status=MatchReview.Status.FAILED, finished_at=timezone.now())
        return True
    total = len(result["decisions"])
    MatchReview.objects.filter(pk=row.pk).update(
        status=MatchReview.Status.DONE, result=result, done=total, total=total,
        finished_at=timezone.now())
    return True


def _add_frames(plugin: GamePlugin, match: Match, result: dict[str, Any]) -> None:
    """Each decision's ``frame``: its place in the replay viewer's frames (None: none)."""
    try:
        frames = plugin.frames(export_record(match)).get("frames") or []
    except RecordError:
        frames = []
    for entry, frame in zip(result["decisions"], frame_indices(result["decisions"], frames),
                            strict=True):
        entry["frame"] = frame
