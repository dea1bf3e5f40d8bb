"""The timed full collections of the web and worker processes (config/collector.py)."""

from __future__ import annotations

import gc
import time
import weakref
from typing import Any

from config import collector as collector_module
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


def test_a_collector_whose_thread_is_gone_is_replaced(monkeypatch: Any) -> None:
    stale = PeriodicCollector(interval_s=60)
    stale.start()
    stale.stop()  # as a forked pool child sees its parent's: the object without its thread
    monkeypatch.setattr(collector_module, "_collector", stale)
    fresh = collector_module.start_periodic_collection(60)
    try:
        assert fresh is not stale and fresh.running
        assert collector_module.start_periodic_collection(60) is fresh
    finally:
        fresh.stop()


def test_the_worker_and_each_pool_child_tune_their_collection(monkeypatch: Any,
                                                               settings: Any) -> None:
    from celery.signals import worker_process_init, worker_ready

    import config.celery

    settings.WORKER_GC_INTERVAL_S = 12.5
    calls: list[float] = []
    monkeypatch.setattr(collector_module, "tune_for_worker", calls.append)
    config.celery.tune_collection()
    assert calls == [12.5]
    for signal in (worker_ready, worker_process_init):
        assert any(receiver() is config.celery.tune_collection
                   for _key, receiver in signal.receivers)
