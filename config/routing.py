"""Websocket routing (filled in by the live-match work)."""

from typing import Any

from channels.routing import ProtocolTypeRouter


def build_application(http_app: Any) -> ProtocolTypeRouter:
    return ProtocolTypeRouter({"http": http_app})
