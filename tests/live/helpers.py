"""Players for live tests: users with tokens, and clients of the public API."""

from __future__ import annotations

import asyncio
from typing import Any

from django.contrib.auth.models import User

from accounts.models import AccessToken
from bots.client import Api, MatchConnection
from games.spectacular_bid.bot import choose


def make_player(name: str) -> tuple[User, str]:
    user = User.objects.create_user(name, password=f"pw-{name}-123")
    _token, raw = AccessToken.issue(user, "tests")
    return user, raw


async def play_until(conn: MatchConnection, stop: Any, timeout: float = 60,
                     log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play with the greedy policy until ``stop(view)`` is true; returns the last view."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        remaining = end - loop.time()
        if remaining <= 0:
            raise TimeoutError("the match did not reach the expected point in time")
        try:
            message = await conn.receive(timeout=min(remaining, 5))
        except TimeoutError:
            await conn.sync()
            continue
        if log is not None:
            log.append(message)
        if message.get("type") == "state" and stop(message["view"]):
            return dict(message["view"])
        view = conn.view_to_act_on()
        action = choose(view) if view is not None else None
        if action is not None:
            await conn.send_command(action)


def connect(url: str, token: str, match_id: str) -> MatchConnection:
    return MatchConnection(Api(url, token), match_id)
