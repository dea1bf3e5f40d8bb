"""Sending views to the players and spectators of a match.

Each recipient gets only what ``view(state, seat)`` allows: the views are built by
the writer, one per seat and one for spectators, and each group receives its own.
Every message carries the match version: a client that sees a gap asks for a fresh
snapshot, so a lost message never loses a move.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.spectacular_bid.state import Match as Engine

from .models import Match

SPECTATORS = "spectators"
DEVICE = "device"  # both seats of a one-device game, on one screen


def group_name(match_id: Any) -> str:
    return f"match.{match_id}"


def role_of(seats: list[int]) -> str:
    """The key of a connection's text in a broadcast: its seat, both seats, or spectators."""
    if len(seats) == 2:
        return DEVICE
    return str(seats[0]) if seats else SPECTATORS


def views_for(match: Match, engine: Engine) -> dict[str, Any]:
    return {
        "seats": [engine.view(0), engine.view(1)],
        SPECTATORS: engine.view(None),
        "header": {
            "id": str(match.pk),
            "players": match.players(),
            "rated": match.rated,
            "one_device": match.one_device,
            "status": match.status,
            "annul_reason": match.annul_reason,
            "winner": match.winner,
            "reason": match.reason,
            "rating_changes": _rating_changes(match),
        },
    }


def _rating_changes(match: Match) -> list[dict[str, Any]]:
    if match.rating_seq is None:
        return []
    from ratings.services import rating_changes_of

    return rating_changes_of(match)


def connection_message(match_id: Any, version: int, started_wall: float,
                       views: dict[str, Any], seats: list[int]) -> dict[str, Any]:
    """The message for one connection: its seat's view, both (one device), or the public one."""
    message: dict[str, Any] = {
        "type": "state",
        "version": version,
        "server_now": time.time() - started_wall,
        "match": views["header"],
    }
    if len(seats) == 2:
        message["views"] = views["seats"]
    elif len(seats) == 1:
        message["view"] = views["seats"][seats[0]]
    else:
        message["view"] = views[SPECTATORS]
    return message


Outbox = list[tuple[Any, int, float, dict[str, Any]]]
# An async caller (the websocket consumer) collects the broadcasts of the commands it
# runs and sends them itself on its own event loop, instead of a worker thread
# bridging to it for every move (measured: most of a move's cost).
_outbox: ContextVar[Outbox | None] = ContextVar("broadcast_outbox", default=None)


def send_views(match_id: Any, version: int, started_wall: float, views: dict[str, Any]) -> None:
    outbox = _outbox.get()
    if outbox is not None:
        outbox.append((match_id, version, started_wall, views))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(send_all)(layer, match_id, version, started_wall, views)


def start_outbox() -> Outbox:
    """Collect this context's broadcasts (call from async code, then ``flush_outbox``)."""
    outbox: Outbox = []
    _outbox.set(outbox)
    return outbox


async def flush_outbox(outbox: Outbox) -> None:
    layer = get_channel_layer()
    while outbox:
        match_id, version, started_wall, views = outbox.pop(0)
        if layer is not None:
            await send_all(layer, match_id, version, started_wall, views)


async def send_all(layer: Any, match_id: Any, version: int, started_wall: float,
                   views: dict[str, Any]) -> None:
    """One message to the match's group, with a text per role; each connection forwards its own.

    One publish per move (not one per seat): on the pub/sub layer that is one Redis round
    trip, and each web process gets the move once however many of its sockets watch it.
    The other roles' texts stay inside the server; only a connection's own is sent on.
    """
    roles: list[tuple[str, list[int]]] = [("0", [0]), ("1", [1]), (SPECTATORS, [])]
    if views["header"]["one_device"]:
        roles.append((DEVICE, [0, 1]))
    texts = {}
    for role, seats in roles:
        message = connection_message(match_id, version, started_wall, views, seats)
        # Encoded once here; each connection forwards the text as it is.
        texts[role] = orjson.dumps(message).decode()
    await layer.group_send(group_name(match_id), {"type": "match.state", "texts": texts})
