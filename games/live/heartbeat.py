"""The web tier's heartbeat, and whether it had an outage while a clock ran.

Every web process beats each HEARTBEAT_INTERVAL_S. A stretch of more than OUTAGE_GAP_S
without any beat means nobody could send a command then; a flag that falls across such
a stretch annuls the match (§7).

The beats are kept as runs, not one by one: a Redis sorted set holds one member per
process and run of beats (``pid:start``), scored with the run's last beat, and a beat
within OUTAGE_GAP_S of the process's previous one only moves that score on. So no gap
inside a run is longer than OUTAGE_GAP_S, the set stays a few members long however long
the platform runs (one beat per second and process for a day had been 170,000 members),
and an outage is a stretch that no run covers.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from functools import lru_cache
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)
BEATS_KEY = "web:heartbeat-runs"
# Where processes started before the runs kept one member per beat. Still read, so that
# a flag just after an upgrade sees the old processes' beats; it expires KEEP_S after.
LEGACY_BEATS_KEY = "web:heartbeats"
# Longer than any clock may run without a command (no game allows a bank over a day,
# nor a delay over an hour).
KEEP_S = 2 * 86_400


@lru_cache(maxsize=1)
def redis_client() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2,
                                max_connections=settings.REDIS_MAX_CONNECTIONS)


class Runs:
    """This process's current run of beats: when it started, and its last stored beat."""

    def __init__(self) -> None:
        self.started: float | None = None
        self.last: float | None = None
        self.legacy_expiring = False

    def member(self, now: float, gap: float) -> str:
        if self.started is None or self.last is None or now - self.last > gap:
            self.started = now  # a new run: the stretch since the last beat is uncovered
        return f"{os.getpid()}:{self.started:.6f}"


_runs = Runs()


def beat(now: float | None = None, runs: Runs = _runs) -> None:
    now = time.time() if now is None else now
    client = redis_client()
    member = runs.member(now, settings.OUTAGE_GAP_S)
    client.zadd(BEATS_KEY, {member: now})
    runs.last = now  # only once stored: a beat that failed does not extend the run
    client.zremrangebyscore(BEATS_KEY, "-inf", now - KEEP_S)
    if not runs.legacy_expiring:
        client.expire(LEGACY_BEATS_KEY, int(KEEP_S))
        runs.legacy_expiring = True


def _beat_forever(interval: float) -> None:
    while True:
        try:
            beat()
        except Exception:
            log.warning("heartbeat failed", exc_info=True)
        time.sleep(interval)


_started = False


def start_web_heartbeat() -> None:
    """Start the beating thread once per web process (no-op without Redis)."""
    global _started
    if _started or not settings.REDIS_URL:
        return
    _started = True
    thread = threading.Thread(target=_beat_forever, args=(settings.HEARTBEAT_INTERVAL_S,),
                              name="web-heartbeat", daemon=True)
    thread.start()


def had_outage(start: float, end: float) -> bool:
    """True when the web tier missed beats for more than OUTAGE_GAP_S within [start, end]."""
    if not settings.OUTAGE_ANNULS or not settings.REDIS_URL or end <= start:
        return False
    gap: float = settings.OUTAGE_GAP_S
    try:
        reads = redis_client().pipeline(transaction=False)
        reads.zrangebyscore(BEATS_KEY, start - gap, "+inf", withscores=True)
        reads.zrangebyscore(LEGACY_BEATS_KEY, start - gap, end, withscores=True)
        found, legacy = reads.execute()
    except Exception:
        log.warning("cannot read heartbeats", exc_info=True)
        return True
    runs = sorted([*((_run_start(member), float(last)) for member, last in found),
                   *((float(moment), float(moment)) for _, moment in legacy)])
    covered_until = start
    for first, last in runs:
        if first > end:
            break
        if first - covered_until > gap:
            return True
        covered_until = max(covered_until, last)
    return end - covered_until > gap


def _run_start(member: bytes | str) -> float:
    text = member.decode() if isinstance(member, bytes) else member
    return float(text.rpartition(":")[2])
