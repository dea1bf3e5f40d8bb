"""Live load: N concurrent matches played by bot clients over the public websocket API.

    python -m bench.live [--matches 250] [--seconds 60] [--flag-matches 10] [--ramp 5]
                         [--placement match|split] [--via direct|nginx [--kill-one]]
                         [--web-processes N]

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

``--via nginx`` puts nginx in front of three daphne processes (``--web-processes``),
routing each match's sockets by a hash of the match id as in production
(``platform/README.md``); every client connects to nginx. ``--kill-one`` then kills one
daphne with SIGKILL halfway through and restarts it at once; its clients reconnect through
nginx to the others and resync, and the flag matches' banks run out in the seconds after
the kill. It adds, for the matches whose sockets dropped (``affected_matches``): how long
until each played again (``recovery``: from the kill to its first move acknowledged after
it, less the bots' own think time once they had resynced; for a match with nothing to play,
until both players had resynced), max and p95; how long until both players held a fresh
snapshot (``resync``) and until the clients noticed the drop; matches that never came back;
commands that went down unanswered with their socket (sent just before the kill, or tried
on the dead socket); flags (as seen by each player) whose deadline fell after the kill; and
``acknowledged_moves_lost``: moves answered ok that are missing from the event log or never
reached a player.
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
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Refusals that are the game's own races, not failures: a command sent on a view that the
# opponent's move (stale) or the end of the match (over) overtook on its way.
RACES = frozenset({"stale", "over"})
Row = tuple[str, float, str, str, bool]  # match id, its start (wall), two tokens, flag match
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/bench_sb"
FLAG_RULES: dict[str, float] = {"bank_s": 8, "delay_s": 1}
# Called when a pair's match is over, with time left: the next match for the same players.
Renew = Callable[[Row], Awaitable[Row | None]]
# Run beside the players until the end (a sampler, a fault), given the end (wall clock).
Extra = Callable[[float], Awaitable[None]]


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
    flag_deadlines: list[float] = field(default_factory=list)  # (wall) of each flag seen
    answers: list[tuple[float, float]] = field(default_factory=list)  # (sent, until result)
    # Faults (--kill-one): when the web process was killed, and what its clients went through.
    kill_at: float | None = None
    outages: list[tuple[str, int, float, float]] = field(default_factory=list)  # match, seat,
    # dropped, reopened
    resyncs: list[tuple[str, int, float]] = field(default_factory=list)  # first state on a
    # reopened socket: match, seat, received
    first_acks: dict[str, tuple[int, float, float, float]] = field(default_factory=dict)
    # match -> its first move answered ok after the kill: seat, thinking since, sent, answered
    unanswered: int = 0  # commands whose socket dropped before their answer came


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def player(url: str, token: str, match_id: str, started_wall: float, seat_index: int,
                 stats: Stats, stop_at: float, silent_after: int | None,
                 start_delay: float) -> None:
    from bots.client import SEED_MESSAGE_ID, Api, MatchConnection
    from games.spectacular_bid.bot import choose

    conn = MatchConnection(Api(url, token), match_id)
    seen: list[tuple[int, float]] = []
    stats.seen.setdefault(match_id, [[], []])[seat_index] = seen
    # command id -> (thinking since, sent, the socket it went out on)
    pending: dict[str, tuple[float, float, int]] = {}
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
    socket_no = conn.connects

    async def read() -> None:
        """Timestamp every message as it arrives, even while the player is thinking."""
        nonlocal deadline_wall, socket_no
        while True:
            try:
                message = await conn.receive()  # reopens a dropped socket
            except Exception as exc:  # noqa: BLE001 - it could not be reopened: an error
                stats.errors.append(f"socket: {exc!r}")
                over.set()
                changed.set()
                return
            now = time.time()
            kind = message.get("type")
            if kind == "result" and message.get("id") == SEED_MESSAGE_ID:
                continue  # our seed's answer (too_late when the window closed first): no move
            if kind == "result":
                sent = pending.pop(str(message.get("id")), None)
                if message.get("ok") and sent is not None:
                    stats.ok_moves.append((match_id, message["version"], sent[1]))
                    stats.answers.append((sent[1], now - sent[1]))
                    if stats.kill_at is not None and match_id not in stats.first_acks:
                        stats.first_acks[match_id] = (seat_index, sent[0], sent[1], now)
                elif message.get("code") in RACES:
                    stats.races += 1
                elif not message.get("ok"):
                    stats.errors.append(f"{message.get('code')}: {message.get('message')}")
            elif kind == "error":
                stats.errors.append(f"error: {message}")
            elif kind == "state":
                if conn.connects != socket_no:  # the snapshot that opens a reopened socket
                    socket_no = conn.connects
                    stats.resyncs.append((match_id, seat_index, now))
                    gone = [key for key, (_, _, sock) in pending.items() if sock < socket_no]
                    stats.unanswered += len(gone)
                    for key in gone:
                        del pending[key]
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
                        stats.flag_deadlines.append(deadline_wall)
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
            thinking_from = time.time()
            await asyncio.sleep(random.uniform(0.5, 1.5))
            if over.is_set():
                break
            sock = conn.connects  # the socket this command goes out on
            pending[await conn.send_command(action)] = (thinking_from, time.time(), sock)
            moves += 1
    finally:
        reader.cancel()
        await conn.close()
        stats.outages.extend((match_id, seat_index, dropped, reopened)
                             for dropped, reopened in conn.outages)


def setup(matches: int, flag_matches: int, flag_banks: Sequence[float] | None = None,
          ) -> list[Row]:
    """Players and matches; ``flag_banks``: the flag matches' banks (8 s each by default)."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from accounts.models import AccessToken
    from games.play.services import do_create_match

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
        rules = None
        if flag:
            rules = dict(FLAG_RULES)
            if flag_banks is not None:
                rules["bank_s"] = flag_banks[index]
        match = do_create_match(users[0], users[1], rated=False, rules=rules)
        rows.append((str(match.pk), match.started_wall, tokens[0], tokens[1], flag))
    return rows


def web_process_for(match_id: str, seat: int, urls: list[str], placement: str) -> str:
    """The daphne a player's socket reaches: the one the front proxy routes the match to
    (a hash of the match id, platform/README.md), or, with ``split``, the two players on
    different daphnes, so that every move crosses processes (the worst case)."""
    offset = seat if placement == "split" else 0
    return urls[(zlib.crc32(match_id.encode()) + offset) % len(urls)]


async def play_pair(urls: list[str], row: Row, stop_at: float, stats: Stats, delay: float,
                    placement: str, renew: Renew | None) -> None:
    """Both players of a match; with ``renew``, match after match until the end."""
    while True:
        match_id, started_wall, token0, token1, flag = row
        await asyncio.gather(*(
            player(web_process_for(match_id, seat, urls, placement), token, match_id,
                   started_wall, seat, stats, stop_at, 2 if flag and seat == 1 else None, delay)
            for seat, token in ((0, token0), (1, token1))))
        if renew is None or time.time() > stop_at - 1:
            return
        next_row = await renew(row)
        if next_row is None:
            return
        row, delay = next_row, 0.0


async def drive(urls: list[str], rows: list[Row], stop_at: float,
                stats: Stats, ramp: float, placement: str, *, renew: Renew | None = None,
                extras: Sequence[Extra] = ()) -> float:
    pairs = [play_pair(urls, row, stop_at, stats, ramp * index / len(rows), placement, renew)
             for index, row in enumerate(rows)]
    started = time.time()
    await asyncio.gather(*pairs, *(extra(stop_at) for extra in extras))
    return time.time() - started


def first_seen(seen: list[tuple[int, float]], versions: list[int]) -> dict[int, float | None]:
    """For each version, when this player first received a state at least that new.

    One pass over the arrivals: for increasing versions the first qualifying arrival can
    only move later (the same answer as a search from the start for each version).
    """
    found: dict[int, float | None] = {}
    index = 0
    for version in sorted(set(versions)):
        while index < len(seen) and seen[index][0] < version:
            index += 1
        found[version] = seen[index][1] if index < len(seen) else None
    return found


def move_latencies(stats: Stats, stop_at: float,
                   ) -> tuple[list[tuple[float, float]], list[tuple[str, int]]]:
    """(sent, until both players had it) per acknowledged move, and the moves never seen
    by both; moves sent in the last 2 s are left out (not everyone was still listening)."""
    by_match: dict[str, list[int]] = {}
    for match_id, version, sent in stats.ok_moves:
        if sent <= stop_at - 2:
            by_match.setdefault(match_id, []).append(version)
    arrivals = {match_id: [first_seen(seen, versions)
                           for seen in stats.seen.get(match_id, [[], []])]
                for match_id, versions in by_match.items()}
    timeline: list[tuple[float, float]] = []
    lost: list[tuple[str, int]] = []
    for match_id, version, sent in stats.ok_moves:
        if sent > stop_at - 2:
            continue  # too close to the end for both players to have been listening
        times = [found[version] for found in arrivals[match_id]]
        if len(times) < 2 or any(t is None for t in times):
            lost.append((match_id, version))
            continue
        timeline.append((sent, max(times) - sent))  # type: ignore[type-var,operator]
    return timeline, lost


def analyse(stats: Stats, steady_from: float, stop_at: float) -> dict[str, Any]:
    """Figures for the steady state (moves sent after the ramp), and for the ramp apart."""
    timeline, lost = move_latencies(stats, stop_at)
    latencies = [latency for sent, latency in timeline if sent >= steady_from]
    ramp_latencies = [latency for sent, latency in timeline if sent < steady_from]
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
        "lost_moves": len(lost),
        "errors": len(stats.errors),
        "races": stats.races,
    }


def unpersisted_moves(stats: Stats) -> list[tuple[str, int]]:
    """Moves the server acknowledged that are not in the event log as that very action."""
    from games.models import MatchEvent

    logged = set(MatchEvent.objects.filter(kind=MatchEvent.Kind.ACTION)
                 .values_list("match_id", "seq"))
    # The answer's version is the action's own, or one more when the action ended a hand
    # and the next deal was logged with it.
    return [(match_id, version) for match_id, version, _ in stats.ok_moves
            if (uuid.UUID(match_id), version) not in logged
            and (uuid.UUID(match_id), version - 1) not in logged]


def unpersisted(stats: Stats) -> int:
    return len(unpersisted_moves(stats))


def recovery(stats: Stats) -> dict[str, Any]:
    """How the matches whose sockets dropped after the kill came back (``--kill-one``)."""
    kill_at = stats.kill_at
    assert kill_at is not None
    affected = {match_id for match_id, _, dropped, _ in stats.outages if dropped >= kill_at}
    noticed = [dropped - kill_at for _, _, dropped, _ in stats.outages if dropped >= kill_at]
    back_at: dict[str, dict[int, float]] = {}
    for match_id, seat, received in sorted(stats.resyncs, key=lambda r: r[2]):
        if received >= kill_at:
            back_at.setdefault(match_id, {}).setdefault(seat, received)
    recoveries: list[float] = []
    resyncs: list[float] = []
    unrecovered = 0
    for match_id in affected:
        seats = back_at.get(match_id, {})
        if len(seats) < 2:
            unrecovered += 1
            continue
        both = max(seats.values())
        resyncs.append(both - kill_at)
        playing = both
        ack = stats.first_acks.get(match_id)
        if ack is not None:
            seat, thinking_from, sent, answered = ack
            # The bot's own pause once it held the fresh state is not the server's doing.
            bots_pause = max(0.0, sent - max(thinking_from, seats.get(seat, kill_at)))
            playing = max(both, answered - bots_pause)
        recoveries.append(playing - kill_at)
    ms = [x * 1000 for x in recoveries]
    return {
        "affected_matches": len(affected),
        "unrecovered_matches": unrecovered,
        "recovery_max_ms": max(ms, default=float("nan")),
        "recovery_p95_ms": percentile(ms, 0.95),
        "resync_max_ms": max([x * 1000 for x in resyncs], default=float("nan")),
        "resync_p95_ms": percentile([x * 1000 for x in resyncs], 0.95),
        "drop_noticed_max_ms": max([x * 1000 for x in noticed], default=float("nan")),
        "unanswered_commands": stats.unanswered,
        "flags_after_kill": sum(1 for t in stats.flag_deadlines if t >= kill_at),
        "recoveries_ms": sorted(ms),
    }


class BenchStack:
    """A run's database (fresh), Redis, and the platform's processes: daphnes, a Celery
    worker and beat, and with ``via="nginx"`` an nginx in front routing by match id."""

    def __init__(self, web_processes: int = 2, via: str = "direct",
                 prefix: str = "bench-live-") -> None:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
        os.environ["OUTAGE_ANNULS"] = "true"
        # A fresh database: matches left running by an earlier run would keep the workers
        # busy.
        ensure_database(os.environ["DATABASE_URL"], fresh=True)
        sys.path.insert(0, str(ROOT))
        from bench.stack import Stack
        from config.embedded import ensure_redis_url

        self.redis_handle = ensure_redis_url()
        self.via = via
        self.workdir = Path(tempfile.mkdtemp(prefix=prefix))
        env = dict(os.environ)
        # Production settings: DEBUG off (Django then keeps no query log).
        env.update({"DEBUG": "false", "SECRET_KEY": "bench-only-secret",
                    "VAR_DIR": str(self.workdir), "LOG_LEVEL": "WARNING",
                    # Connections kept for the whole run, so that the CPU of every
                    # PostgreSQL backend is still there to be counted at the end.
                    "DB_CONN_MAX_AGE": "3600",
                    })
        self.env = env
        self.stack = Stack(env, self.workdir, web_processes=web_processes)

    def start(self) -> None:
        self.stack.start_web()
        self.stack.start_worker()
        self.stack.start_beat()
        if self.via == "nginx":
            self.stack.start_proxy()
        self.stack.wait_ready()
        self.stack.wait_worker()

    @property
    def entry_urls(self) -> list[str]:
        """Where the clients connect: nginx, or the daphnes themselves."""
        proxy = self.stack.proxy_url
        return [proxy] if proxy is not None else self.stack.urls

    def close(self) -> None:
        try:
            self.stack.stop()
        finally:
            if self.redis_handle is not None:
                self.redis_handle.shutdown()


def kill_one(stack: Any, stats: Stats, after_s: float, index: int = 0,
             timings: dict[str, float] | None = None) -> Extra:
    """SIGKILL web process ``index`` ``after_s`` into the run and restart it at once."""

    async def run(stop_at: float) -> None:
        started = time.time()
        await asyncio.sleep(after_s)
        stats.kill_at = time.time()
        await asyncio.to_thread(stack.kill, f"web{index}")
        stack.start_web_process(index)
        await asyncio.to_thread(stack.wait_url, stack.urls[index], 60)
        if timings is not None:
            timings.update(kill_at_s=stats.kill_at - started,
                           restart_s=time.time() - stats.kill_at)

    return run


def play(urls: list[str], rows: list[Row], seconds: float, ramp: float, placement: str,
         stats: Stats, *, renew: Renew | None = None, extras: Sequence[Extra] = (),
         ) -> tuple[float, float, dict[str, float]]:
    """Run the load; returns when the steady state began, when it stopped, CPU per kind."""
    from bench import cpu

    stop_at = time.time() + seconds
    # The load generator's own collector pauses would show up as latency.
    gc.freeze()
    gc.set_threshold(100_000, 50, 50)
    cpu_before = cpu.snapshot()
    steady_from = time.time() + ramp + 2  # the last arrivals' first moves are in
    asyncio.run(drive(urls, rows, stop_at, stats, ramp, placement, renew=renew, extras=extras))
    return steady_from, stop_at, cpu.used_between(cpu_before, cpu.snapshot())


def print_figures(figures: dict[str, Any], cpu_used: dict[str, float], stats: Stats) -> None:
    for key, value in figures.items():
        print(f"{key}: {value:.1f}" if isinstance(value, float) else f"{key}: {value}")
    moves = max(1, figures["moves"])
    for kind, seconds in cpu_used.items():
        print(f"cpu {kind}: {seconds:.1f} s ({seconds / moves * 1000:.2f} ms per move)")
    if stats.flag_lateness:
        late = sorted(stats.flag_lateness)
        print("flag lateness (ms):", " ".join(f"{x * 1000:.0f}" for x in late))


def arguments(description: str) -> argparse.ArgumentParser:
    """The load's options (shared with ``bench.soak``)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--matches", type=int, default=250)
    parser.add_argument("--flag-matches", type=int, default=10)
    parser.add_argument("--ramp", type=float, default=5.0,
                        help="seconds over which the players arrive (not counted as steady)")
    parser.add_argument("--placement", choices=["match", "split"], default="match",
                        help="match: a match's sockets on one daphne, as the front proxy "
                             "routes them; split: the two players on different daphnes")
    parser.add_argument("--via", choices=["direct", "nginx"], default="direct",
                        help="nginx: the clients connect to nginx, which routes by match id")
    parser.add_argument("--web-processes", type=int, default=None,
                        help="daphne processes (2 direct, 3 behind nginx)")
    return parser


def web_processes(args: argparse.Namespace) -> int:
    return int(args.web_processes or (3 if args.via == "nginx" else 2))


def main() -> None:
    parser = arguments(__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--kill-one", action="store_true",
                        help="with --via nginx: SIGKILL one daphne halfway and restart it")
    args = parser.parse_args()
    if args.kill_one and args.via != "nginx":
        parser.error("--kill-one needs --via nginx (a proxy to route around the dead process)")

    bench = BenchStack(web_processes(args), args.via)
    stats = Stats()
    timings: dict[str, float] = {}
    try:
        print(f"setting up {args.matches} matches ...", flush=True)
        flag_banks = None
        if args.kill_one:
            # Flags that fall in the seconds after the kill (a bank of 8 s falls ~10 s in).
            flag_banks = [max(1.0, args.seconds / 2 - 1 + index % 4)
                          for index in range(args.flag_matches)]
        rows = setup(args.matches, args.flag_matches, flag_banks)
        bench.start()
        urls = bench.entry_urls
        extras = [kill_one(bench.stack, stats, args.seconds / 2, timings=timings)
                  ] if args.kill_one else []
        where = f"{urls} via nginx to {bench.stack.urls}" if args.via == "nginx" else urls
        print(f"playing for {args.seconds:.0f} s on {where} ...", flush=True)
        steady_from, stop_at, cpu_used = play(urls, rows, args.seconds, args.ramp,
                                              args.placement, stats, extras=extras)
    finally:
        bench.close()
    figures = analyse(stats, steady_from, stop_at)
    lost_in_log = unpersisted_moves(stats)
    figures["unpersisted_moves"] = len(lost_in_log)
    placement = "nginx hash" if args.via == "nginx" else args.placement
    print(f"matches: {args.matches} ({2 * args.matches} sockets, placement {placement})")
    if args.kill_one:
        _, never_seen = move_latencies(stats, stop_at)
        came_back = recovery(stats)
        figures.update(timings)
        figures["acknowledged_moves_lost"] = len(set(lost_in_log) | set(never_seen))
        recoveries = came_back.pop("recoveries_ms")
        figures.update(came_back)
    print_figures(figures, cpu_used, stats)
    if args.kill_one and recoveries:
        print("recovery (ms):", " ".join(f"{x:.0f}" for x in recoveries))
    if stats.errors:
        print("first errors:", *stats.errors[:5], sep="\n  ")
    print(f"logs: {bench.workdir}")


if __name__ == "__main__":
    main()
