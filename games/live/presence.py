"""Who is here: players online, each seat's connection, the spectators of a match.

Kept in Redis, the channel layer's, so that every web process counts the same (the
platform may run several daphnes). Every open socket is one member, scored with the
time it was last seen:

- ``presence:online``: one member per signed-in *user*, scored with the last time any of
  their sockets was seen; ``presence:user:<id>``: that user's sockets (so that closing
  one tab of two leaves the user online);
- ``presence:seats:<match>``: the seated sockets of a match (``"<seat>:<socket>"``);
- ``presence:watch:<match>``: its spectators' sockets.

Each process refreshes its own sockets' scores every ``REFRESH_S``; a reader counts only
members seen within ``TTL_S``. So a killed process leaves no ghost beyond ``TTL_S``:
nothing has to remove its members. Without Redis (a unit test's in-memory layer) the
same is kept in this process.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Iterable
from typing import Any

from django.conf import settings

from games.live import live_limits

log = logging.getLogger(__name__)

TTL_S = 45.0
REFRESH_S = 15.0
ONLINE_KEY = "presence:online"
USER_KEY = "presence:user:{user}"
SEATS_KEY = "presence:seats:{match}"
WATCH_KEY = "presence:watch:{match}"

# A user's socket goes; the user stays online while another of theirs was seen lately.
_LEAVE_USER = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('ZREM', KEYS[2], ARGV[2]) end
return 1
"""


class Presence:
    """One socket's marks: its user (None: anonymous), its match and seats (a spectator
    has none), and its own member name."""

    def __init__(self, user_id: int | None, match_id: str | None, seats: Iterable[int]) -> None:
        self.user_id = user_id
        self.match_id = match_id
        self.seats = list(seats)
        self.socket = uuid.uuid4().hex

    def marks(self) -> list[tuple[str, str]]:
        """(key, member) for each mark this socket holds."""
        found: list[tuple[str, str]] = []
        if self.user_id is not None:
            found.append((USER_KEY.format(user=self.user_id), self.socket))
            found.append((ONLINE_KEY, str(self.user_id)))
        if self.match_id is not None:
            if self.seats:
                key = SEATS_KEY.format(match=self.match_id)
                found += [(key, f"{seat}:{self.socket}") for seat in self.seats]
            else:
                found.append((WATCH_KEY.format(match=self.match_id), self.socket))
        return found


# This process's open sockets, refreshed on a timer.
_held: set[Presence] = set()
_refresher: asyncio.Task[None] | None = None
# Without Redis: key -> member -> last seen.
_local: dict[str, dict[str, float]] = {}


def _user_id(user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return int(user.pk)


async def enter(user: Any, match_id: str | None = None, seats: Iterable[int] = ()) -> Presence:
    """Mark a socket that has just been accepted."""
    mark = Presence(_user_id(user), match_id, seats)
    _held.add(mark)
    try:
        await _write([mark], time.time())
    except Exception:  # Redis away a moment: the refresh writes it again
        log.warning("presence not stored", exc_info=True)
    _ensure_refresher()
    return mark


async def leave(mark: Presence | None) -> None:
    """A socket closed: its marks go (the user's online mark with its last socket)."""
    if mark is None or mark not in _held:
        return
    _held.discard(mark)
    now = time.time()
    if settings.REDIS_URL is None:
        for key, member in mark.marks():
            if key != ONLINE_KEY:
                _local.get(key, {}).pop(member, None)
        _local_forget_user(mark.user_id, now)
        return
    try:
        client = live_limits.async_redis_client()
        async with client.pipeline(transaction=False) as pipe:
            for key, member in mark.marks():
                if key not in (ONLINE_KEY, USER_KEY.format(user=mark.user_id)):
                    pipe.zrem(key, member)
            if mark.user_id is not None:
                pipe.eval(_LEAVE_USER, 2, USER_KEY.format(user=mark.user_id), ONLINE_KEY,
                          mark.socket, str(mark.user_id), now - TTL_S)
            await pipe.execute()
    except Exception:  # its marks expire by themselves
        log.warning("presence not removed", exc_info=True)


def _local_forget_user(user_id: int | None, now: float) -> None:
    if user_id is None:
        return
    sockets = _local.get(USER_KEY.format(user=user_id), {})
    if not any(seen > now - TTL_S for seen in sockets.values()):
        _local.get(ONLINE_KEY, {}).pop(str(user_id), None)


async def _write(marks: Iterable[Presence], now: float) -> None:
    pairs = [pair for mark in marks for pair in mark.marks()]
    if not pairs:
        return
    if settings.REDIS_URL is None:
        for key, member in pairs:
            _local.setdefault(key, {})[member] = now
        return
    keys: dict[str, dict[str, float]] = {}
    for key, member in pairs:
        keys.setdefault(key, {})[member] = now
    client = live_limits.async_redis_client()
    async with client.pipeline(transaction=False) as pipe:
        for key, members in keys.items():
            pipe.zadd(key, members)
            # The whole key goes once nobody refreshes it (a match long over).
            pipe.expire(key, int(TTL_S * 2))
            pipe.zremrangebyscore(key, "-inf", now - TTL_S)
        await pipe.execute()


def _ensure_refresher() -> None:
    global _refresher
    loop = asyncio.get_running_loop()
    if _refresher is None or _refresher.done() or _refresher.get_loop() is not loop:
        _refresher = loop.create_task(_refresh_forever())


async def _refresh_forever() -> None:
    """Every REFRESH_S: this process's open sockets are still open."""
    while _held:
        await asyncio.sleep(REFRESH_S)
        try:
            await _write(list(_held), time.time())
        except Exception:  # noqa: BLE001  (the next round retries)
            continue


# --- Reading ---

def _local_count(key: str, now: float) -> list[str]:
    return [member for member, seen in _local.get(key, {}).items() if seen > now - TTL_S]


async def match_presence(match_id: str, seat_count: int) -> tuple[list[bool], int]:
    """Each seat's connection (a seated socket of it seen lately) and the spectators."""
    now = time.time()
    seats_key, watch_key = SEATS_KEY.format(match=match_id), WATCH_KEY.format(match=match_id)
    if settings.REDIS_URL is None:
        seated, watching = _local_count(seats_key, now), len(_local_count(watch_key, now))
    else:
        client = live_limits.async_redis_client()
        async with client.pipeline(transaction=False) as pipe:
            pipe.zrangebyscore(seats_key, now - TTL_S, "+inf")
            pipe.zcount(watch_key, now - TTL_S, "+inf")
            found, watching = await pipe.execute()
        seated = [m.decode() if isinstance(m, bytes) else m for m in found]
    here = {int(member.partition(":")[0]) for member in seated}
    return [seat in here for seat in range(seat_count)], int(watching)


def online_count() -> int:
    """Signed-in users with a socket open now (from a request: synchronous)."""
    now = time.time()
    if settings.REDIS_URL is None:
        return len(_local_count(ONLINE_KEY, now))
    return int(live_limits.sync_redis_client().zcount(ONLINE_KEY, now - TTL_S, "+inf"))


def spectator_counts(match_ids: list[str]) -> dict[str, int]:
    """The spectators of each match (one Redis round trip for all of them)."""
    now = time.time()
    if settings.REDIS_URL is None:
        return {mid: len(_local_count(WATCH_KEY.format(match=mid), now)) for mid in match_ids}
    pipe = live_limits.sync_redis_client().pipeline(transaction=False)
    for mid in match_ids:
        pipe.zcount(WATCH_KEY.format(match=mid), now - TTL_S, "+inf")
    return {mid: int(n) for mid, n in zip(match_ids, pipe.execute(), strict=True)}
