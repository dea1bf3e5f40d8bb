"""This process's copy of the matches it wrote last, for the writer's optimistic path.

After a write commits, the writer keeps the match row and the engine it produced. The
next command for that match is applied to the copy and written with one conditional
statement (``UPDATE ... WHERE version = the copy's``, see ``services``): no locked
read, no BEGIN/COMMIT, no unpickling. A copy that someone else has moved past (the
opponent on another web process, the clock task, a staff annulment) fails that
condition, and the command is done again the locked way. So a stale copy costs a
retry, never a wrong write; the copy only saves work.

A copy is *taken* out for a command and put back after the commit: two threads never
share one engine, and a command that fails half-way leaves nothing behind.

A copy not used for ``MATCH_CACHE_IDLE_S`` seconds is dropped. Most copies that would
never be used again are dropped when their match ends or their last socket here closes
(``consumers``), but not all: a match created by an HTTP request (an accepted seek) whose
sockets went to another process left its copy here until the size limit evicted it, about
20 KB each (``bench.soak`` starts every new match that way).
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.protocol import GameState as Engine
    from games.models import Match

# Active matches whose copies a web process keeps (0 turns the optimistic path off).
MATCH_CACHE_SIZE = int(os.environ.get("MATCH_CACHE_SIZE", "2000"))
# A copy left unused this long is dropped: a player thinking longer costs one locked read.
MATCH_CACHE_IDLE_S = float(os.environ.get("MATCH_CACHE_IDLE_S", "120"))

# match id -> (match, engine, when it was kept); the dict's order is the order of keeping
_copies: dict[str, tuple[Match, Engine, float]] = {}
_lock = threading.Lock()


def take(match_id: object) -> tuple[Match, Engine] | None:
    """The copy of a match, removed from the cache (None when there is none)."""
    with _lock:
        held = _copies.pop(str(match_id), None)
    return None if held is None else (held[0], held[1])


def keep(match: Match, engine: Engine) -> None:
    """Keep the committed ``match`` and ``engine``; the caller no longer changes them."""
    if MATCH_CACHE_SIZE <= 0:
        return
    key = str(match.pk)
    now = time.monotonic()
    with _lock:
        held = _copies.get(key)
        if held is not None and held[0].version > match.version:
            return  # a later write of this process already put its copy here
        _copies.pop(key, None)  # re-inserted last: the dict's order is the eviction order
        _copies[key] = (match, engine, now)
        while len(_copies) > MATCH_CACHE_SIZE:
            del _copies[next(iter(_copies))]
        # Idle copies go, the oldest first: the first one still in use stops the walk.
        while _copies and now - next(iter(_copies.values()))[2] > MATCH_CACHE_IDLE_S:
            del _copies[next(iter(_copies))]


def drop(match_id: object) -> None:
    with _lock:
        _copies.pop(str(match_id), None)


def clear() -> None:
    with _lock:
        _copies.clear()
