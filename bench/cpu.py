"""CPU seconds used by each kind of process on this machine, from /proc (Linux).

The live benchmark reads this before and after play, so that it can say where a
move's CPU goes: the web processes, the Celery worker, Redis, PostgreSQL, nginx (when
the benchmark runs behind it), the load generator itself.
"""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def _kind(pid: str, own_pid: int) -> str | None:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return None
    if int(pid) == own_pid:
        return "load generator"
    if cmdline.startswith("nginx"):  # "nginx: master process ...", "nginx: worker process"
        return "nginx"
    if "daphne" in cmdline:
        return "daphne"
    if "celery" in cmdline:
        return "celery beat" if " beat" in cmdline else "celery worker"
    if "redis-server" in cmdline:
        return "redis"
    if cmdline.startswith("postgres"):
        return "postgresql"
    return None


def snapshot() -> dict[str, tuple[str, float]]:
    """pid -> (kind, CPU seconds so far) for the processes the benchmark cares about."""
    own = os.getpid()
    found: dict[str, tuple[str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        kind = _kind(entry.name, own)
        if kind is None:
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime and stime are fields 14 and 15 of stat; after the ")" they are 12 and 13.
        found[entry.name] = (kind, (int(fields[11]) + int(fields[12])) / TICKS)
    return found


def used_between(before: dict[str, tuple[str, float]],
                 after: dict[str, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds per kind between two snapshots (a process started since counts whole)."""
    totals: dict[str, float] = {}
    for pid, (kind, seconds) in after.items():
        start = before.get(pid, (kind, 0.0))[1]
        totals[kind] = totals.get(kind, 0.0) + max(0.0, seconds - start)
    return dict(sorted(totals.items(), key=lambda item: -item[1]))
