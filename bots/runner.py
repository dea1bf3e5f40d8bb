"""The computer player: finds its matches through the API and plays them over websockets."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from games import registry

from .client import Api, MatchConnection

log = logging.getLogger("bots")


async def play_match(api: Api, match_id: str, think: tuple[float, float] = (0.4, 1.2)) -> None:
    """Play one match to its end with its game's computer player (every seat it holds)."""
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
            plugin = registry.game(conn.state["match"].get("game", registry.default_game().key))
            action = None
            for view in conn.my_views():
                action = plugin.bot_action(view, rng)
                if action is not None:
                    break
            if action is None:
                continue
            await asyncio.sleep(random.uniform(*think))
            await conn.send_command(action)
    finally:
        await conn.close()


async def run(base_url: str, token: str, poll_s: float = 1.0) -> None:
    api = Api(base_url, token)
    playing: dict[str, asyncio.Task[Any]] = {}
    while True:
        try:
            found = await api.acall("GET", "/api/matches?status=active")
            for match in found.get("matches", []):
                match_id = match["id"]
                task = playing.get(match_id)
                if task is None or task.done():
                    playing[match_id] = asyncio.create_task(play_match(api, match_id))
        except Exception:
            log.warning("bot poll failed", exc_info=True)
        await asyncio.sleep(poll_s)
