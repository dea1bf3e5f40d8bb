"""The web processes' timed full collections (config/collector.py)."""

from __future__ import annotations

import gc
import time
import weakref

from config.collector import PeriodicCollector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle_reference() -> weakref.ref[Node]:
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


def test_the_timer_frees_cycles_the_thresholds_leave_alone() -> None:
    gc.disable()  # as in steady state under config/asgi.py's threshold: no automatic pass
    collector = PeriodicCollector(interval_s=0.05)
    try:
        garbage = cycle_reference()
        assert garbage() is not None  # a cycle: reference counting alone keeps it
        collector.start()
        deadline = time.monotonic() + 5
        while collector.collections == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert garbage() is None
        assert collector.collections >= 1 and collector.freed >= 2
        assert collector.longest_pause_s > 0
    finally:
        collector.stop()
        gc.enable()


def test_an_interval_of_zero_starts_nothing() -> None:
    collector = PeriodicCollector(interval_s=0)
    collector.start()
    assert collector._thread is None
    collector.stop()


def test_stop_ends_the_thread() -> None:
    collector = PeriodicCollector(interval_s=60)
    collector.start()
    thread = collector._thread
    assert thread is not None and thread.is_alive()
    collector.stop()
    assert not thread.is_alive()
