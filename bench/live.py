"""Live load: N concurrent matches played by bot clients over the public websocket API.

    python -m bench.live [--matches 250] [--seconds 60] [--flag-matches 10] [--ramp 5]
                         [--placement match|split]

Starts the real stack (two daphne processes, a Celery worker and beat) against
DATABASE_URL (PostgreSQL; default postgres://postgres@127.0.0.1:5432/bench_sb,
created if missing) and REDIS_URL (a private Redis when unset), creates the players
and matches, and lets greedy clients play with random think times (0.5-1.5 s, so
about one move a second per match). A few matches use an 8 s bank and one silent
player, to measure how late the flag broadcast arrives after the deadline (the bank
runs out about 10 s in, after the ramp).

The players arrive over the first ``--ramp`` seconds (all 500 at once would make every
match's first move in the same second, a burst at twice the steady rate). Prints, for
the moves sent after the ramp: moves per second and p50/p95/p99 latency from a move's
send until both players received a state that includes it; the ramp's own p99 and
worst apart; flag lateness, lost moves, acknowledged moves missing from the event log
(``unpersisted_moves``), errors and races (commands overtaken by the opponent's move
or the end of the match: refused as ``stale`` or ``over``, as they should be) over the
whole run; and the CPU time of each kind of process per move.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import tempfile
import time
import uuid
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Refusals that are the game's own races, not failures: a command sent on a view that the
# opponent's move (stale) or the end of the match (over) overtook on its way.
RACES = frozenset({"stale", "over"})
Row = tuple[str, float, str, str, bool]  # match id, its start (wall), two tokens, flag match
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/bench_sb"


def ensure_database(url: str, fresh: bool = False) -> None:
    """Create the benchmark's database if missing (``fresh``: drop it first)."""
    if not url.startswith("postgres"):
        return
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        if fresh:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


@dataclass
class Stats:
    sends: dict[tuple[str, int], float] = field(default_factory=dict)  # (match, version) -> sent
    receipts: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    seen: dict[str, list[list[tuple[int, float]]]] = field(default_factory=dict)
    ok_moves: list[tuple[str, int, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    races: int = 0  # commands that crossed the opponent's move or the end of the match
    flag_lateness: list[float] = field(default_factory=list)
    answers: list[tuple[float, float]] = field(default_factory=list)  # (sent, until result)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def player(url: str, token: str, match_id: str, started_wall: float, seat_index: int,
                 stats: Stats, stop_at: float, silent_after: int | None,
                 start_delay: float) -> None:
    from bots.client import Api, MatchConnection
    from games.spectacular_bid.bot import choose

    conn = MatchConnection(Api(url, token), match_id)
    seen: list[tuple[int, float]] = []
    stats.seen.setdefault(match_id, [[], []])[seat_index] = seen
    pending: dict[str, float] = {}
    moves = 0
    deadline_wall: float | None = None
    await asyncio.sleep(start_delay)  # the ramp: players arrive over a few seconds
    try:
        await conn.connect()
    except Exception as exc:  # noqa: BLE001 - counted as an error
        stats.errors.append(f"connect: {exc}")
        return
    over = asyncio.Event()
    changed = asyncio.Event()

    async def read() -> None:
        """Timestamp every message as it arrives, even while the player is thinking."""
        nonlocal deadline_wall
        while True:
            message = await conn.receive()
            now = time.time()
            kind = message.get("type")
            if kind == "result":
                sent = pending.pop(message.get("id"), None)
                if message.get("ok") and sent is not None:
                    stats.ok_moves.append((match_id, message["version"], sent))
                    stats.answers.append((sent, now - sent))
                elif message.get("code") in RACES:
                    stats.races += 1
                elif not message.get("ok"):
                    stats.errors.append(f"{message.get('code')}: {message.get('message')}")
            elif kind == "error":
                stats.errors.append(f"error: {message}")
            elif kind == "state":
                seen.append((message["version"], now))
                state_view = message["view"]
                # The match's start on the server's wall clock (same machine), not one
                # estimated from a message that may itself have been late.
                if state_view["clock"]["deadline"] is not None:
                    deadline_wall = started_wall + state_view["clock"]["deadline"]
                result = state_view.get("result")
                if result is not None:
                    if result["reason"] == "time" and deadline_wall is not None:
                        stats.flag_lateness.append(now - deadline_wall)
                    over.set()
            changed.set()

    reader = asyncio.create_task(read())
    try:
        while time.time() < stop_at and not over.is_set():
            try:
                await asyncio.wait_for(changed.wait(), max(0.1, min(5.0, stop_at - time.time())))
            except TimeoutError:
                continue
            changed.clear()
            if over.is_set() or (silent_after is not None and moves >= silent_after):
                continue
            view = conn.view_to_act_on()
            action = choose(view) if view is not None else None
            if action is None:
                continue
            await asyncio.sleep(random.uniform(0.5, 1.5))
            if over.is_set():
                break
            pending[await conn.send_command(action)] = time.time()
            moves += 1
    finally:
        reader.cancel()
        await conn.close()


def setup(matches: int, flag_matches: int) -> list[Row]:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from accounts.models import AccessToken
    from games.services import do_create_match

    call_command("migrate", verbosity=0)
    tag = f"b{int(time.time())}"
    rows = []
    for index in range(matches):
        users, tokens = [], []
        for seat in (0, 1):
            user = User.objects.create_user(f"{tag}_{index}_{seat}")
            tokens.append(AccessToken.issue(user, "bench")[1])
            users.append(user)
        flag = index < flag_matches
        rules = {"bank_s": 8, "delay_s": 1} if flag else None
        match = do_create_match(users[0], users[1], rated=False, rules=rules)
        rows.append((str(match.pk), match.started_wall, tokens[0], tokens[1], flag))
    return rows


def web_process_for(match_id: str, seat: int, urls: list[str], placement: str) -> str:
    """The daphne a player's socket reaches: the one the front proxy routes the match to
    (a hash of the match id, platform/README.md), or, with ``split``, the two players on
    different daphnes, so that every move crosses processes (the worst case)."""
    offset = seat if placement == "split" else 0
    return urls[(zlib.crc32(match_id.encode()) + offset) % len(urls)]


async def drive(urls: list[str], rows: list[Row], stop_at: float,
                stats: Stats, ramp: float, placement: str) -> float:
    tasks = []
    for index, (match_id, started_wall, token0, token1, flag) in enumerate(rows):
        for seat, token in ((0, token0), (1, token1)):
            url = web_process_for(match_id, seat, urls, placement)
            silent = 2 if flag and seat == 1 else None
            delay = ramp * index / len(rows)
            tasks.append(player(url, token, match_id, started_wall, seat, stats, stop_at, silent,
                                delay))
    started = time.time()
    await asyncio.gather(*tasks)
    return time.time() - started


def analyse(stats: Stats, steady_from: float, stop_at: float) -> dict[str, Any]:
    """Figures for the steady state (moves sent after the ramp), and for the ramp apart."""
    latencies = []
    ramp_latencies = []
    timeline: list[tuple[float, float]] = []
    lost = 0
    for match_id, version, sent in stats.ok_moves:
        if sent > stop_at - 2:
            continue  # too close to the end for both players to have been listening
        both = stats.seen.get(match_id, [[], []])
        arrivals = []
        for seen in both:
            first = next((t for v, t in seen if v >= version), None)
            arrivals.append(first)
        if any(a is None for a in arrivals):
            lost += 1
            continue
        latency: float = max(arrivals) - sent  # type: ignore[type-var,assignment]
        (latencies if sent >= steady_from else ramp_latencies).append(latency)
        timeline.append((sent, latency))
    ms = [x * 1000 for x in latencies]
    steady_moves = sum(1 for _, _, sent in stats.ok_moves if steady_from <= sent <= stop_at - 2)
    answers = [x * 1000 for sent, x in stats.answers if sent >= steady_from]
    if os.environ.get("BENCH_TIMELINE"):  # (send time, latency) of every move, for a plot
        Path(os.environ["BENCH_TIMELINE"]).write_text(
            "\n".join(f"{t:.3f} {lat * 1000:.1f}" for t, lat in sorted(timeline)))
    return {
        "moves": len(stats.ok_moves),
        "moves_per_second": steady_moves / max(1e-9, stop_at - 2 - steady_from),
        "p50_ms": percentile(ms, 0.50),
        "p95_ms": percentile(ms, 0.95),
        "p99_ms": percentile(ms, 0.99),
        "answer_p50_ms": percentile(answers, 0.50),
        "answer_p99_ms": percentile(answers, 0.99),
        "ramp_p99_ms": percentile([x * 1000 for x in ramp_latencies], 0.99),
        "ramp_max_ms": max([x * 1000 for x in ramp_latencies], default=float("nan")),
        "flag_p50_ms": percentile([x * 1000 for x in stats.flag_lateness], 0.50),
        "flag_p99_ms": percentile([x * 1000 for x in stats.flag_lateness], 0.99),
        "flags": len(stats.flag_lateness),
        "lost_moves": lost,
        "errors": len(stats.errors),
        "races": stats.races,
    }


def unpersisted(stats: Stats) -> int:
    """Moves the server acknowledged that are not in the event log as that very action."""
    from games.models import MatchEvent

    logged = set(MatchEvent.objects.filter(kind=MatchEvent.Kind.ACTION)
                 .values_list("match_id", "seq"))
    # The answer's version is the action's own, or one more when the action ended a hand
    # and the next deal was logged with it.
    return sum(1 for match_id, version, _ in stats.ok_moves
               if (uuid.UUID(match_id), version) not in logged
               and (uuid.UUID(match_id), version - 1) not in logged)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--flag-matches", type=int, default=10)
    parser.add_argument("--ramp", type=float, default=5.0,
                        help="seconds over which the players arrive (not counted as steady)")
    parser.add_argument("--placement", choices=["match", "split"], default="match",
                        help="match: a match's sockets on one daphne, as the front proxy "
                             "routes them; split: the two players on different daphnes")
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
    os.environ["OUTAGE_ANNULS"] = "true"
    # A fresh database: matches left running by an earlier run would keep the workers busy.
    ensure_database(os.environ["DATABASE_URL"], fresh=True)
    sys.path.insert(0, str(ROOT))
    from config.embedded import ensure_redis_url

    redis_handle = ensure_redis_url()
    from bench import cpu
    from bench.stack import Stack

    workdir = Path(tempfile.mkdtemp(prefix="bench-live-"))
    env = dict(os.environ)
    # Production settings: DEBUG off (Django then keeps no query log).
    env.update({"DEBUG": "false", "SECRET_KEY": "bench-only-secret", "VAR_DIR": str(workdir),
                "LOG_LEVEL": "WARNING",
                # Connections kept for the whole run, so that the CPU of every PostgreSQL
                # backend is still there to be counted at the end.
                "DB_CONN_MAX_AGE": "3600",
                })
    print(f"setting up {args.matches} matches ...", flush=True)
    rows = setup(args.matches, args.flag_matches)
    stack = Stack(env, workdir, web_processes=2)
    stack.start_web()
    stack.start_worker()
    stack.start_beat()
    stats = Stats()
    try:
        stack.wait_ready()
        stack.wait_worker()
        print(f"playing for {args.seconds:.0f} s on {stack.urls} ...", flush=True)
        stop_at = time.time() + args.seconds
        # The load generator's own collector pauses would show up as latency.
        gc.freeze()
        gc.set_threshold(100_000, 50, 50)
        cpu_before = cpu.snapshot()
        steady_from = time.time() + args.ramp + 2  # the last arrivals' first moves are in
        asyncio.run(drive(stack.urls, rows, stop_at, stats, args.ramp, args.placement))
        cpu_used = cpu.used_between(cpu_before, cpu.snapshot())
    finally:
        stack.stop()
        if redis_handle is not None:
            redis_handle.shutdown()
    figures = analyse(stats, steady_from, stop_at)
    figures["unpersisted_moves"] = unpersisted(stats)
    print(f"matches: {args.matches} ({2 * args.matches} sockets, placement {args.placement})")
    for key, value in figures.items():
        print(f"{key}: {value:.1f}" if isinstance(value, float) else f"{key}: {value}")
    moves = max(1, figures["moves"])
    for kind, seconds in cpu_used.items():
        print(f"cpu {kind}: {seconds:.1f} s ({seconds / moves * 1000:.2f} ms per move)")
    if stats.flag_lateness:
        late = sorted(stats.flag_lateness)
        print("flag lateness (ms):", " ".join(f"{x * 1000:.0f}" for x in late))
    if stats.errors:
        print("first errors:", *stats.errors[:5], sep="\n  ")
    print(f"logs: {workdir}")


if __name__ == "__main__":
    main()
