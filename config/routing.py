"""HTTP through Django; websockets through Channels, authenticated and origin-checked."""

from typing import Any

from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

from games.live.consumers import MatchConsumer
from games.live.socket_inbox import drop_after_disconnect
from games.live.ws_auth import websocket_auth
from tournaments.consumers import NotificationConsumer


def build_application(http_app: Any) -> ProtocolTypeRouter:
    websocket_routes = URLRouter([
        path("ws/matches/<uuid:match_id>/", MatchConsumer.as_asgi()),
        path("ws/notifications/", NotificationConsumer.as_asgi()),
    ])
    # What a socket sent before it closed is dropped, not run (games/live/socket_inbox.py).
    websocket = drop_after_disconnect(websocket_auth(websocket_routes))
    return ProtocolTypeRouter({"http": http_app, "websocket": websocket})
