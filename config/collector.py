"""Full garbage collections on a timer, for the long-running processes (web and worker).

``tune_for_web`` (called by ``config/asgi.py``) freezes start-up's objects and raises
the young generation's threshold, so that collections stop pausing the live path. But in
steady state objects die about as fast as they are made, so the allocation count that
triggers a collection barely moves: in a 250-match soak a web process ran about one
young collection in two minutes and no full one at all. Reference cycles that had
outlived a young collection (a closed websocket's protocol, a request and the traceback
that points back at it) were then never freed, and each web process grew by about 0.5 MB
a minute (platform/README.md, "What the web processes' growth was"). A full collection
on a timer bounds that garbage to one interval's worth, at a pause the timer decides. It
runs on its own thread: Python's automatic collections, too, run on whichever thread
happens to allocate (here also the writer threads), so no finalizer can count on a
particular one.

The Celery worker (``tune_for_worker``, from ``config/celery.py``) had the same garbage
by another road: a pending deadline task (its request, message and promises, cycles
among them) lives up to a clock's bank, long enough to be promoted to the oldest
generation, and a full collection waits until a quarter of that generation is new. Its
cycles piled up between full collections, and the peaks raised the heap for good.
"""

from __future__ import annotations

import gc
import logging
import threading
import time

log = logging.getLogger(__name__)


class PeriodicCollector:
    """A daemon thread that runs ``gc.collect()`` every ``interval_s`` seconds."""

    def __init__(self, interval_s: float) -> None:
        self.interval_s = interval_s
        self.collections = 0
        self.freed = 0  # unreachable objects found, all collections together
        self.longest_pause_s = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None and self.interval_s > 0:
            self._thread = threading.Thread(target=self._run, name="gc-timer", daemon=True)
            self._thread.start()

    @property
    def running(self) -> bool:
        # False in a forked child too: a thread does not survive the fork.
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def collect(self) -> None:
        started = time.perf_counter()
        freed = gc.collect()
        pause = time.perf_counter() - started
        self.collections += 1
        self.freed += freed
        self.longest_pause_s = max(self.longest_pause_s, pause)
        log.debug("full collection: %d unreachable objects, %.1f ms", freed, pause * 1000)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                self.collect()
            except Exception:  # the next interval tries again
                log.warning("garbage collection failed", exc_info=True)


_collector: PeriodicCollector | None = None


def tune_for_web(interval_s: float) -> PeriodicCollector:
    """The web process's collection policy, once start-up is done.

    Long-lived objects (Django, the URLconf, models) out of the collector's way, and
    fewer young-generation passes: full collections were pausing the event loop. With so
    high a threshold the automatic collections all but stop in steady state, so a timer
    runs the full ones.
    """
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    return start_periodic_collection(interval_s)


def tune_for_worker(interval_s: float) -> PeriodicCollector:
    """The Celery worker's policy, once it is up (in each pool child too).

    Start-up's objects frozen, so that a full collection is cheap and the automatic ones
    come as often as the live objects call for; the default thresholds kept (no event
    loop to spare here); and the same timer as the web processes'.
    """
    gc.freeze()
    return start_periodic_collection(interval_s)


def start_periodic_collection(interval_s: float) -> PeriodicCollector:
    """Start this process's collector once (an interval of 0 turns it off)."""
    global _collector
    if _collector is None or (_collector.interval_s > 0 and not _collector.running):
        _collector = PeriodicCollector(interval_s)
        _collector.start()
    return _collector
