"""The issue's yardstick: one daphne relaying each message to both players of a room.

No database and no game: a consumer joins its room's group on the Redis channel layer
(channels-redis's core layer, as in the issue's measurement) and every text it receives
goes to the whole group. Served by ``bench.relay``; settings in ``bench.relay_settings``.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.room = f"room.{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.room, self.channel_name)
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.room, {"type": "relay", "text": text_data})

    async def relay(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("relay/<str:room>/", RelayConsumer.as_asgi())]),
})
