"""Giving freed memory back to the system in the long-running processes.

Python frees its objects to the C allocator, and glibc's allocator keeps the pages it
got: the heap of each thread's arena has holes between live blocks, and a hole is not
returned until the whole top of the heap is free. A web process with a pool of threads
(the match writer's, Django's sync views) then grows slowly under a steady load while
its live Python objects stay the same (measured in ``bench.soak`` with tracemalloc).
``malloc_trim(0)`` hands every free page of every arena back (``madvise``), so the
resident size follows what is really in use. It runs on a timer thread, every
``MALLOC_TRIM_S`` seconds (60; 0 turns it off); elsewhere than on glibc it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from collections.abc import Callable

_started = False
_lock = threading.Lock()


def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None  # not glibc (musl, macOS): nothing to trim
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


def start_trimming(interval_s: float | None = None) -> bool:
    """Start the timer thread once per process; False when there is nothing to start."""
    global _started
    if interval_s is None:
        interval_s = float(os.environ.get("MALLOC_TRIM_S", "0"))
    trim = _malloc_trim()
    if interval_s <= 0 or trim is None:
        return False
    with _lock:
        if _started:
            return True
        _started = True
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(interval_s):
            trim(0)

    threading.Thread(target=run, name="malloc-trim", daemon=True).start()
    return True
