"""The match writer alone: CPU per command, and how it splits between the stages.

    python -m bench.writer [--commands 1000]

Plays greedy matches through ``games.play.services.do_command`` in this one process, against
DATABASE_URL (PostgreSQL; default postgres://postgres@127.0.0.1:5432/bench_sb, created
if missing) and REDIS_URL (a private Redis when unset), with no websocket and no
channel layer (broadcasts are collected and dropped). Prints ``cpu_ms_per_command``,
``wall_ms_per_command`` and the CPU milliseconds per command of each stage: the locked
read, the engine's unpickling and pickling, the three views, the combined write (locked,
or conditional on the version when the process's copy of the match was used) and the
deadline bookkeeping. ``bench.live`` measures the whole path around it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def timed(owner: Any, name: str, spent: Counter[str]) -> None:
    """Replace ``owner.name`` by a wrapper that adds its CPU time to ``spent[name]``."""
    original: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - started

    setattr(owner, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=1000)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_sb")
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret")
    # The writer's own cost per command: the first deal is made at once, without waiting
    # for the players' seeds (nobody here sends any; docs/fairness.md).
    os.environ.setdefault("FAIR_SEED_WAIT_S", "0")
    sys.path.insert(0, str(ROOT))
    from bench.live import ensure_database
    from config.embedded import ensure_redis_url

    ensure_database(os.environ["DATABASE_URL"])
    redis_handle = ensure_redis_url()
    try:
        run(args.commands)
    finally:
        if redis_handle is not None:
            redis_handle.shutdown()


def run(commands: int) -> None:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from games import tasks
    from games.live import broadcast
    from games.models import Match
    from games.play import services
    from games.play.store import load_engine
    from games.spectacular_bid.bot import choose
    from games.spectacular_bid.state import Match as Engine

    call_command("migrate", verbosity=0)
    spent: Counter[str] = Counter()
    for name in ("_locked", "load_engine", "save_engine", "_advance_time"):
        timed(services, name, spent)
    timed(services.broadcast, "views_for", spent)
    timed(services.rawsql, "update_and_insert", spent)
    timed(tasks, "schedule_deadline", spent)
    timed(Engine, "apply", spent)

    tag = f"w{time.time():.0f}"
    players = (User.objects.create_user(f"{tag}_0"), User.objects.create_user(f"{tag}_1"))
    outbox = broadcast.start_outbox()  # broadcasts collected here, then dropped
    done = 0
    cpu = wall = 0.0
    while done < commands:
        match_id = services.do_create_match(*players, rated=False).pk
        while done < commands:
            match = Match.objects.get(pk=match_id)
            if match.status != Match.Status.ACTIVE:
                break
            engine = load_engine(match)
            for seat in (0, 1):
                action = choose(engine.view(seat))
                if action is None:
                    continue
                started_cpu, started_wall = time.process_time(), time.perf_counter()
                result = services.do_command(match_id, players[seat],
                                             {"action": action, "version": match.version})
                cpu += time.process_time() - started_cpu
                wall += time.perf_counter() - started_wall
                assert result.ok, result
                done += 1
                outbox.clear()
                break
            else:
                break  # nobody can act (only the clock): a new match
    print(f"commands: {done}")
    print(f"cpu_ms_per_command: {cpu / done * 1000:.2f}")
    print(f"wall_ms_per_command: {wall / done * 1000:.2f}")
    for name, seconds in spent.most_common():
        print(f"stage {name}: {seconds / done * 1000:.3f} ms")


if __name__ == "__main__":
    main()
