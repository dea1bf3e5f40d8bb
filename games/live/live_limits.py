"""Fair shares of the live tier: no one account can slow the others.

Four limits, each checked before the work it guards:

- **Connections per credential, in each process** (``ConnectLimiter``): a burst of sockets
  opened with one token or session cookie is refused before its credential is even looked
  up (the look-up, the handshake and the snapshot were most of what a connect cost); a
  token once seen to be a computer player's is let through from then on.

- **A rate per socket** (``TokenBucket``): every socket type, in the socket's own process.
- **Open sockets per account, across all web processes** (``claim_socket``): a Redis sorted
  set per account, one member per socket, scored with its last refresh. Past the cap a new
  socket is refused (close code ``TOO_MANY_SOCKETS_CLOSE_CODE``, explained to the client);
  a process that died leaves members that expire after ``SOCKET_ENTRY_TTL_S``, since every
  process refreshes its own sockets' members on a timer.
- **One command budget per account across all its sockets and HTTP** (``spend_command``):
  a token bucket in Redis, so that a hundred sockets (or both web processes) share it.

The platform's own computer players (``Profile.is_bot``) are exempt: one such account
plays every game against the computer at once. Without Redis (a unit test's in-memory
channel layer) the same limits are kept in this process.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import uuid
import weakref
from collections import OrderedDict, defaultdict
from typing import Any

import orjson
from django.conf import settings
from django.utils.translation import gettext as _

from accounts.models import Profile
from games.reads.db_calls import read_in_writer

SOCKET_ENTRY_TTL_S = 120.0
SOCKET_REFRESH_S = 40.0
TOO_MANY_SOCKETS_CLOSE_CODE = 4430
_SOCKETS_KEY = "live:sockets:{owner}"
_BUDGET_KEY = "live:budget:{owner}"

# Atomic in Redis: forget members not refreshed for the TTL, then admit while under the cap.
_CLAIM = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], t, ARGV[1])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3])))
return 1
"""
# A token bucket: ARGV rate per second, burst. Redis's clock, so processes agree.
_SPEND = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 't', 'v')
local last, value = tonumber(state[1]), tonumber(state[2])
if last == nil then last, value = t, burst end
value = math.min(burst, value + math.max(0, t - last) * rate)
local ok = 0
if value >= 1 then value = value - 1; ok = 1 end
redis.call('HSET', KEYS[1], 't', tostring(t), 'v', tostring(value))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return ok
"""


FLOOD_CLOSE_CODE = 4429


class TokenBucket:
    """``rate`` a second sustained, ``burst`` at once; in one process."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def owner_of(user: Any) -> str | None:
    """Whose share a socket or command counts against: the account, or None (anonymous
    spectators, whose sockets cannot act and are limited per socket)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return f"user:{user.pk}"


# --- Redis clients: one per event loop (daphne's; each async test has its own) ---

class _Scripts:
    """A client and its registered scripts (EVALSHA: the script's text is sent once)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.claim = client.register_script(_CLAIM)
        self.spend = client.register_script(_SPEND)


_async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Scripts] = (
    weakref.WeakKeyDictionary())
_sync_client: _Scripts | None = None


def _async_redis() -> _Scripts:
    loop = asyncio.get_running_loop()
    found = _async_clients.get(loop)
    if found is None:
        import redis.asyncio

        found = _Scripts(redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_timeout=2))
        _async_clients[loop] = found
    return found


def _redis() -> _Scripts:
    global _sync_client
    if _sync_client is None:
        import redis

        _sync_client = _Scripts(redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2))
    return _sync_client


def async_redis_client() -> Any:
    """This event loop's Redis client (for the live tier's other keys: games/live/presence.py)."""
    return _async_redis().client


def sync_redis_client() -> Any:
    """The process's synchronous Redis client (for a request's reads)."""
    return _redis().client


# --- Bot accounts, exempt; looked up once a minute per process ---

_bots: tuple[float, frozenset[int]] = (0.0, frozenset())


def _bot_ids() -> frozenset[int]:
    global _bots
    read_at, ids = _bots
    if time.monotonic() - read_at > 60:
        ids = frozenset(Profile.objects.filter(is_bot=True).values_list("user_id", flat=True))
        _bots = (time.monotonic(), ids)
    return ids


def bot_seats(seat_users: list[Any]) -> list[int]:
    """The seats of the platform's computer players (always there: no presence shown).
    Asked of the database (one indexed read), not of the minute's cache: the computer's
    account may be made just before its first match."""
    bots = set(Profile.objects.filter(user_id__in=set(seat_users), is_bot=True)
               .values_list("user_id", flat=True))
    return [seat for seat, user_id in enumerate(seat_users) if user_id in bots]


def is_exempt(user: Any) -> bool:
    """The platform's computer players (a database read at most once a minute: call it
    where the database may be used, not on the event loop)."""
    return user is not None and getattr(user, "pk", None) in _bot_ids()


# --- Open sockets per account ---

class _LocalSockets:
    """The cap within one process, for runs without Redis."""

    def __init__(self) -> None:
        self.open: defaultdict[str, set[str]] = defaultdict(set)

    def claim(self, owner: str, member: str, cap: int) -> bool:
        if len(self.open[owner]) >= cap:
            return False
        self.open[owner].add(member)
        return True

    def release(self, owner: str, member: str) -> None:
        self.open[owner].discard(member)
        if not self.open[owner]:
            del self.open[owner]


_local_sockets = _LocalSockets()
# This process's sockets, refreshed in Redis on a timer: owner -> members.
_held: defaultdict[str, set[str]] = defaultdict(set)
_refresher: asyncio.Task[None] | None = None


async def claim_socket(owner: str) -> str | None:
    """A member name for a new socket of ``owner``, or None past the cap."""
    member = uuid.uuid4().hex
    cap = settings.MAX_SOCKETS_PER_USER
    if settings.REDIS_URL is None:
        return member if _local_sockets.claim(owner, member, cap) else None
    admitted = await _async_redis().claim(keys=[_SOCKETS_KEY.format(owner=owner)],
                                          args=[member, cap, SOCKET_ENTRY_TTL_S])
    if not admitted:
        return None
    _held[owner].add(member)
    _ensure_refresher()
    return member


async def release_socket(owner: str, member: str) -> None:
    if settings.REDIS_URL is None:
        _local_sockets.release(owner, member)
        return
    members = _held.get(owner)
    if members is not None:
        members.discard(member)
        if not members:
            del _held[owner]
    await _async_redis().client.zrem(_SOCKETS_KEY.format(owner=owner), member)


def _ensure_refresher() -> None:
    global _refresher
    loop = asyncio.get_running_loop()
    if _refresher is None or _refresher.done() or _refresher.get_loop() is not loop:
        _refresher = loop.create_task(_refresh_forever())


async def _refresh_forever() -> None:
    """Every SOCKET_REFRESH_S: this process's open sockets are still open."""
    while _held:
        await asyncio.sleep(SOCKET_REFRESH_S)
        try:
            await refresh_held_sockets()
        except Exception:  # noqa: BLE001  (Redis away a moment: the next round retries)
            continue


async def refresh_held_sockets() -> None:
    client = _async_redis().client
    async with client.pipeline(transaction=False) as pipe:
        for owner, members in list(_held.items()):
            key = _SOCKETS_KEY.format(owner=owner)
            now = time.time()
            pipe.zadd(key, {member: now for member in members}, xx=True)
            pipe.expire(key, int(SOCKET_ENTRY_TTL_S))
        await pipe.execute()


# --- One command budget per account ---

_local_budgets: dict[str, TokenBucket] = {}


def _local_spend(owner: str) -> bool:
    bucket = _local_budgets.get(owner)
    if bucket is None:
        bucket = _local_budgets[owner] = TokenBucket(settings.USER_COMMANDS_PER_S,
                                                     settings.USER_COMMAND_BURST)
    return bucket.allow()


def _budget_args(owner: str) -> tuple[str, float, float]:
    return (_BUDGET_KEY.format(owner=owner), settings.USER_COMMANDS_PER_S,
            settings.USER_COMMAND_BURST)


# Accounts found over budget in this process: until when there is no point asking Redis
# (no command can have been refilled before then), so a flood costs Redis nothing more.
_over_budget_until: dict[str, float] = {}


async def spend_command(owner: str) -> bool:
    """One command (or sync) of ``owner``'s budget, from a socket; False: over it."""
    if settings.REDIS_URL is None:
        return _local_spend(owner)
    now = time.monotonic()
    if _over_budget_until.get(owner, 0.0) > now:
        return False
    key, rate, burst = _budget_args(owner)
    if await _async_redis().spend(keys=[key], args=[rate, burst]):
        _over_budget_until.pop(owner, None)
        return True
    if len(_over_budget_until) > 10_000:  # stale entries of accounts long gone
        _over_budget_until.clear()
    _over_budget_until[owner] = now + 1 / rate
    return False


def spend_command_sync(owner: str) -> bool:
    """The same budget, from an HTTP request."""
    if settings.REDIS_URL is None:
        return _local_spend(owner)
    key, rate, burst = _budget_args(owner)
    return bool(_redis().spend(keys=[key], args=[rate, burst]))


class SocketShare:
    """One socket's part of its account's share: admitted or not, and its commands."""

    def __init__(self, owner: str | None, member: str | None, admitted: bool) -> None:
        self.owner = owner
        self.member = member
        self.admitted = admitted
        self.exempt = False  # set once the account is known to be a computer player

    @classmethod
    async def claim(cls, user: Any) -> SocketShare:
        owner = owner_of(user)
        if owner is None:
            return cls(None, None, True)
        member = await claim_socket(owner)
        if member is not None:
            return cls(owner, member, True)
        if await read_in_writer(is_exempt, user):  # a computer player has no cap
            share = cls(owner, None, True)
            share.exempt = True
            return share
        return cls(owner, None, False)

    async def release(self) -> None:
        if self.owner is not None and self.member is not None:
            member, self.member = self.member, None
            await release_socket(self.owner, member)

    async def spend(self) -> bool:
        """One unit of the account's command budget (anonymous sockets cannot act)."""
        if self.owner is None or self.exempt:
            return True
        return await spend_command(self.owner)

    @staticmethod
    async def refuse(consumer: Any) -> None:
        """A socket past its account's cap: accepted only to be told why and closed (a
        handshake refused before acceptance reaches a browser as a bare 1006)."""
        await consumer.accept()
        message = _("This account has too many open connections (%(n)s): close other tabs "
                    "or programs that use it, then reload.") % {
                        "n": settings.MAX_SOCKETS_PER_USER}
        error = {"type": "error", "code": "too_many_sockets", "message": message}
        await consumer.send(text_data=orjson.dumps(error).decode())
        await consumer.close(code=TOO_MANY_SOCKETS_CLOSE_CODE)

    @staticmethod
    def over_budget() -> tuple[str, str]:
        return ("rate_limited",
                _("Too many commands from this account at once: wait a moment."))


class FloodGuard:
    """A socket's own message rate: past it a message is dropped, every ``warn_every``-th
    dropped one is answered ``rate_limited``, and past ``max_dropped`` the socket closes."""

    def __init__(self, rate: float, burst: float, max_dropped: int, warn_every: int) -> None:
        self.bucket = TokenBucket(rate, burst)
        self.max_dropped = max_dropped
        self.warn_every = warn_every
        self.dropped = 0

    async def admit(self, consumer: Any) -> bool:
        if self.bucket.allow():
            return True
        self.dropped += 1
        if self.dropped > self.max_dropped:
            await consumer.close(code=FLOOD_CLOSE_CODE)
        elif self.dropped % self.warn_every == 1:
            error = {"type": "error", "code": "rate_limited",
                     "message": _("Too many messages: slow down.")}
            await consumer.send(text_data=orjson.dumps(error).decode())
        return False


class ConnectLimiter:
    """Socket openings per credential (a token, a session cookie) in this process, counted
    on a hash of the credential, so before any database work. Bounded: the least recently
    seen credentials are forgotten first.

    A credential once seen to be a computer player's (``exempt``) is let through from then
    on: the runner opens a socket per match with one token, and fifty matches starting
    together would otherwise keep the computer from its tables for seconds."""

    def __init__(self, rate: float, burst: float, remembered: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.remembered = remembered
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self.exempt_credentials: OrderedDict[str, None] = OrderedDict()

    def exempt(self, credential: str) -> None:
        self.exempt_credentials[credential] = None
        self.exempt_credentials.move_to_end(credential)
        if len(self.exempt_credentials) > self.remembered:
            self.exempt_credentials.popitem(last=False)

    def is_exempt(self, credential: str) -> bool:
        return credential in self.exempt_credentials

    def forget_exemption(self, credential: str) -> None:
        self.exempt_credentials.pop(credential, None)

    def allow(self, credential: str) -> bool:
        if credential in self.exempt_credentials:
            return True
        bucket = self.buckets.pop(credential, None)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst)
            if len(self.buckets) >= self.remembered:
                self.buckets.popitem(last=False)
        self.buckets[credential] = bucket
        return bucket.allow()


CONNECTS = ConnectLimiter(settings.SOCKET_OPENINGS_PER_S, settings.SOCKET_OPENINGS_BURST)


def credential_of(raw_token: str | None, session_cookie: str | None) -> str | None:
    """What a socket's opening is counted on: a hash of its token or session cookie."""
    secret = raw_token or session_cookie
    if not secret:
        return None
    return hashlib.blake2b(secret.encode(), digest_size=16).hexdigest()


async def refuse_connection(receive: Any, send: Any, code: int, reason: tuple[str, str]) -> None:
    """Speak the websocket's first words without a consumer: accept, say why, close."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    error = {"type": "error", "code": reason[0], "message": reason[1]}
    await send({"type": "websocket.send", "text": orjson.dumps(error).decode()})
    await send({"type": "websocket.close", "code": code})


def too_many_connections() -> tuple[str, str]:
    return ("rate_limited", _("Too many connections opened at once: wait a moment."))
