"""The issue's yardstick, measured on this machine: a bare daphne relay.

    python -m bench.relay [--rooms 250] [--rates 200,400,600] [--seconds 10]
    RELAY_LAYER=pubsub python -m bench.relay ...   # the pub/sub layer the platform uses

One daphne process serves ``bench.relay_app`` (no database, no game logic) on the
channels-redis core layer; each room has two clients, one of which sends a message at
the room's share of the offered rate. For each offered rate it prints the rate the
relay delivered and p50/p99 from a send until both clients received it. The issue set
its live target beside this figure (about 650 moves/s at most, p99 23 ms at 500 moves/s,
on the machine it was written on), so the ratio tells how fast this machine is.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


async def room(url: str, name: str, interval: float, start_at: float, stop_at: float,
               latencies: list[float]) -> None:
    import websockets

    async with websockets.connect(f"{url}/relay/{name}/") as sender, \
            websockets.connect(f"{url}/relay/{name}/") as other:
        await asyncio.sleep(max(0.5, start_at - time.time()))  # all rooms open, then send
        sent: dict[str, float] = {}
        arrivals: dict[str, int] = {}

        async def listen(ws: object) -> None:
            async for text in ws:  # type: ignore[attr-defined]
                arrivals[text] = arrivals.get(text, 0) + 1
                if arrivals[text] == 2 and text in sent:
                    latencies.append(time.perf_counter() - sent.pop(text))

        readers = [asyncio.create_task(listen(ws)) for ws in (sender, other)]
        count = 0
        await asyncio.sleep(interval * (hash(name) % 1000) / 1000)  # not in lockstep
        while time.time() < stop_at:
            count += 1
            text = f"{name}:{count}"
            sent[text] = time.perf_counter()
            await sender.send(text)
            await asyncio.sleep(interval)
        await asyncio.sleep(1)
        for reader in readers:
            reader.cancel()


async def run_rooms(url: str, rooms: int, interval: float, start_at: float, stop_at: float,
                    latencies: list[float]) -> None:
    await asyncio.gather(*(room(url, f"r{i}", interval, start_at, stop_at, latencies)
                           for i in range(rooms)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--rates", default="200,400,600")
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from bench.live import percentile
    from bench.stack import free_port
    from config.embedded import ensure_redis_url

    handle = ensure_redis_url()
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="bench-relay-"))
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="bench.relay_settings")
    log = open(workdir / "daphne.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "bench.relay_app:application"], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    url = f"ws://127.0.0.1:{port}"
    try:
        time.sleep(3)
        for rate in (float(r) for r in args.rates.split(",")):
            latencies: list[float] = []
            start_at = time.time() + 5  # every socket open first
            stop_at = start_at + args.seconds
            interval = args.rooms / rate
            asyncio.run(run_rooms(url, args.rooms, interval, start_at, stop_at, latencies))
            delivered = len(latencies) / args.seconds
            print(f"offered {rate:.0f}/s: delivered {delivered:.0f}/s, "
                  f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
                  f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms", flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()
        if handle is not None:
            handle.shutdown()


if __name__ == "__main__":
    main()
