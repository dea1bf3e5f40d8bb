"""Many games against the computer at once on the running platform (``bench.bots --concurrent``).

``.venv/bin/python -m bench.bots --concurrent 50 [--seconds 120] [--level hard] [--ramp 5]``

Starts the real stack as ``bench.live`` does (two daphne processes, a Celery worker and
beat, on a fresh database from DATABASE_URL, default ``bench_bots``, and REDIS_URL or a
private Redis) and the computer player (``manage.py runbot``, every computer account, its
searching levels deciding in their bounded process pool). N players, each with an account
and a token, arrive over ``--ramp`` seconds; each starts a casual Spectacular Bid match
against ``--level`` (``POST /api/matches/computer``) and plays it over the websocket with
the greedy client (``games.spectacular_bid.bot.choose``, a short think), then the next
one, until ``--seconds`` are up.

A computer decision is due when the state in which the computer is to act (``to_act``)
reaches its opponent, and done when the next state (a higher version: nothing but the
computer can change a table it is to act on, short of a flag) does, both on the player's
own clock; the Continue that starts each hand (the first before the first deal) is one
too, due from the first state of the hand's ``continue`` phase until one that shows the
computer's Continue (``continues``, ``continue_max_ms``: of them, these). A decision
still open at the end counts only if it has already passed the delay. Prints one line,
then each figure as ``name: value``::

    concurrent 50: decisions 812, p50_ms 640, p95_ms 1100, max_ms 1480, delay_ms 10000,
    over_delay 0, errors 0

(one line in the output).

delay_ms: the table's delay per decision (the matches' ``rules.delay_s``); over_delay:
decisions that took longer; errors: refusals other than the races of a command that
crossed the end of the match (``stale``, ``over``), errors, sockets or calls that failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/bench_bots"
GAME = "spectacular-bid"
RACES = frozenset({"stale", "over"})
THINK_S = (0.2, 0.6)  # the players' own pause before a move
READY_TIMEOUT_S = 60.0
MAX_SECONDS = 1_800.0  # a bound on one run


@dataclass(frozen=True)
class Due:
    """A decision of the computer's (seat ``seat``) that the state ``version`` asked for:
    its turn (``to_act``), or the Continue that starts each hand (``continue``)."""

    kind: str
    seat: int
    version: int
    arrived: float

    @staticmethod
    def opened(version: int, view: dict[str, Any], now: float) -> Due | None:
        seat = view.get("seat")
        if seat is None or view.get("result") is not None:
            return None
        computer = 1 - int(seat)
        if view.get("to_act") == computer:
            return Due("turn", computer, version, now)
        continued = view.get("continued") or []
        if view.get("phase") == "continue" and len(continued) > computer \
                and not continued[computer]:
            return Due("continue", computer, version, now)
        return None

    def done(self, version: int, view: dict[str, Any]) -> bool:
        """Whether ``view`` holds the computer's answer. On its turn nothing else can
        change the table (short of a flag); the Continue is the other seat's too."""
        if self.kind == "turn":
            return version > self.version
        continued = view.get("continued") or []
        return view.get("phase") != "continue" or bool(continued[self.seat])


@dataclass
class Stats:
    decisions_s: list[float] = field(default_factory=list)
    continues_s: list[float] = field(default_factory=list)  # of them, the Continues
    open_s: list[float] = field(default_factory=list)  # still open at the end: their age
    delay_s: float | None = None
    matches_started: int = 0
    matches_finished: int = 0
    errors: list[str] = field(default_factory=list)

    def took(self, decision: Due, now: float) -> None:
        self.decisions_s.append(now - decision.arrived)
        if decision.kind == "continue":
            self.continues_s.append(now - decision.arrived)


async def play_one(api: Any, match_id: str, stats: Stats, stop_at: float) -> bool:
    """Play one match until it ends (True) or the time is up (False), timing the
    computer's decisions."""
    from bots.client import SEED_MESSAGE_ID, MatchConnection
    from games.spectacular_bid.bot import choose

    conn = MatchConnection(api, match_id)
    await conn.connect()
    changed = asyncio.Event()
    over = asyncio.Event()
    due: list[Due] = []  # the computer's open decision

    async def read() -> None:
        while True:
            try:
                message = await conn.receive()
            except Exception as exc:  # noqa: BLE001 - counted
                stats.errors.append(f"socket: {exc!r}")
                over.set()
                changed.set()
                return
            now = time.monotonic()
            kind = message.get("type")
            if kind == "result":
                if (not message.get("ok") and message.get("id") != SEED_MESSAGE_ID
                        and message.get("code") not in RACES):
                    stats.errors.append(f"{message.get('code')}: {message.get('message')}")
            elif kind == "error":
                stats.errors.append(f"error: {message}")
            elif kind == "state":
                view = message["view"]
                version = int(message["version"])
                active = message["match"].get("status") == "active"
                stats.delay_s = float(view["rules"]["delay_s"])
                if due and (not active or due[0].done(version, view)):
                    stats.took(due.pop(), now)
                if not due and active:
                    opened = Due.opened(version, view, now)
                    if opened is not None:
                        due.append(opened)
                if not active:
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
            view = conn.view_to_act_on()
            action = choose(view) if view is not None and not over.is_set() else None
            if action is None:
                continue
            await asyncio.sleep(random.uniform(*THINK_S))
            if over.is_set() or time.time() >= stop_at:
                break
            await conn.send_command(action)
    finally:
        reader.cancel()
        await conn.close()
    if due:
        stats.open_s.append(time.monotonic() - due[0].arrived)
    return over.is_set()


async def player(url: str, token: str, level: str, stats: Stats, stop_at: float,
                 start_delay: float) -> None:
    """One person: a match against the computer after another until the time is up."""
    from bots.client import Api

    api = Api(url, token)
    await asyncio.sleep(start_delay)
    while time.time() < stop_at - 1:
        try:
            created = await api.acall("POST", "/api/matches/computer",
                                      {"game": GAME, "level": level})
            stats.matches_started += 1
            if await play_one(api, created["match"]["id"], stats, stop_at):
                stats.matches_finished += 1
        except Exception as exc:  # noqa: BLE001 - counted; this player stops
            stats.errors.append(f"player: {exc!r}")
            return


def make_players(count: int) -> list[str]:
    """``count`` accounts with a token each (after migrating the fresh database)."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from accounts.models import AccessToken

    call_command("migrate", verbosity=0)
    tag = f"c{int(time.time())}"
    return [AccessToken.issue(User.objects.create_user(f"{tag}_{index}"), "bench")[1]
            for index in range(count)]


def start_runner(bench: Any, url: str) -> None:
    """``manage.py runbot`` beside the stack (stopped with it), and wait until it has
    issued every computer account its token: it polls for matches from then on."""
    from accounts.computer import RUNBOT_TOKEN_NAME
    from accounts.models import AccessToken
    from bots.levels import level_accounts

    since = datetime.now(UTC)
    log = open(bench.workdir / "bot.log", "ab")  # noqa: SIM115 - closed with the process
    bench.stack.procs["bot"] = subprocess.Popen(
        [sys.executable, "manage.py", "runbot", "--url", url], env=bench.env, cwd=ROOT,
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    wanted = len(level_accounts())
    deadline = time.time() + READY_TIMEOUT_S
    while AccessToken.objects.filter(name=RUNBOT_TOKEN_NAME, revoked_at__isnull=True,
                                     created_at__gte=since).count() < wanted:
        if bench.stack.procs["bot"].poll() is not None or time.time() > deadline:
            raise RuntimeError(f"runbot did not start; see {bench.workdir / 'bot.log'}")
        time.sleep(0.2)
    time.sleep(1.0)  # its first poll


async def drive(urls: list[str], tokens: list[str], level: str, stats: Stats, seconds: float,
                ramp: float) -> None:
    stop_at = time.time() + seconds
    await asyncio.gather(*(
        player(urls[index % len(urls)], token, level, stats, stop_at,
               ramp * index / len(tokens))
        for index, token in enumerate(tokens)))


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def figures(stats: Stats) -> dict[str, float | int]:
    delay = stats.delay_s if stats.delay_s is not None else float("nan")
    late_open = [age for age in stats.open_s if age > delay]
    ms = [x * 1000 for x in stats.decisions_s + late_open]
    return {
        "decisions": len(ms),
        "p50_ms": percentile(ms, 0.50),
        "p95_ms": percentile(ms, 0.95),
        "max_ms": max(ms, default=float("nan")),
        "delay_ms": delay * 1000,
        "over_delay": sum(1 for x in ms if x > delay * 1000),
        "errors": len(stats.errors),
        "continues": len(stats.continues_s),
        "continue_max_ms": max((x * 1000 for x in stats.continues_s), default=float("nan")),
        "matches_started": stats.matches_started,
        "matches_finished": stats.matches_finished,
    }


def run(args: argparse.Namespace) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
    from bench.live import BenchStack

    seconds = min(args.seconds, MAX_SECONDS)
    bench = BenchStack(web_processes=2, prefix="bench-bots-")
    stats = Stats()
    try:
        print(f"setting up {args.concurrent} players ...", flush=True)
        tokens = make_players(args.concurrent)
        bench.start()
        urls = bench.entry_urls
        start_runner(bench, urls[0])
        print(f"playing {args.concurrent} games against {args.level} for {seconds:.0f} s "
              f"on {urls} ...", flush=True)
        asyncio.run(drive(urls, tokens, args.level, stats, seconds, args.ramp))
    finally:
        bench.close()
    found = figures(stats)
    shown = ("decisions", "p50_ms", "p95_ms", "max_ms", "delay_ms", "over_delay", "errors")
    print(f"concurrent {args.concurrent}: "
          + ", ".join(f"{name} {found[name]:.0f}" for name in shown))
    for name, value in found.items():
        print(f"{name}: {value:.0f}" if isinstance(value, float) else f"{name}: {value}")
    if stats.errors:
        print("first errors:", *stats.errors[:5], sep="\n  ")
    print(f"logs: {bench.workdir}")
