"""A small client of the platform's public HTTP and websocket API (docs/api.md).

No Django here: it is what any outside program would write.

A ``MatchConnection`` reopens its socket when the server drops it (a web process that
died, a proxy that restarted): ``receive`` reconnects and goes on, and the first message on
the new socket is the server's fresh snapshot of the match, so nothing needs resending. A
command that was in flight is decided again on that snapshot: if it was applied, the
snapshot is past it; if not, the new command carries the same version (a resent command is
never applied twice, docs/api.md).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import orjson
import websockets

JSON = dict[str, Any]
# How long a dropped socket is retried before ``receive`` gives up, and the pauses between
# tries (the first try is at once: a proxy routes it to a live process straight away).
RECONNECT_FOR_S = 30.0
RECONNECT_PAUSES_S = (0.05, 0.1, 0.2, 0.4, 0.8, 1.0)
# A command unanswered this long may have been dropped (a socket's flood guard drops a
# message without a word): ``sync`` sends it again, with its id, which the server answers
# again and never applies twice (docs/api.md).
RESEND_AFTER_S = 2.5
# Handshake answers that a retry cannot change: no such match, not allowed, bad token.
FINAL_STATUSES = frozenset({400, 401, 403, 404})


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


SEED_MESSAGE_ID = "seed"


class MatchConnection:
    """One websocket to a match: keeps the latest state, sends commands with its version."""

    def __init__(self, api: Api, match_id: str, on_message: Callable[[JSON], None] | None = None,
                 reconnect: bool = True, send_seed: bool = True):
        self.api = api
        # Our own seed for the match's chance (docs/fairness.md), sent once while the
        # first deal or roll waits for the players' seeds.
        self.send_seed = send_seed
        self.seed_sent = False
        self.match_id = match_id
        self.on_message = on_message
        self.reconnect = reconnect
        self.ws: Any = None
        self.connects = 0  # sockets opened so far: 1, then one more per reconnection
        self.outages: list[tuple[float, float]] = []  # (dropped, reopened), wall clock
        self._closing = False
        self.state: JSON | None = None
        self.version = 0
        self.acted_version = -1  # the state version our last command answered
        self._in_flight: tuple[str, float] | None = None  # our unanswered command, when sent
        self._ids = itertools.count(1)

    async def connect(self) -> None:
        url = f"{self.api.ws_base}/ws/matches/{self.match_id}/"
        self.ws = await websockets.connect(
            url, additional_headers={"Authorization": f"Bearer {self.api.token}"},
            open_timeout=10, max_size=2**22)
        self.connects += 1

    async def close(self) -> None:
        self._closing = True
        if self.ws is not None:
            await self.ws.close()

    def _may_reopen(self, closed: websockets.ConnectionClosed) -> bool:
        """A socket the server dropped, not one we closed or the server refused for good."""
        if not self.reconnect or self._closing:
            return False
        code = closed.rcvd.code if closed.rcvd is not None else None
        # 1000: the server is done with us; 4000-4999: the application's own refusals
        # (4404 no such match, 4429 flooding). Anything else, or no close frame at all
        # (a process killed, a proxy restarted), is worth reopening.
        return code is None or not (code == 1000 or 4000 <= code < 5000)

    async def _reopen(self) -> None:
        dropped = time.time()
        give_up = dropped + RECONNECT_FOR_S
        pauses = iter(RECONNECT_PAUSES_S)
        while True:
            try:
                await self.connect()
                break
            except (OSError, TimeoutError, websockets.InvalidHandshake) as exc:
                status = getattr(getattr(exc, "response", None), "status_code", None)
                pause = next(pauses, RECONNECT_PAUSES_S[-1])
                if status in FINAL_STATUSES or time.time() + pause > give_up:
                    raise
                # Jittered, so that the sockets of a dead process do not come back in step.
                await asyncio.sleep(pause * random.uniform(0.5, 1.0))
        # A command in flight went down with the old socket: decide again on the snapshot
        # that the server sends first on the new one.
        self._decide_again()
        self.outages.append((dropped, time.time()))

    async def receive(self, timeout: float | None = None) -> JSON:
        while True:
            try:
                raw = await asyncio.wait_for(self.ws.recv(decode=False), timeout)
                break
            except websockets.ConnectionClosed as closed:
                if not self._may_reopen(closed):
                    raise
                await self._reopen()
        message: JSON = orjson.loads(raw)  # a quarter of a busy client's time with json
        kind = message.get("type")
        if kind == "error" and message.get("code") == "rate_limited":
            self._decide_again()  # the command was dropped
        if kind == "state" and message.get("version", 0) >= self.version:
            self.state = message
            self.version = message["version"]
            await self._seed_if_open(message)
        elif kind == "result" and message.get("id") == SEED_MESSAGE_ID:
            pass  # our seed's answer: nothing to decide on
        elif kind == "result":
            self._in_flight = None
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
        text = orjson.dumps({"type": "command", "action": action, "version": self.version,
                             "id": message_id}).decode()
        self._in_flight = (text, time.monotonic())
        await self._send(text)
        return message_id

    async def _seed_if_open(self, state: JSON) -> None:
        fairness = (state.get("match") or {}).get("fairness") or {}
        mine = state.get("views") or ([state["view"]] if "view" in state else [])
        playing = any(view.get("seat") is not None for view in mine)
        if self.send_seed and not self.seed_sent and playing and fairness.get("seeds_open"):
            self.seed_sent = True
            await self._send(orjson.dumps({"type": "seed", "seed": secrets.token_hex(16),
                                           "id": SEED_MESSAGE_ID}).decode())

    async def sync(self) -> None:
        """Ask for a fresh snapshot; first send again a command long unanswered."""
        if self._in_flight is not None and time.monotonic() - self._in_flight[1] >= RESEND_AFTER_S:
            text = self._in_flight[0]
            self._in_flight = (text, time.monotonic())
            await self._send(text)
        await self._send('{"type": "sync"}')

    async def _send(self, text: str) -> None:
        ws = self.ws
        try:
            await ws.send(text)
        except websockets.ConnectionClosed as closed:
            # Lost with the socket; ``receive`` reopens it and the snapshot it gets first
            # replaces whatever this message would have asked for.
            if not self._may_reopen(closed):
                raise
            if self.ws is not ws:  # reopened meanwhile: decide again on its snapshot
                self._decide_again()

    @property
    def awaiting_result(self) -> bool:
        """A command of ours is unanswered."""
        return self._in_flight is not None

    def forget_command(self) -> None:
        """Take the unanswered command as dropped: decide again, and never send it again."""
        self._in_flight = None

    def _decide_again(self) -> None:
        """Our command is lost (dropped, or gone with a socket): forget it, and act next on
        whatever view comes."""
        self._in_flight = None
        self.acted_version = -1

    def view_to_act_on(self) -> JSON | None:
        """The newest view, if it is newer than what our last command answered.

        Messages queue up while a client thinks; deciding on an older one would
        answer a position that is gone, so a client decides only on the newest state,
        once, and not while its previous command is unanswered.
        """
        if self.state is None or self.awaiting_result or self.version <= self.acted_version:
            return None
        view: JSON | None = self.state.get("view")
        if view is None and self.state.get("views"):
            view = next((v for v in self.state["views"] if v.get("legal")),
                        self.state["views"][0])
        return view

    def my_views(self) -> list[JSON]:
        if self.state is None:
            return []
        if "views" in self.state:
            return list(self.state["views"])
        return [self.state["view"]]
