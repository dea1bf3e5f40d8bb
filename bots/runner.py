"""The computer player: finds its matches through the API and plays them over websockets.

``run`` serves every computer account (``bots/levels.py``: one token each, one poll of
its matches each) in one event loop; each account plays its matches at its own level.
The decisions of the levels that search run in a bounded process pool (``Decisions``),
apart from the loop that holds the sockets, so that many tables at once neither block
the sockets nor each other beyond the pool's size; each decision has a deadline fixed
when it is asked for, under the table's delay per decision (``bots/decide.py``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games import registry

from . import decide
from .client import Api, MatchConnection
from .levels import DEFAULT_USERNAME, level_for

log = logging.getLogger("bots")
DEFAULT_WORKERS = 2
JSON = dict[str, Any]


class Decisions:
    """The bounded pool the computer's decisions run in. Its processes start with the
    first decision (a platform nobody plays the computer on runs none) and are spawned,
    not forked, from a process that holds threads and sockets."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        self.workers = max(1, workers)
        self._pool = ProcessPoolExecutor(max_workers=self.workers,
                                         mp_context=multiprocessing.get_context("spawn"),
                                         initializer=decide.warm)

    async def action(self, game: str, view: JSON, level: str | None,
                     most_s: float = decide.SEARCH_S) -> JSON | None:
        deadline = time.time() + decide.decision_seconds(view, most_s)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, decide.decide, game, view, level,
                                          deadline, random.getrandbits(63))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


async def _choose(game: str, view: JSON, level: str | None, decisions: Decisions | None,
                  rng: random.Random) -> JSON | None:
    if decisions is None or level is None:  # the game's plain computer, in the loop
        return registry.game(game).bot_action(view, rng)
    return await decisions.action(game, view, level)


async def play_match(api: Api, match_id: str, think: tuple[float, float] = (0.4, 1.2),
                     username: str | None = None, decisions: Decisions | None = None) -> None:
    """Play one match to its end (every seat it holds): at the level of the account
    ``username`` in ``decisions``' pool, or with no account named, with the game's plain
    computer (``bot_action``). A decision and its think pause together stay under the
    table's delay per decision."""
    rng = random.Random()
    conn = MatchConnection(api, match_id)
    await conn.connect()
    try:
        while True:
            try:
                message = await conn.receive(timeout=15)
            except TimeoutError:
                await conn.sync()
                continue
            if message.get("type") == "state" and message["match"].get("status") != "active":
                return
            if conn.view_to_act_on() is None:
                continue
            game = conn.state["match"].get("game", registry.default_game().key)
            level = None if username is None else level_for(username, game)
            started = time.monotonic()
            action = None
            for view in conn.my_views():
                action = await _choose(game, view, level, decisions, rng)
                if action is not None:
                    break
            if action is None:
                continue
            pause = min(random.uniform(*think), decide.decision_seconds(view, think[1]))
            await asyncio.sleep(max(0.0, pause - (time.monotonic() - started)))
            await conn.send_command(action)
    finally:
        await conn.close()


async def serve(api: Api, username: str, decisions: Decisions | None,
                poll_s: float = 1.0) -> None:
    """Play every active match of one computer account, polling for new ones."""
    playing: dict[str, asyncio.Task[Any]] = {}
    while True:
        try:
            found = await api.acall("GET", "/api/matches?status=active")
            for match in found.get("matches", []):
                match_id = match["id"]
                task = playing.get(match_id)
                if task is None or task.done():
                    playing[match_id] = asyncio.create_task(
                        play_match(api, match_id, username=username, decisions=decisions))
        except Exception:
            log.warning("bot poll failed (%s)", username, exc_info=True)
        await asyncio.sleep(poll_s)


async def run(base_url: str, tokens: dict[str, str] | str, poll_s: float = 1.0,
              workers: int = DEFAULT_WORKERS) -> None:
    """Serve the computer accounts of ``tokens`` (username -> token; a plain token: the
    account "computer") until cancelled."""
    if isinstance(tokens, str):
        tokens = {DEFAULT_USERNAME: tokens}
    decisions = Decisions(workers)
    try:
        await asyncio.gather(*(serve(Api(base_url, token), username, decisions, poll_s)
                               for username, token in tokens.items()))
    finally:
        decisions.close()
