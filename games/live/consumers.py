"""The match websocket: thin; every change goes through ``services``.

Client -> server messages (docs/api.md):
  {"type": "command", "action": {...record-shaped action...}, "version": n, "id": "..."}
  {"type": "sync"}   -> a fresh snapshot of this connection's view
  {"type": "seed", "seed": "...", "id": "..."}  -> a player's own seed (docs/fairness.md)
  {"type": "ping"}
  {"type": "room"}   -> join the room's talk: presence now and on every change, and the
                       quick messages (a client that never asks gets neither)
  {"type": "say", "code": "hello|good_game|thanks|oops"}  -> a quick message (seated only)
Server -> client: {"type": "state", ...}, {"type": "result", "id", "ok", "code", "message",
"version"}, {"type": "error", "code", "message"}, {"type": "pong"}, and once in the room
{"type": "presence", "connected": [bool|null per seat], "spectators": n} (null: the
computer's seat) and {"type": "said", "seat", "code"}.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, OrderedDict
from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.core.exceptions import ValidationError
from django.db import InterfaceError, OperationalError, connection
from django.utils.translation import gettext as _

from accounts.credentials import REVOKED_CLOSE_CODE, revocation_applies, socket_user_group
from games.live import broadcast, live_limits, presence, quick_messages
from games.live.live_limits import SocketShare
from games.models import Match
from games.play import match_cache, services
from games.reads.db_calls import read_in_writer, retried_once, run_in_writer

MAX_MESSAGE_BYTES = 4096
RATE_PER_S = 10.0  # sustained messages per second per connection
BURST = 20.0
MAX_DROPPED = 200  # a client that keeps flooding is disconnected
# The answers to a socket's latest command ids. A client resends on the same socket only
# what it has just sent (a new socket starts afresh), so a few suffice; 256 for each of
# hundreds of sockets was most of a web process's growth over a long run.
REMEMBERED_IDS = 16
# This process's open sockets per match (the event loop's thread only): when a match's
# last one closes, its copy in ``match_cache`` goes too.
_sockets: Counter[str] = Counter()
MAX_ID_LENGTH = 64
log = logging.getLogger(__name__)


# What this process knows of each of its matches' rooms: (seats, the computer's seats),
# and the presence last told there, so that a periodic look finds a change nobody
# announced (a socket of a process that died, whose marks expired).
_rooms: dict[str, tuple[int, list[int]]] = {}
_told: dict[str, str] = {}
_recheck: asyncio.Task[None] | None = None


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH


async def release_socket(consumer: AsyncWebsocketConsumer) -> None:
    """What a closing socket of the platform lets go of: the groups it joined
    (``groups_joined``) and its place in the account's share of sockets (``share``),
    either of them missing where it closed before taking it."""
    for name in getattr(consumer, "groups_joined", []):
        await consumer.channel_layer.group_discard(name, consumer.channel_name)
    share = getattr(consumer, "share", None)
    if share is not None:
        await share.release()


class PlatformConsumer(AsyncWebsocketConsumer):
    """A socket of the platform whose ``disconnect`` also runs when a handler raises.

    Channels ends a consumer whose handler raised without calling ``disconnect``: the
    account's place in its share of sockets and its presence would stay held until the
    process ends, and a page that reconnects each time would soon be refused
    (``too_many_sockets``) on every socket of the account. ``disconnect`` must be safe
    to run twice."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            try:
                await self.disconnect(1011)
            except Exception:  # the first error is the one worth reporting
                log.exception("releasing a failed socket failed too")
            raise


class MatchConsumer(PlatformConsumer):
    match_id: str
    seats: list[int]
    role: str
    groups_joined: list[str]

    async def connect(self) -> None:
        self.match_id = str(self.scope["url_route"]["kwargs"]["match_id"])
        self.groups_joined = []
        self.seats = []
        self.role = ""  # no broadcast text until the connection is accepted
        self.flood = live_limits.FloodGuard(RATE_PER_S, BURST, MAX_DROPPED, warn_every=20)
        self.answered: OrderedDict[str, str] = OrderedDict()  # command id -> its answer
        self.says = quick_messages.new_bucket()
        self.presence: presence.Presence | None = None
        self.in_room = False
        self.share = await SocketShare.claim(self.scope.get("user"))
        if not self.share.admitted:
            await SocketShare.refuse(self)
            return
        # Subscribed first, so that no move falls between the snapshot and the first
        # broadcast; nothing reaches the socket before it is accepted, and a refused
        # connection leaves the group at once.
        for name in (broadcast.group_name(self.match_id), socket_user_group(self.scope)):
            if name is not None:  # the account's group: losing the credential closes this
                await self.channel_layer.group_add(name, self.channel_name)
                self.groups_joined.append(name)
        # One database call: the match, who this is in it, and their view of it.
        found = await read_in_writer(self._open, self.scope.get("user"))
        if found is None:
            await self.share.release()
            await self.close(code=4404)
            return
        self.seats, message, self.share.exempt, self.computer_seats = found
        self.role = broadcast.role_of(self.seats)
        self.seat_count = int(message["match"]["seats"])
        _sockets[self.match_id] += 1
        _rooms[self.match_id] = (self.seat_count, self.computer_seats)
        _ensure_recheck()
        self.counted = True
        await self.accept()
        await self.send_json(message)
        self.presence = await presence.enter(self.scope.get("user"), self.match_id, self.seats)
        await self.announce_presence()

    def _open(self, user: Any) -> tuple[list[int], dict[str, Any], bool, list[int]] | None:
        match = self._read_match()
        if match is None:
            return None
        seats = services.access_match_seats(match, user)
        return (seats, services.snapshot(match, seats), live_limits.is_exempt(user),
                live_limits.bot_seats(match.seat_users))

    async def presence_text(self) -> str | None:
        return await presence_text(self.match_id, self.seat_count, self.computer_seats)

    async def announce_presence(self) -> None:
        """Tell the room (its sockets that joined its talk) who is here now."""
        await announce(self.channel_layer, self.match_id, await self.presence_text())

    def _read_match(self) -> Match | None:
        try:
            return services.read_match(self.match_id)
        except (Match.DoesNotExist, ValueError, ValidationError):  # no such match, a bad id
            return None

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels hops to a worker thread before every message to close old database
        # connections; here that was a third of a move's CPU, mostly for broadcasts that
        # never touch the database. This consumer's database calls run on the writer
        # threads, which tidy their own connections (games/reads/db_calls.py).
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        await release_socket(self)
        if getattr(self, "presence", None) is not None:
            mark, self.presence = self.presence, None
            await presence.leave(mark)
            await self.announce_presence()  # to the others: this socket has left the group
        if getattr(self, "counted", False):
            self.counted = False
            _sockets[self.match_id] -= 1
            if _sockets[self.match_id] <= 0:
                del _sockets[self.match_id]
                _rooms.pop(self.match_id, None)
                _told.pop(self.match_id, None)
                match_cache.drop(self.match_id)  # no socket of this process plays it now

    async def send_json(self, data: dict[str, Any]) -> None:
        await self.send(text_data=orjson.dumps(data).decode())

    async def error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        received = time.time()  # the receipt time stamps the command
        if not await self.flood.admit(self):
            return
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.error("bad_request", _("Send one JSON text message of at most 4 KB."))
            return
        try:
            data = orjson.loads(text_data)
        except ValueError:
            await self.error("bad_json", _("That message is not valid JSON."))
            return
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong", "server_time": received})
        elif kind == "sync":
            if await self.share.spend():
                await self.send_snapshot()
            else:
                await self.error(*self.share.over_budget())
        elif kind == "command":
            if not self.seats:
                await self.error("forbidden", _("Spectators cannot act in a match."))
                return
            command_id = data.get("id")
            if command_id is not None and not _valid_id(command_id):
                await self.error("bad_request",
                                 _("A command's 'id' must be a string of at most 64 characters."))
                return
            if command_id is not None and command_id in self.answered:
                # A resent command is answered again, never applied twice.
                await self.send(text_data=self.answered[command_id])
                return
            if not await self.share.spend():
                refused = services.CommandResult(False, *self.share.over_budget())
                await self.send_json({"type": "result", "id": command_id,
                                      **refused.as_dict()})
                return
            outbox = broadcast.start_outbox()
            try:
                result = await run_in_writer(self._command, data, received)
            finally:
                await broadcast.flush_outbox(outbox)
            reply = orjson.dumps({"type": "result", "id": command_id, **result.as_dict()}).decode()
            if command_id is not None and result.code != "unavailable":
                self.answered[command_id] = reply  # kept as sent: a few hundred bytes
                if len(self.answered) > REMEMBERED_IDS:
                    self.answered.popitem(last=False)
            await self.send(text_data=reply)
            if result.code in ("stale", "late"):
                await self.send_snapshot()
        elif kind == "seed":
            await self._seed_message(data, received)
        elif kind == "room":
            self.in_room = True
            text = await self.presence_text()
            if text is not None:
                await self.send(text_data=text)
        elif kind == "say":
            await self._say(data)
        else:
            await self.error("unknown_type", _("Unknown message type."))

    async def _say(self, data: dict[str, Any]) -> None:
        """A quick message to the room (quick_messages.py): checked, then relayed as is."""
        try:
            seat, code = quick_messages.check(data, self.seats, self.says)
        except quick_messages.Refused as refused:
            await self.error(refused.code, refused.message)
            return
        text = orjson.dumps(quick_messages.said(seat, code)).decode()
        await self.channel_layer.group_send(broadcast.group_name(self.match_id),
                                            {"type": "match.relay", "text": text})

    async def _seed_message(self, data: dict[str, Any], received: float) -> None:
        """A player's own seed for the match's chance, answered like a command."""
        command_id = data.get("id") if _valid_id(data.get("id")) else None
        if not await self.share.spend():
            result = services.CommandResult(False, *self.share.over_budget())
        else:
            outbox = broadcast.start_outbox()
            try:
                result = await run_in_writer(services.do_send_seed, self.match_id,
                                             self.scope.get("user"), data.get("seed"), received)
            finally:
                await broadcast.flush_outbox(outbox)
        await self.send_json({"type": "result", "id": command_id, **result.as_dict()})

    def _command(self, data: Any, received: float) -> services.CommandResult:
        # A connection that died while idle (a database restart) costs one retry on a
        # fresh connection. Had the first try committed after all, the second is refused
        # (stale version, or already pressed/over).
        try:
            return retried_once(services.do_command, self.match_id, self.scope.get("user"),
                                data, received)
        except (OperationalError, InterfaceError):
            connection.close()
            return services.CommandResult(
                False, "unavailable",
                _("The match could not be reached just now. Try again."))

    async def send_snapshot(self) -> None:
        message = await read_in_writer(self._snapshot)
        if message is not None:
            await self.send_json(message)

    def _snapshot(self) -> dict[str, Any] | None:
        match = self._read_match()
        return None if match is None else services.snapshot(match, self.seats)

    async def credential_revoked(self, event: dict[str, Any]) -> None:
        if not revocation_applies(self.scope, event):
            return  # another session or token of the same account
        # The rights this socket was opened with are gone: no further command counts.
        self.seats = []
        await self.close(code=REVOKED_CLOSE_CODE)

    async def match_relay(self, event: dict[str, Any]) -> None:
        """The same text for every socket in the room's talk (presence, quick messages)."""
        if event["text"].startswith('{"type":"presence"'):
            _told[self.match_id] = event["text"]
        if self.in_room:
            await self.send(text_data=event["text"])

    async def match_state(self, event: dict[str, Any]) -> None:
        text = event["texts"].get(self.role)  # this connection's own view, nothing else
        if text is not None:
            await self.send(text_data=text)
        if event.get("over"):
            # Ended elsewhere (the clock task, another process): this process's copy of the
            # match is of no more use.
            match_cache.drop(self.match_id)


async def presence_text(match_id: str, seat_count: int, computer_seats: list[int]) -> str | None:
    """Who is here: each seat connected or away, and the spectators. Not part of the
    match (no event, no version); None (left unsaid) while Redis cannot be read."""
    try:
        connected, watching = await presence.match_presence(match_id, seat_count)
    except Exception:  # Redis away a moment: unsaid
        log.warning("presence not read", exc_info=True)
        return None
    shown: list[bool | None] = [None if seat in computer_seats else here
                                for seat, here in enumerate(connected)]
    return orjson.dumps({"type": "presence", "connected": shown,
                         "spectators": watching}).decode()


async def announce(layer: Any, match_id: str, text: str | None) -> None:
    if text is not None:
        _told[match_id] = text
        await layer.group_send(broadcast.group_name(match_id),
                               {"type": "match.relay", "text": text})


async def recheck_presence(layer: Any) -> None:
    """Each match this process serves: its presence told again where it changed unsaid."""
    for match_id, (seat_count, computer_seats) in list(_rooms.items()):
        text = await presence_text(match_id, seat_count, computer_seats)
        if text is not None and text != _told.get(match_id):
            await announce(layer, match_id, text)


def _ensure_recheck() -> None:
    global _recheck
    loop = asyncio.get_running_loop()
    if _recheck is None or _recheck.done() or _recheck.get_loop() is not loop:
        _recheck = loop.create_task(_recheck_forever())


async def _recheck_forever() -> None:
    while _rooms:
        await asyncio.sleep(presence.REFRESH_S)
        try:
            await recheck_presence(get_channel_layer())
        except Exception:  # the next round tries again
            log.warning("presence not rechecked", exc_info=True)
