"""The long-running processes hand freed memory back to the system (config/memory.py)."""

from __future__ import annotations

import threading
import time

from config import memory


def test_trimming_is_off_at_zero() -> None:
    assert memory.start_trimming(0) is False


def test_trimming_runs_on_a_timer_thread_once_per_process(monkeypatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: calls.append)
    monkeypatch.setattr(memory, "_started", False)
    before = [t.name for t in threading.enumerate()].count("malloc-trim")
    assert memory.start_trimming(0.01) is True
    assert memory.start_trimming(0.01) is True  # a second start adds no thread
    deadline = time.monotonic() + 5
    while len(calls) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert calls[:2] == [0, 0]
    assert [t.name for t in threading.enumerate()].count("malloc-trim") == before + 1


def test_glibc_malloc_trim_is_found_here() -> None:
    """This machine is Debian (glibc): the real function is there and can be called."""
    trim = memory._malloc_trim()
    assert trim is not None
    assert trim(0) in (0, 1)
