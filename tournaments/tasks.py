"""Celery: the tournaments' tick, every second from beat (config/settings.py)."""

from __future__ import annotations

from celery import shared_task

from .lifecycle import do_tick


@shared_task(name="tournaments.tasks.tick", ignore_result=True)
def tick() -> int:
    return do_tick()
