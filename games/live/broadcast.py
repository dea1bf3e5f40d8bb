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

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState
from games.models import Match
from games.play import deals

SPECTATORS = "spectators"


def group_name(match_id: Any) -> str:
    return f"match.{match_id}"


def role_of(seats: list[int]) -> str:
    """The key of a connection's text in a broadcast: its seat, its seats ("0,1": one
    person in several, a one-device game or the computer at a table), or spectators."""
    if not seats:
        return SPECTATORS
    return ",".join(str(seat) for seat in seats)


def seat_groups(seat_users: list[Any]) -> list[list[int]]:
    """The seats of each user who sits in more than one."""
    groups: dict[Any, list[int]] = {}
    for seat, user in enumerate(seat_users):
        groups.setdefault(user, []).append(seat)
    return [seats for seats in groups.values() if len(seats) > 1]


def views_for(match: Match, plugin: GamePlugin, engine: GameState) -> dict[str, Any]:
    """What each seat and the spectators may see (the game's own ``view``), and the header."""
    return {
        "seats": [plugin.view(engine, seat) for seat in range(match.seat_count)],
        SPECTATORS: plugin.view(engine, None),
        "header": {
            "id": str(match.pk),
            "game": match.game,
            "players": match.players(),
            "seats": match.seat_count,
            "seat_groups": seat_groups(match.seat_users),
            "rated": match.rated,
            "one_device": match.one_device,
            "status": match.status,
            "annul_reason": match.annul_reason,
            "winner": match.winner,
            "reason": match.reason,
            "rating_changes": _rating_changes(match),
            "fairness": deals.public(match),
        },
    }


def _rating_changes(match: Match) -> list[dict[str, Any]]:
    if match.rating_seq is None:
        return []
    # The ratings app's rows, through their relation to the match (games imports no ratings).
    return [{"user": change.user.username, "before": change.before, "after": change.after,
             "delta": change.after - change.before}
            for change in match.rating_changes.select_related("user").order_by("pk")]


def connection_message(match_id: Any, version: int, started_wall: float,
                       views: dict[str, Any], seats: list[int]) -> dict[str, Any]:
    """The message for one connection: its seat's view, all (one device), or the public one."""
    message: dict[str, Any] = {
        "type": "state",
        "version": version,
        "server_now": time.time() - started_wall,
        "match": views["header"],
    }
    if len(seats) > 1:
        message["views"] = [views["seats"][seat] for seat in seats]  # its own seats only
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
    seat_count = len(views["seats"])
    roles: list[list[int]] = [[seat] for seat in range(seat_count)]
    roles.append([])
    roles += views["header"]["seat_groups"]
    texts = {}
    for seats in roles:
        message = connection_message(match_id, version, started_wall, views, seats)
        # Encoded once here; each connection forwards the text as it is.
        texts[role_of(seats)] = orjson.dumps(message).decode()
    await layer.group_send(group_name(match_id), {
        "type": "match.state", "texts": texts,
        "over": views["header"]["status"] != "active"})
