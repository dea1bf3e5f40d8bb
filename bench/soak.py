"""Soak: the live load for a long while, watching memory and database connections.

    python -m bench.soak [--minutes 30] [--warmup 60] [--sample-every 60] [bench.live's options]

The load of ``bench.live`` (its stack, bots and figures; ``--via nginx`` works too), with
one change: when a match ends, its two players challenge each other to the next one over
the HTTP API (``POST /api/seeks``, then ``.../accept``), so the load keeps up for the whole
run and the web processes keep creating and finishing matches. After the warm-up (60 s,
at most a third of a short run) and then every ``--sample-every`` seconds it samples the
resident memory (RSS) of every daphne, the Celery worker and beat (nginx too), the
PostgreSQL backends connected to the bench database (their private memory apart: a
backend's RSS also counts the shared buffers it has touched), Redis (``INFO memory``), and
the connections to the bench database in ``pg_stat_activity``, with the process that holds
each. Prints bench.live's figures for the whole run, moves/s and latency per sample
window, and memory and connections at the first sample against the last. Target: growth
under 10% (``memory_growth_max_pct``: the largest of each process's RSS, a PostgreSQL
backend's private memory, Redis's RSS), no more connections at the end, 0 lost moves.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from bench.live import (
    FLAG_RULES,
    BenchStack,
    Extra,
    Renew,
    Row,
    Stats,
    analyse,
    arguments,
    move_latencies,
    percentile,
    play,
    print_figures,
    setup,
    unpersisted,
    web_processes,
)

LOAD_GENERATOR = "load generator"


@dataclass
class Sample:
    at: float
    rss_kb: dict[str, int]  # process name (its whole process group) -> RSS
    pg_backends: int  # client backends connected to the bench database
    pg_rss_kb: int
    pg_private_kb: int  # RssAnon: the backends' own memory, without shared buffers
    connections: dict[str, int]  # holder -> connections to the bench database
    redis_rss_kb: int | None
    redis_used_kb: int | None


@dataclass
class Soak:
    samples: list[Sample] = field(default_factory=list)
    renewed: int = 0  # matches created as others ended


def status_kb(pid: int, *keys: str) -> dict[str, int]:
    """Fields of /proc/PID/status in kB (0 for a process that is gone)."""
    found = dict.fromkeys(keys, 0)
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        name, _, value = line.partition(":")
        if name in found:
            found[name] = int(value.split()[0])
    return found


def process_groups() -> dict[int, list[int]]:
    """Process group -> its pids (a daphne alone; nginx's master and workers together)."""
    groups: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        groups.setdefault(int(fields[2]), []).append(int(entry.name))
    return groups


def socket_inodes(pid: int) -> set[int]:
    inodes: set[int] = set()
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return inodes
    for fd in fds:
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def client_sockets(server_port: int) -> dict[int, int]:
    """Local port -> socket inode of this machine's TCP connections to ``server_port``."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            local, remote, inode = parts[1], parts[2], int(parts[9])
            if int(remote.rsplit(":", 1)[1], 16) == server_port:
                found[int(local.rsplit(":", 1)[1], 16)] = inode
    return found


class Sampler:
    """Memory and connections of a running ``BenchStack``."""

    def __init__(self, bench: BenchStack) -> None:
        import psycopg

        url = bench.env["DATABASE_URL"]
        base, _, self.database = url.rpartition("/")
        # Its own connection goes to another database, so it does not count itself.
        self.pg = psycopg.connect(base + "/postgres", autocommit=True)
        self.pg_port = int(self.pg.info.port)
        self.stack = bench.stack
        self.redis_url = bench.env.get("REDIS_URL")

    def close(self) -> None:
        self.pg.close()

    def take(self) -> Sample:
        groups = process_groups()
        holders: dict[str, list[int]] = {LOAD_GENERATOR: [os.getpid()]}
        for name in self.stack.procs:
            pid = self.stack.pid(name)
            if pid is not None:
                holders[name] = groups.get(pid, [pid])
        rss = {name: sum(status_kb(pid, "VmRSS")["VmRSS"] for pid in pids)
               for name, pids in holders.items() if name != LOAD_GENERATOR}
        backends = self.pg.execute(
            "SELECT pid, client_port FROM pg_stat_activity"
            " WHERE datname = %s AND backend_type = 'client backend'", (self.database,),
        ).fetchall()
        pg_rss = pg_private = 0
        for pid, _ in backends:
            memory = status_kb(pid, "VmRSS", "RssAnon")
            pg_rss += memory["VmRSS"]
            pg_private += memory["RssAnon"]
        return Sample(time.time(), rss, len(backends), pg_rss, pg_private,
                      self._holders_of(backends, holders), *self._redis())

    def _holders_of(self, backends: list[tuple[int, int | None]],
                    holders: dict[str, list[int]]) -> dict[str, int]:
        """Which of our processes holds each backend's connection (by its socket)."""
        inode_of_port = client_sockets(self.pg_port)
        owner_of_inode = {inode: name for name, pids in holders.items()
                          for pid in pids for inode in socket_inodes(pid)}
        counts = dict.fromkeys(holders, 0)  # a process without a connection now shows 0
        for _, port in backends:
            owner = owner_of_inode.get(inode_of_port.get(port or -1, -1), "other")
            counts[owner] = counts.get(owner, 0) + 1
        return dict(sorted(counts.items()))

    def _redis(self) -> tuple[int | None, int | None]:
        if not self.redis_url:
            return None, None
        import redis

        try:
            info = redis.Redis.from_url(self.redis_url, socket_timeout=2).info("memory")
        except Exception:  # noqa: BLE001 - reported as unknown
            return None, None
        return int(info["used_memory_rss"]) // 1024, int(info["used_memory"]) // 1024


def mb(kb: int | None) -> str:
    return "?" if kb is None else f"{kb / 1024:.1f}"


def describe(sample: Sample, since: float) -> str:
    processes = " ".join(f"{name} {mb(kb)}" for name, kb in sample.rss_kb.items())
    holders = ", ".join(f"{name} {count}" for name, count in sample.connections.items())
    return (f"[{sample.at - since:6.0f} s] RSS MB: {processes} | postgresql "
            f"{sample.pg_backends} backends {mb(sample.pg_private_kb)} private "
            f"({mb(sample.pg_rss_kb)} RSS) | redis {mb(sample.redis_rss_kb)} | connections "
            f"{sum(sample.connections.values())} ({holders})")


def sampling(sampler: Sampler, soak: Soak, warmup_s: float, every_s: float) -> Extra:
    async def run(stop_at: float) -> None:
        started = time.time()
        at = started + warmup_s
        times = []
        while at < stop_at - 1 - every_s / 4:
            times.append(at)
            at += every_s
        times.append(stop_at - 1)  # the end: every player still connected
        for when in times:
            await asyncio.sleep(max(0.0, when - time.time()))
            sample = await asyncio.to_thread(sampler.take)
            soak.samples.append(sample)
            print(describe(sample, started), flush=True)

    return run


def started_wall_of(match_id: str) -> float:
    from django.db import connection

    from games.models import Match

    try:
        return float(Match.objects.values_list("started_wall", flat=True).get(pk=match_id))
    finally:
        connection.close()  # back to the pool: this thread may not come back


def renewing(urls: list[str], stats: Stats, soak: Soak) -> Renew:
    """The next match for a pair whose match ended, made over the public HTTP API."""
    from bots.client import Api

    opponents: dict[str, str] = {}  # seat 1's token -> username

    async def renew(row: Row) -> Row | None:
        match_id, _, token0, token1, flag = row
        url = urls[zlib.crc32(match_id.encode()) % len(urls)]
        try:
            if token1 not in opponents:
                opponents[token1] = (await Api(url, token1).acall("GET", "/api/me"))["username"]
            seek = await Api(url, token0).acall("POST", "/api/seeks", {
                "opponent": opponents[token1], "rated": False,
                "rules": dict(FLAG_RULES) if flag else None})
            accepted = await Api(url, token1).acall("POST", f"/api/seeks/{seek['seek']}/accept")
            new_id = str(accepted["match"]["id"])
            started_wall = await asyncio.to_thread(started_wall_of, new_id)
        except Exception as exc:  # noqa: BLE001 - counted as an error; the pair stops
            stats.errors.append(f"renew: {exc}")
            return None
        soak.renewed += 1
        return (new_id, started_wall, token0, token1, flag)

    return renew


def growth(start: int | None, end: int | None) -> float | None:
    if not start or end is None:
        return None
    return (end - start) / start * 100


def memory_report(first: Sample, last: Sample) -> float:
    """Prints memory at the first sample against the last; returns the largest growth (%)."""
    rows: list[tuple[str, int | None, int | None]] = [
        (name, kb, last.rss_kb.get(name)) for name, kb in first.rss_kb.items()]
    rows += [("postgresql, private per backend",
              first.pg_private_kb // max(1, first.pg_backends),
              last.pg_private_kb // max(1, last.pg_backends)),
             ("redis RSS", first.redis_rss_kb, last.redis_rss_kb)]
    # Shown, not judged: the totals follow the connection count (reported apart), a
    # backend's RSS counts the shared buffers it has touched, Redis's data is the matches'.
    shown_only = [
        (f"postgresql, private, all {first.pg_backends} -> {last.pg_backends} backends",
         first.pg_private_kb, last.pg_private_kb),
        ("postgresql, RSS with shared buffers touched", first.pg_rss_kb, last.pg_rss_kb),
        ("redis used", first.redis_used_kb, last.redis_used_kb)]
    print(f"{'memory (MB)':48} {'first':>8} {'last':>8} {'growth':>8}")
    worst = 0.0
    for judged, (name, start, end) in [*((True, row) for row in rows),
                                       *((False, row) for row in shown_only)]:
        change = growth(start, end)
        shown = "?" if change is None else f"{change:+.1f}%"
        print(f"{name + ('' if judged else ' (not judged)'):48} {mb(start):>8} {mb(end):>8}"
              f" {shown:>8}")
        if judged and change is not None:
            worst = max(worst, change)
    return worst


def window_report(stats: Stats, samples: list[Sample], started: float, stop_at: float) -> None:
    """Moves/s and latency between successive samples (the first window is the warm-up)."""
    timeline, _ = move_latencies(stats, stop_at)
    bounds = [started, *(s.at for s in samples)]
    print(f"{'window (s)':>16} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7}")
    for start, end in itertools.pairwise(bounds):
        if end <= start:
            continue
        sent = [lat * 1000 for t, lat in timeline if start <= t < end]
        moves = sum(1 for _, _, t in stats.ok_moves if start <= t < end)
        print(f"{start - started:7.0f}-{end - started:<8.0f} {moves / (end - start):8.1f} "
              f"{percentile(sent, 0.5):7.1f} {percentile(sent, 0.99):7.1f}")


def main() -> None:
    parser = arguments(__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=60,
                        help="seconds before the first sample (at most a third of the run)")
    parser.add_argument("--sample-every", type=float, default=60,
                        help="seconds between samples (at most a quarter of the run)")
    args = parser.parse_args()
    seconds = args.minutes * 60
    warmup = min(args.warmup, seconds / 3)
    every = min(args.sample_every, seconds / 4)

    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_soak")
    bench = BenchStack(web_processes(args), args.via, prefix="bench-soak-")
    stats, soak = Stats(), Soak()
    sampler: Sampler | None = None
    try:
        print(f"setting up {args.matches} matches ...", flush=True)
        rows = setup(args.matches, args.flag_matches)
        bench.start()
        sampler = Sampler(bench)
        urls = bench.entry_urls
        print(f"soaking for {args.minutes:g} min on {urls}, first sample after {warmup:.0f} s,"
              f" then every {every:.0f} s ...", flush=True)
        started = time.time()
        steady_from, stop_at, cpu_used = play(
            urls, rows, seconds, args.ramp, args.placement, stats,
            renew=renewing(urls, stats, soak),
            extras=[sampling(sampler, soak, warmup, every)])
    finally:
        if sampler is not None:
            sampler.close()
        bench.close()
    figures = analyse(stats, steady_from, stop_at)
    figures["unpersisted_moves"] = unpersisted(stats)
    print(f"matches: {args.matches} at a time ({2 * args.matches} sockets), "
          f"{soak.renewed} more started as others ended")
    window_report(stats, soak.samples, started, stop_at)
    first, last = soak.samples[0], soak.samples[-1]
    worst = memory_report(first, last)
    for label, sample in (("first", first), ("last", last)):
        holders = ", ".join(f"{name} {count}" for name, count in sample.connections.items())
        print(f"pg connections at the {label} sample: {sum(sample.connections.values())}"
              f" ({holders})")
    figures.update({
        "soak_minutes": args.minutes,
        "renewed_matches": soak.renewed,
        "memory_growth_max_pct": worst,
        "pg_connections_first": sum(first.connections.values()),
        "pg_connections_last": sum(last.connections.values()),
    })
    print_figures(figures, cpu_used, stats)
    if stats.errors:
        print("first errors:", *stats.errors[:5], sep="\n  ")
    print(f"logs: {bench.workdir}")


if __name__ == "__main__":
    main()
