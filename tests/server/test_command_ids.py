"""A command needs the version it acted on (but continue, resign, abort), and a resent
command id is answered again, never applied twice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import LIVE

from .test_consumers import (
    Players,
    drain,
    fingerprint,
    is_type,
    open_socket,
    receive_until,
    start_hand,
    token_headers,
)

pytestmark = LIVE  # transactions, the live channel layer


@pytest.fixture
def players() -> Players:
    return Players()


def _acting(snap: dict[str, Any]) -> dict[str, Any]:
    return snap["view"]["legal"][0]


async def test_a_resent_id_is_answered_and_not_applied_again(players) -> None:
    await start_hand(players)
    comms = {}
    for seat, name in ((0, "alice"), (1, "bob")):
        comms[seat] = await open_socket(players.match.pk, token_headers(players.tokens[name]))
    try:
        seat = next(s for s, (_c, snap) in comms.items() if snap["view"]["legal"])
        comm, snap = comms[seat]
        message = {"type": "command", "id": "move-1", "version": snap["version"],
                   "action": _acting(snap)}
        await comm.send_json_to(message)
        first, _ = await receive_until(comm, is_type("result"))
        assert first["ok"], first
        await drain(comm)
        after = await fingerprint(players.match.pk)
        for _ in range(3):
            await comm.send_json_to(message)
            again, _ = await receive_until(comm, is_type("result"))
            assert again == first
        assert await fingerprint(players.match.pk) == after
    finally:
        for comm, _snap in comms.values():
            await comm.disconnect()


async def test_a_resent_continue_is_answered_the_same(players) -> None:
    comm, _snap = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    try:
        message = {"type": "command", "id": "go", "action": {"seat": 0, "type": "continue"}}
        await comm.send_json_to(message)
        first, _ = await receive_until(comm, is_type("result"))
        assert first["ok"], first
        await comm.send_json_to(message)
        again, _ = await receive_until(comm, is_type("result"))
        assert again == first
    finally:
        await comm.disconnect()


async def test_a_move_without_version_is_refused(players) -> None:
    await start_hand(players)
    comm, snap = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    other, other_snap = await open_socket(players.match.pk,
                                          token_headers(players.tokens["bob"]))
    try:
        acting_comm, acting_snap = (comm, snap) if snap["view"]["legal"] else (other, other_snap)
        before = await fingerprint(players.match.pk)
        await acting_comm.send_json_to({"type": "command", "id": "nv",
                                        "action": _acting(acting_snap)})
        result, _ = await receive_until(acting_comm, is_type("result"))
        assert (result["ok"], result["code"]) == (False, "bad_request")
        assert "version" in result["message"]
        assert await fingerprint(players.match.pk) == before
    finally:
        await comm.disconnect()
        await other.disconnect()


@pytest.mark.parametrize("bad_id", [7, "", "x" * 65, ["a"], {"a": 1}, True])
async def test_an_id_that_is_not_a_short_string_is_refused(players, bad_id) -> None:
    comm, _snap = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    try:
        fp = await fingerprint(players.match.pk)
        await comm.send_json_to({"type": "command", "id": bad_id,
                                 "action": {"seat": 0, "type": "continue"}})
        error, _ = await receive_until(comm, is_type("error"))
        assert error["code"] == "bad_request"
        assert await fingerprint(players.match.pk) == fp
    finally:
        await comm.disconnect()


async def test_a_match_copy_goes_when_its_last_socket_closes(players) -> None:
    from games.play import match_cache

    await start_hand(players)
    comm, snap = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    other, other_snap = await open_socket(players.match.pk,
                                          token_headers(players.tokens["bob"]))
    acting_comm, acting_snap = (comm, snap) if snap["view"]["legal"] else (other, other_snap)
    await acting_comm.send_json_to({"type": "command", "id": "m", "version": acting_snap["version"],
                                    "action": _acting(acting_snap)})
    result, _ = await receive_until(acting_comm, is_type("result"))
    assert result["ok"]
    copy = match_cache.take(players.match.pk)
    assert copy is not None
    match_cache.keep(*copy)
    await comm.disconnect()
    assert match_cache.take(players.match.pk) is not None  # bob's socket still plays it
    match_cache.keep(*copy)
    await other.disconnect()
    assert match_cache.take(players.match.pk) is None
