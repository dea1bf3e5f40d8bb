"""A Hidden Nim match over the match websocket (in process, Channels' communicator, the
Redis channel layer): each socket is sent its own seat's view, the other seat's bonus
stays hidden until the game is over, and a resignation ends it."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from accounts.models import AccessToken
from games.models import Match
from games.play.services import do_create_match
from tests.asgi_app import application

from .helpers import KEY

pytestmark = pytest.mark.django_db(transaction=True)
JSON = dict[str, Any]
TIMEOUT = 5


@pytest.fixture(autouse=True)
def _layer(redis_url: str) -> None:
    import config.celery  # noqa: F401 - deadlines go to the configured broker


def _table(rules: JSON | None = None) -> tuple[Match, list[str]]:
    people = [User.objects.create_user(name) for name in ("ann", "ben", "cat")]
    tokens = [AccessToken.issue(user, "tests")[1] for user in people]
    match = do_create_match(people[0], people[1], game=KEY, rated=False, rules=rules)
    return match, tokens  # cat (the third) watches


async def _open(match: Match, token: str) -> tuple[WebsocketCommunicator, JSON]:
    comm = WebsocketCommunicator(application(), f"/ws/matches/{match.pk}/",
                                 headers=[(b"authorization", f"Bearer {token}".encode()),
                                          (b"host", b"localhost")])
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    first = await comm.receive_json_from(timeout=TIMEOUT)
    assert first["type"] == "state", first
    return comm, first


async def _state_at(comm: WebsocketCommunicator, version: int) -> JSON:
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] == "state" and message["version"] >= version:
            return message


async def _command(comm: WebsocketCommunicator, ident: str, version: int,
                   action: JSON) -> JSON:
    await comm.send_json_to({"type": "command", "id": ident, "version": version,
                             "action": action})
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] == "result" and message["id"] == ident:
            return message


def _check_hidden(view: JSON, seat: int | None) -> None:
    assert view["seat"] == seat
    for other, bonus in enumerate(view["bonuses"]):
        if view["result"] is not None:
            assert bonus in range(1, 11)
        elif other == seat:
            assert bonus in range(1, 11), view
        else:
            assert bonus is None, view


async def test_a_match_is_played_over_the_socket_and_hides_each_bonus() -> None:
    match, tokens = await database_sync_to_async(_table)({"pile": 7})
    comms, snaps = zip(*[await _open(match, token) for token in tokens], strict=True)
    try:
        states = list(snaps)
        for seat, state in zip((0, 1, None), states, strict=True):
            _check_hidden(state["view"], seat)
        assert "views" not in states[0]
        moves = 0
        while states[0]["view"]["result"] is None:
            mover = states[0]["view"]["to_act"]
            view = states[mover]["view"]
            action = view["legal"][-1]  # take as many as allowed
            answer = await _command(comms[mover], f"m{moves}", states[mover]["version"], action)
            assert answer["ok"], answer
            states = [await _state_at(comm, answer["version"]) for comm in comms]
            for seat, state in zip((0, 1, None), states, strict=True):
                _check_hidden(state["view"], seat)
                assert state["view"]["pile"] == states[0]["view"]["pile"]
            moves += 1
        assert moves == 3  # 7 tokens, three at a time: 3, 3, 1
        assert states[2]["match"]["status"] == "finished"
        assert states[0]["view"]["result"]["ranks"] in ([1, 2], [2, 1], [1, 1])
    finally:
        for comm in comms:
            await comm.disconnect()


async def test_a_resignation_over_the_socket_ends_the_match() -> None:
    match, tokens = await database_sync_to_async(_table)()
    comms, snaps = zip(*[await _open(match, token) for token in tokens[:2]], strict=True)
    try:
        waiting = 1 - snaps[0]["view"]["to_act"]  # not its turn: it may still resign
        answer = await _command(comms[waiting], "r", snaps[waiting]["version"],
                                {"seat": waiting, "type": "resign"})
        assert answer["ok"], answer
        state = await _state_at(comms[1 - waiting], answer["version"])
        assert state["view"]["result"]["reason"] == "resign"
        assert state["view"]["result"]["winner"] == 1 - waiting
        assert state["view"]["legal"] == []
        done = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        assert done.status == Match.Status.FINISHED
    finally:
        for comm in comms:
            await comm.disconnect()
