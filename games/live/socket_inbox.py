"""Messages of a socket that closed are dropped, not run.

A consumer takes its next message only when it has handled the one before, so what a
client sent quickly waits in the server's queue for that connection, and the close comes
after it: 100 flooding sockets had their queued commands still running 13 s after they
closed. ``SocketInbox`` reads the connection's queue as messages arrive instead, and when
the connection closes throws away what the consumer has not taken yet, so the close is the
next thing it sees. It holds at most ``MAX_PENDING`` client messages, a bound on memory
only: the consumers' own rate limits (and their answers) apply to what it hands on.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

MAX_PENDING = 256

Receive = Callable[[], Awaitable[dict[str, Any]]]


class SocketInbox:
    def __init__(self, receive: Receive, max_pending: int = MAX_PENDING) -> None:
        self._receive = receive
        self._max_pending = max_pending
        self._pending: deque[dict[str, Any]] = deque()
        self._ready = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.dropped = 0  # client messages never handed to the consumer

    async def receive(self) -> dict[str, Any]:
        if self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read())
        while not self._pending:
            self._ready.clear()
            await self._ready.wait()
        return self._pending.popleft()

    async def _read(self) -> None:
        while True:
            message = await self._receive()
            kind = message.get("type")
            if kind == "websocket.disconnect":
                kept = deque(m for m in self._pending if m.get("type") != "websocket.receive")
                self.dropped += len(self._pending) - len(kept)
                self._pending = kept
                self._pending.append(message)
                self._ready.set()
                return  # nothing follows a disconnect
            if kind == "websocket.receive" and len(self._pending) >= self._max_pending:
                self.dropped += 1
                continue
            self._pending.append(message)
            self._ready.set()

    def close(self) -> None:
        if self._reader is not None and not self._reader.done():
            self._reader.cancel()


def drop_after_disconnect(inner: Any) -> Any:
    """ASGI middleware for websockets: the consumer reads through a ``SocketInbox``."""

    async def app(scope: dict[str, Any], receive: Receive, send: Any) -> Any:
        if scope.get("type") != "websocket":
            return await inner(scope, receive, send)
        inbox = SocketInbox(receive)
        try:
            return await inner(scope, inbox.receive, send)
        finally:
            inbox.close()

    return app
