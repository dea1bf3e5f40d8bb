"""One account floods the live tier while another player waits on his own match.

    python -m bench.flood [--sockets 100] [--rate 9] [--seconds 20] [--no-limits]

Starts the real stack (two daphnes, a Celery worker and beat) on DATABASE_URL (PostgreSQL;
default a fresh ``bench_flood`` database on 127.0.0.1) and REDIS_URL (a private Redis when
unset). The victim keeps one socket open to his own match and asks it for a ``sync`` five
times a second, and calls ``GET /api/me`` twice a second; his opponent plays his moves. First
for ``--seconds`` alone (the baseline), then as long again while the attacker, with one
token, opens ``--sockets`` sockets to his own match spread over both daphnes and sends
``--rate`` stale commands a second on each socket the server accepted (under the per-socket
limit of 10).

Prints the victim's sync and ``/api/me`` latency (p50, p99) in both phases, the attacker's
sockets accepted and refused (past his account's cap, close code 4430, or opened too fast
with one token, 4429), his commands answered and refused as over his budget, and the
target: under the attack the victim's sync p99 at most twice the baseline's plus 20 ms.
``--no-limits`` runs the same attack with the fair-share limits lifted, to show what they
prevent.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets

from bench.live import BenchStack, percentile

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/bench_flood"
NO_LIMITS = {"MAX_SOCKETS_PER_USER": "100000", "USER_COMMANDS_PER_S": "1000000",
             "USER_COMMAND_BURST": "1000000", "SOCKET_OPENINGS_BURST": "1000000",
             "SOCKET_OPENINGS_PER_S": "1000000"}


@dataclass
class Victim:
    sync_ms: list[float] = field(default_factory=list)
    me_ms: list[float] = field(default_factory=list)
    slowest: list[tuple[float, float]] = field(default_factory=list)  # (ms, seconds in)


@dataclass
class Attack:
    accepted: int = 0
    refused: int = 0  # past the account's cap (4430)
    connect_limited: int = 0  # too many openings at once with one token (4429)
    other_closes: int = 0
    sent: int = 0
    answered: int = 0
    over_budget: int = 0


def setup() -> dict[str, Any]:
    """The victim's match and the attacker's: players with tokens."""
    import django

    # Only the victim plays: its match is dealt at once, without waiting for seeds.
    os.environ.setdefault("FAIR_SEED_WAIT_S", "0")
    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from accounts.models import AccessToken
    from games.play.services import do_create_match

    call_command("migrate", verbosity=0)
    tokens = {}
    users = {}
    for name in ("victim", "opponent", "attacker", "sparring"):
        users[name] = User.objects.create_user(f"flood_{name}")
        tokens[name] = AccessToken.issue(users[name], "bench")[1]
    # The victim's match: a long bank, so that nobody's clock runs out in the run.
    rules = {"bank_s": 3600, "delay_s": 60}
    victim_match = do_create_match(users["victim"], users["opponent"], rated=False, rules=rules)
    attacker_match = do_create_match(users["attacker"], users["sparring"], rated=False,
                                     rules=rules)
    return {"tokens": tokens, "victim_match": str(victim_match.pk),
            "attacker_match": str(attacker_match.pk)}


def ws_url(base: str, match_id: str) -> str:
    return "ws" + base[len("http"):] + f"/ws/matches/{match_id}/"


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def measure_victim(base: str, token: str, match_id: str, stop_at: float,
                         victim: Victim) -> None:
    """Syncs five times a second on one socket; ``/api/me`` twice a second beside it."""

    async def api_me() -> None:
        request = urllib.request.Request(base + "/api/me", headers=headers(token))
        while time.time() < stop_at:
            started = time.perf_counter()
            await asyncio.to_thread(lambda: urllib.request.urlopen(request, timeout=10).read())
            victim.me_ms.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.5)

    me_task = asyncio.create_task(api_me())
    async with websockets.connect(ws_url(base, match_id), additional_headers=headers(token),
                                  max_size=None) as sock:
        await sock.recv()  # the snapshot every connection gets first
        while time.time() < stop_at:
            started = time.perf_counter()
            await sock.send('{"type": "sync"}')
            while True:  # the answer to this sync (a move's broadcast may come first)
                message = orjson.loads(await sock.recv())
                if message.get("type") in ("state", "error"):
                    break
            victim.sync_ms.append((time.perf_counter() - started) * 1000)
            victim.slowest.append((victim.sync_ms[-1], time.time() - stop_at))
            await asyncio.sleep(0.2)
    await me_task


async def attacker_socket(base: str, token: str, match_id: str, rate: float, stop_at: float,
                          attack: Attack) -> None:
    try:
        sock = await websockets.connect(ws_url(base, match_id),
                                        additional_headers=headers(token), max_size=None)
    except Exception:  # noqa: BLE001  (a handshake refused outright)
        attack.refused += 1
        return
    try:
        first = orjson.loads(await sock.recv())
        if first.get("type") != "state":  # refused: an error, then the close
            try:
                await sock.recv()
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if code == 4430:
                    attack.refused += 1
                elif code == 4429:
                    attack.connect_limited += 1
                else:
                    attack.other_closes += 1
            return
        attack.accepted += 1

        async def read() -> None:
            async for raw in sock:
                message = orjson.loads(raw)
                if message.get("type") == "result":
                    attack.answered += 1
                    if message.get("code") == "rate_limited":
                        attack.over_budget += 1

        reader = asyncio.create_task(read())
        # A version the match never reaches: refused as stale after the server read the
        # match, and answered with a fresh snapshot (the most a command can cost unapplied).
        stale = orjson.dumps({"type": "command", "version": 10**9,
                              "action": {"seat": 0, "type": "pass"}}).decode()
        while time.time() < stop_at:
            await sock.send(stale)
            attack.sent += 1
            await asyncio.sleep(1 / rate)
        reader.cancel()
    except websockets.ConnectionClosed:
        attack.other_closes += 1
    finally:
        await sock.close()


async def opponent_plays(base: str, token: str, match_id: str, stop_at: float) -> None:
    """The victim's opponent: plays whenever it is his turn (greedy), about once a second."""
    from bots.client import Api, MatchConnection
    from games.spectacular_bid.bot import choose

    conn = MatchConnection(Api(base, token), match_id)
    await conn.connect()
    try:
        while time.time() < stop_at:
            with contextlib.suppress(TimeoutError):  # nothing new: look again
                await conn.receive(timeout=1)
            view = conn.view_to_act_on()
            action = choose(view) if view is not None else None
            if action is not None:
                await asyncio.sleep(1)
                await conn.send_command(action)
    finally:
        await conn.close()


async def attack_all(urls: list[str], token: str, match_id: str, sockets: int, rate: float,
                     stop_at: float) -> Attack:
    attack = Attack()
    await asyncio.gather(*(attacker_socket(urls[index % len(urls)], token, match_id, rate,
                                           stop_at, attack) for index in range(sockets)))
    return attack


def attacker_process(urls: list[str], token: str, match_id: str, sockets: int, rate: float,
                     stop_at: float, answer: Any) -> None:
    """The attacker in a process of his own, as he would be on a machine of his own: his
    client's work must not slow the victim's client, nor, at the lowest priority, take the
    servers' CPU (on another machine it would not)."""
    os.nice(19)
    answer.send(asyncio.run(attack_all(urls, token, match_id, sockets, rate, stop_at)))


async def victim_phase(urls: list[str], world: dict[str, Any], stop_at: float) -> Victim:
    victim = Victim()
    tokens = world["tokens"]
    await asyncio.gather(
        measure_victim(urls[0], tokens["victim"], world["victim_match"], stop_at, victim),
        opponent_plays(urls[0], tokens["opponent"], world["victim_match"], stop_at))
    return victim


def phase(urls: list[str], world: dict[str, Any], seconds: float,
          attack_args: tuple[int, float] | None) -> tuple[Victim, Attack]:
    stop_at = time.time() + seconds
    if attack_args is None:
        return asyncio.run(victim_phase(urls, world, stop_at)), Attack()
    receiving, sending = multiprocessing.Pipe(duplex=False)
    attacker = multiprocessing.Process(target=attacker_process, args=(
        urls, world["tokens"]["attacker"], world["attacker_match"], *attack_args, stop_at,
        sending))
    attacker.start()
    try:
        victim = asyncio.run(victim_phase(urls, world, stop_at))
        attack = receiving.recv() if receiving.poll(30) else Attack()
    finally:
        attacker.join(10)
        if attacker.is_alive():
            attacker.kill()
    return victim, attack


def report(name: str, victim: Victim) -> dict[str, float]:
    figures = {f"{name}_sync_p50_ms": percentile(victim.sync_ms, 0.5),
               f"{name}_sync_p99_ms": percentile(victim.sync_ms, 0.99),
               f"{name}_api_me_p50_ms": percentile(victim.me_ms, 0.5),
               f"{name}_api_me_p99_ms": percentile(victim.me_ms, 0.99)}
    for key, value in figures.items():
        print(f"{key}: {value:.1f}")
    if os.environ.get("FLOOD_SLOWEST"):
        print(name, "slowest syncs (ms @ s before the end):",
              " ".join(f"{ms:.0f}@{at:.1f}" for ms, at in sorted(victim.slowest)[-8:]))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=100)
    parser.add_argument("--rate", type=float, default=9.0,
                        help="stale commands a second on each accepted socket")
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length")
    parser.add_argument("--no-limits", action="store_true",
                        help="lift the fair-share limits (what the attack did before them)")
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
    if args.no_limits:
        os.environ.update(NO_LIMITS)
    bench = BenchStack(web_processes=2, prefix="bench-flood-")
    try:
        world = setup()
        bench.start()
        urls = bench.stack.urls
        print(f"baseline: the victim alone for {args.seconds:.0f} s ...", flush=True)
        baseline, _ = phase(urls, world, args.seconds, None)
        print(f"attack: {args.sockets} sockets at {args.rate:g} commands/s each ...", flush=True)
        attacked, attack = phase(urls, world, args.seconds, (args.sockets, args.rate))
    finally:
        bench.close()
    base = report("baseline", baseline)
    under = report("attack", attacked)
    target = 2 * base["baseline_sync_p99_ms"] + 20
    print(f"limits: {'off' if args.no_limits else 'on'}")
    print(f"attacker_sockets_accepted: {attack.accepted}")
    print(f"attacker_sockets_refused: {attack.refused + attack.connect_limited}")
    print(f"attacker_sockets_over_cap: {attack.refused}")
    print(f"attacker_sockets_opened_too_fast: {attack.connect_limited}")
    print(f"attacker_sockets_closed_otherwise: {attack.other_closes}")
    print(f"attacker_commands_sent: {attack.sent}")
    print(f"attacker_commands_answered: {attack.answered}")
    print(f"attacker_commands_over_budget: {attack.over_budget}")
    print(f"target_sync_p99_ms: {target:.1f}")
    print(f"within_target: {'yes' if under['attack_sync_p99_ms'] <= target else 'no'}")
    print(f"logs: {bench.workdir}")


if __name__ == "__main__":
    main()
