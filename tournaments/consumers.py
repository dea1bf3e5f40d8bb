"""The notification websocket ``/ws/notifications/``: every logged-in page joins it.

Authenticated as the match sockets are (``games/live/ws_auth.py``: the session from the
page's own origin, or a token), and counted in the account's share of open sockets
(``games/live/live_limits.py``). On connect it sends the tournament matches the player
has to play now, then each new one as its round starts (``tournaments/notify.py``).
Server to client: ``{"type": "tournament_match" | "tournament_bye", ...}``, and as things
happen ``tournament_match_over``, ``tournament_over`` and ``challenge``; client to server:
``{"type": "ping"}`` and ``{"type": "waiting"}`` (answered ``{"type":
"tournament_waiting", "matches": [...]}``: the tournament matches still waiting for the
player, so that a page drops a banner for any other), at most ``RATE_PER_S`` a second. An
open socket marks its user online (games/live/presence.py).
"""

from __future__ import annotations

from typing import Any

import orjson
from channels.db import database_sync_to_async

from accounts.credentials import REVOKED_CLOSE_CODE, revocation_applies, socket_user_group
from games.live import presence
from games.live.consumers import PlatformConsumer, release_socket
from games.live.live_limits import FloodGuard, SocketShare

from .notify import pending_for, user_group, waiting_of

MAX_MESSAGE_BYTES = 256
RATE_PER_S = 1.0  # a page pings every 25 s or so
BURST = 5.0
MAX_DROPPED = 50  # a client that keeps flooding is disconnected


class NotificationConsumer(PlatformConsumer):
    groups_joined: list[str]

    async def connect(self) -> None:
        self.groups_joined = []
        self.flood = FloodGuard(RATE_PER_S, BURST, MAX_DROPPED, warn_every=10)
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.share = await SocketShare.claim(user)
        if not self.share.admitted:
            await SocketShare.refuse(self)
            return
        for name in (user_group(user.pk), socket_user_group(self.scope)):
            if name is not None:  # losing the credential closes this socket
                await self.channel_layer.group_add(name, self.channel_name)
                self.groups_joined.append(name)
        await self.accept()
        self.presence = await presence.enter(user)
        for notice in await database_sync_to_async(pending_for)(user.pk):
            await self.send_json(notice)

    async def disconnect(self, code: int) -> None:
        await release_socket(self)
        mark, self.presence = getattr(self, "presence", None), None
        await presence.leave(mark)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not await self.flood.admit(self):
            return
        if text_data is not None and len(text_data) <= MAX_MESSAGE_BYTES:
            try:
                data = orjson.loads(text_data)
            except ValueError:
                data = None
            kind = data.get("type") if isinstance(data, dict) else None
            if kind == "ping":
                await self.send_json({"type": "pong"})
            elif kind == "waiting":
                user_id = self.scope["user"].pk
                pending = await database_sync_to_async(pending_for)(user_id)
                await self.send_json(waiting_of(pending))

    async def send_json(self, data: dict[str, Any]) -> None:
        await self.send(text_data=orjson.dumps(data).decode())

    async def notify_notice(self, event: dict[str, Any]) -> None:
        await self.send_json(event["notice"])

    tournament_notice = notify_notice  # the event's name before games/live/notices.py

    async def credential_revoked(self, event: dict[str, Any]) -> None:
        if revocation_applies(self.scope, event):
            await self.close(code=REVOKED_CLOSE_CODE)
