"""A small client of the platform's public HTTP and websocket API (docs/api.md).

No Django here: it is what any outside program would write.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import orjson
import websockets

JSON = dict[str, Any]


class ApiError(Exception):
    def __init__(self, status: int, body: JSON) -> None:
        super().__init__(f"{status}: {body.get('message', body)}")
        self.status = status
        self.body = body


class Api:
    """HTTP calls with a personal access token."""

    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: JSON | None = None) -> JSON:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                result: JSON = json.loads(response.read() or b"{}")
                return result
        except urllib.error.HTTPError as exc:
            try:
                payload = json.loads(exc.read() or b"{}")
            except ValueError:
                payload = {"message": str(exc)}
            raise ApiError(exc.code, payload) from None

    async def acall(self, method: str, path: str, body: JSON | None = None) -> JSON:
        return await asyncio.to_thread(self.call, method, path, body)

    @property
    def ws_base(self) -> str:
        return "ws" + self.base_url[len("http"):]


class MatchConnection:
    """One websocket to a match: keeps the latest state, sends commands with its version."""

    def __init__(self, api: Api, match_id: str, on_message: Callable[[JSON], None] | None = None):
        self.api = api
        self.match_id = match_id
        self.on_message = on_message
        self.ws: Any = None
        self.state: JSON | None = None
        self.version = 0
        self.acted_version = -1  # the state version our last command answered
        self.awaiting_result = False
        self._ids = itertools.count(1)

    async def connect(self) -> None:
        url = f"{self.api.ws_base}/ws/matches/{self.match_id}/"
        self.ws = await websockets.connect(
            url, additional_headers={"Authorization": f"Bearer {self.api.token}"},
            open_timeout=10, max_size=2**22)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def receive(self, timeout: float | None = None) -> JSON:
        raw = await asyncio.wait_for(self.ws.recv(decode=False), timeout)
        message: JSON = orjson.loads(raw)  # a quarter of a busy client's time with json
        kind = message.get("type")
        if kind == "error" and message.get("code") == "rate_limited":
            self.awaiting_result = False  # the command was dropped: decide again
            self.acted_version = -1
        if kind == "state" and message.get("version", 0) >= self.version:
            self.state = message
            self.version = message["version"]
        elif kind == "result":
            self.awaiting_result = False
            # Whether applied or refused, decide next on a state at least this new:
            # the server was at this version when it answered.
            answered = int(message.get("version", 0))
            self.acted_version = answered - 1
            if not message.get("ok"):
                await self.sync()  # the state that answers it may never come otherwise
        if self.on_message is not None:
            self.on_message(message)
        return message

    async def send_command(self, action: JSON, message_id: str | None = None) -> str:
        message_id = message_id or f"c{next(self._ids)}"
        self.acted_version = self.version
        self.awaiting_result = True
        await self.ws.send(orjson.dumps({"type": "command", "action": action,
                                         "version": self.version, "id": message_id}).decode())
        return message_id

    async def sync(self) -> None:
        await self.ws.send('{"type": "sync"}')

    def view_to_act_on(self) -> JSON | None:
        """The newest view, if it is newer than what our last command answered.

        Messages queue up while a client thinks; deciding on an older one would
        answer a position that is gone, so a client decides only on the newest state,
        once, and not while its previous command is unanswered.
        """
        if self.state is None or self.awaiting_result or self.version <= self.acted_version:
            return None
        view: JSON | None = self.state.get("view")
        return view

    def my_views(self) -> list[JSON]:
        if self.state is None:
            return []
        if "views" in self.state:
            return list(self.state["views"])
        return [self.state["view"]]
