"""The web tier's heartbeat, and whether it had an outage while a clock ran.

Every web process adds a beat to a Redis sorted set each HEARTBEAT_INTERVAL_S. A
stretch of more than OUTAGE_GAP_S without any beat means nobody could send a
command then; a flag that falls across such a stretch annuls the match (§7).
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
BEATS_KEY = "web:heartbeats"
KEEP_S = 86400


@lru_cache(maxsize=1)
def redis_client() -> Any:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2,
                                max_connections=settings.REDIS_MAX_CONNECTIONS)


def beat(now: float | None = None) -> None:
    now = time.time() if now is None else now
    client = redis_client()
    client.zadd(BEATS_KEY, {f"{now:.6f}:{os.getpid()}": now})
    client.zremrangebyscore(BEATS_KEY, "-inf", now - KEEP_S)


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
    gap = settings.OUTAGE_GAP_S
    try:
        beats = [score for _, score in redis_client().zrangebyscore(
            BEATS_KEY, start - gap, end, withscores=True)]
    except Exception:
        log.warning("cannot read heartbeats", exc_info=True)
        return True
    covered_until = start
    for moment in sorted(beats):
        if moment - covered_until > gap:
            return True
        covered_until = max(covered_until, moment)
    return end - covered_until > gap
