"""The API client sends again a command left unanswered (bots/client.py).

A socket's flood guard drops a message without a word, so a command can go unanswered;
without this a client that waits for its answer before deciding again would wait for
ever. ``sync`` sends it again with the same id (answered again, never applied twice).
"""

from __future__ import annotations

from typing import Any

import orjson

from bots import client
from bots.client import Api, MatchConnection


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.incoming: list[bytes] = []

    async def send(self, text: str) -> None:
        self.sent.append(orjson.loads(text))

    async def recv(self, decode: bool = False) -> bytes:
        return self.incoming.pop(0)


def connection() -> tuple[MatchConnection, FakeSocket]:
    conn = MatchConnection(Api("http://127.0.0.1:1", "token"), "m1", send_seed=False)
    socket = FakeSocket()
    conn.ws = socket
    return conn, socket


async def test_an_unanswered_command_is_sent_again_with_its_id(monkeypatch) -> None:
    conn, socket = connection()
    await conn.send_command({"type": "pass"})
    await conn.sync()  # too soon: only the sync
    assert [m["type"] for m in socket.sent] == ["command", "sync"]
    monkeypatch.setattr(client, "RESEND_AFTER_S", 0.0)
    await conn.sync()
    assert [m["type"] for m in socket.sent] == ["command", "sync", "command", "sync"]
    assert socket.sent[2] == socket.sent[0]  # the same id, version and action


async def test_an_answered_command_is_not_sent_again(monkeypatch) -> None:
    monkeypatch.setattr(client, "RESEND_AFTER_S", 0.0)
    conn, socket = connection()
    message_id = await conn.send_command({"type": "pass"})
    socket.incoming.append(orjson.dumps({"type": "result", "id": message_id, "ok": True,
                                         "version": 1}))
    await conn.receive(timeout=1)
    assert not conn.awaiting_result
    await conn.sync()
    assert [m["type"] for m in socket.sent] == ["command", "sync"]
