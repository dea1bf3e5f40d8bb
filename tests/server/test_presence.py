"""Who is here (games/live/presence.py), quick messages (games/live/quick_messages.py), the
lobby's live games (``GET /api/live``) and a challenge reaching its player on any page.

In process through the ASGI application, on the Redis channel layer and Redis presence
keys as between daphne processes (``make test`` sets REDIS_URL).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import AccessToken
from games.live import presence
from games.play import lobby
from games.play.services import do_create_match
from tests.asgi_app import application
from tests.server.conftest import LIVE
from tests.server.test_consumers import (
    Players,
    drain,
    is_type,
    open_socket,
    receive_until,
    token_headers,
)

pytestmark = LIVE
TIMEOUT = 5
JSON = dict[str, Any]


@pytest.fixture
def players() -> Players:
    return Players()


async def in_room(comm: WebsocketCommunicator) -> JSON:
    """Join the room's talk; returns the presence it answers with."""
    await comm.send_json_to({"type": "room"})
    found, _ = await receive_until(comm, is_type("presence"))
    return found


async def presence_until(comm: WebsocketCommunicator, connected: list[Any],
                         spectators: int | None = None) -> JSON:
    def check(message: JSON) -> bool:
        return (message.get("type") == "presence" and message["connected"] == connected
                and (spectators is None or message["spectators"] == spectators))

    found, _ = await receive_until(comm, check)
    return found


# ------------------------------------------------------------------ presence

async def test_each_seat_is_connected_or_away_as_its_sockets_come_and_go(players) -> None:
    bob, _ = await open_socket(players.match.pk, token_headers(players.tokens["bob"]))
    first = await in_room(bob)
    assert first["connected"] == [False, True] and first["spectators"] == 0
    alice, _ = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    await presence_until(bob, [True, True])
    await alice.disconnect()
    gone = await presence_until(bob, [False, True])
    assert set(gone) == {"type", "connected", "spectators"}  # not a state: no version
    await bob.disconnect()


async def test_a_socket_that_never_joins_the_room_hears_no_presence(players) -> None:
    alice, _ = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    bob, _ = await open_socket(players.match.pk, token_headers(players.tokens["bob"]))
    try:
        assert all(m["type"] != "presence" for m in await drain(alice))  # API clients
    finally:
        await bob.disconnect()
        await alice.disconnect()


async def test_spectators_are_counted_and_shown_to_the_room(players) -> None:
    alice, _ = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    await in_room(alice)
    carol, snap = await open_socket(players.match.pk, token_headers(players.tokens["carol"]))
    assert snap["view"]["seat"] is None
    await presence_until(alice, [True, False], spectators=1)
    anonymous = WebsocketCommunicator(application(), f"/ws/matches/{players.match.pk}/",
                                      headers=[(b"host", b"localhost")])
    assert (await anonymous.connect(timeout=TIMEOUT))[0]
    await presence_until(alice, [True, False], spectators=2)
    counts = await database_sync_to_async(presence.spectator_counts)([str(players.match.pk)])
    assert counts == {str(players.match.pk): 2}
    await anonymous.disconnect()
    await carol.disconnect()
    await presence_until(alice, [True, False], spectators=0)
    await alice.disconnect()


async def test_a_computer_seat_shows_no_presence() -> None:
    def make() -> tuple[Any, str]:
        user = User.objects.create_user("dora")
        match = lobby.do_play_computer(user)
        return match, AccessToken.issue(user, "tests")[1]

    match, token = await database_sync_to_async(make)()
    comm, _ = await open_socket(match.pk, token_headers(token))
    assert (await in_room(comm))["connected"] == [True, None]
    await comm.disconnect()


async def test_a_killed_process_leaves_no_ghost(monkeypatch) -> None:
    """Marks nobody refreshes (their process died) stop counting after the TTL."""
    match_id = "00000000-0000-0000-0000-00000000dead"
    user = await database_sync_to_async(User.objects.create_user)("ghost")
    mark = await presence.enter(user, match_id, [1])
    watcher = await presence.enter(None, match_id, [])
    assert await presence.match_presence(match_id, 2) == ([False, True], 1)
    online = await database_sync_to_async(presence.online_count)()
    presence._held.discard(mark)  # the process is gone: nobody refreshes or removes them
    presence._held.discard(watcher)
    later = time.time() + presence.TTL_S + 1
    monkeypatch.setattr(presence.time, "time", lambda: later)
    assert await presence.match_presence(match_id, 2) == ([False, False], 0)
    assert await database_sync_to_async(presence.online_count)() <= online - 1


async def test_a_seat_whose_process_died_turns_away_unannounced(players) -> None:
    """Nobody closes a dead process's sockets: the periodic look of the survivors finds
    its expired marks and tells the room."""
    from channels.layers import get_channel_layer

    from games.live import consumers

    alice, _ = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    await in_room(alice)
    ghost = await presence.enter(players.bob, str(players.match.pk), [1])
    presence._held.discard(ghost)  # its process is gone
    await consumers.recheck_presence(get_channel_layer())
    await presence_until(alice, [True, True])
    client = presence.live_limits.async_redis_client()
    await client.zadd(presence.SEATS_KEY.format(match=players.match.pk),
                      {f"1:{ghost.socket}": time.time() - presence.TTL_S - 1})
    await consumers.recheck_presence(get_channel_layer())
    await presence_until(alice, [True, False])
    await consumers.recheck_presence(get_channel_layer())  # unchanged: not told again
    assert all(m["type"] != "presence" for m in await drain(alice))
    await alice.disconnect()


async def test_players_online_count_their_open_sockets(players) -> None:
    before = await database_sync_to_async(presence.online_count)()
    notify = WebsocketCommunicator(application(), "/ws/notifications/",
                                   headers=token_headers(players.tokens["carol"]))
    assert (await notify.connect(timeout=TIMEOUT))[0]
    match_socket, _ = await open_socket(players.match.pk, token_headers(players.tokens["carol"]))
    assert await database_sync_to_async(presence.online_count)() == before + 1
    await notify.disconnect()  # one of carol's two sockets: still online
    assert await database_sync_to_async(presence.online_count)() == before + 1
    await match_socket.disconnect()
    assert await database_sync_to_async(presence.online_count)() == before


# ------------------------------------------------------------------ quick messages

async def test_a_quick_message_reaches_the_room(players) -> None:
    alice, _ = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    bob, _ = await open_socket(players.match.pk, token_headers(players.tokens["bob"]))
    carol, _ = await open_socket(players.match.pk, token_headers(players.tokens["carol"]))
    for comm in (alice, bob, carol):
        await in_room(comm)
    await alice.send_json_to({"type": "say", "code": "good_game"})
    for comm in (alice, bob, carol):
        said, _ = await receive_until(comm, is_type("said"))
        assert said == {"type": "said", "seat": 0, "code": "good_game"}
    for comm in (alice, bob, carol):
        await comm.disconnect()


@pytest.mark.parametrize(("who", "message", "code"), [
    ("alice", {"type": "say", "code": "you are bad"}, "bad_request"),
    ("alice", {"type": "say"}, "bad_request"),
    ("alice", {"type": "say", "code": "hello", "seat": 1}, "forbidden"),
    ("carol", {"type": "say", "code": "hello"}, "forbidden"),
])
async def test_a_quick_message_is_checked(players, who: str, message: JSON, code: str) -> None:
    comm, _ = await open_socket(players.match.pk, token_headers(players.tokens[who]))
    bob, _ = await open_socket(players.match.pk, token_headers(players.tokens["bob"]))
    await in_room(bob)
    await comm.send_json_to(message)
    error, _ = await receive_until(comm, is_type("error"))
    assert error["code"] == code and error["message"]
    assert all(m["type"] != "said" for m in await drain(bob))
    await comm.disconnect()
    await bob.disconnect()


async def test_one_quick_message_every_two_seconds(players) -> None:
    alice, _ = await open_socket(players.match.pk, token_headers(players.tokens["alice"]))
    await in_room(alice)
    await alice.send_json_to({"type": "say", "code": "hello"})
    await alice.send_json_to({"type": "say", "code": "oops"})
    seen = await drain(alice)
    assert [m["code"] for m in seen if m["type"] == "said"] == ["hello"]
    assert [m["code"] for m in seen if m["type"] == "error"] == ["rate_limited"]
    await alice.disconnect()


# ------------------------------------------------------------------ the lobby's live games

def _get_live(user: User) -> JSON:
    client = Client()
    client.force_login(user)
    response = client.get("/api/live")
    assert response.status_code == 200
    return dict(json.loads(response.content))


async def test_the_live_games_list_a_match_of_two_other_players(players) -> None:
    def extra() -> None:
        lobby.do_one_device(players.alice)  # private: not listed
        over = do_create_match(players.bob, players.carol, rated=False)
        over.status = "aborted"
        over.save(update_fields=["status"])

    await database_sync_to_async(extra)()
    carol, _ = await open_socket(players.match.pk, token_headers(players.tokens["carol"]))
    data = await database_sync_to_async(_get_live)(players.carol)
    assert [row["id"] for row in data["matches"]] == [str(players.match.pk)]
    row = data["matches"][0]
    assert row["players"] == ["alice", "bob"] and row["spectators"] == 1
    assert row["url"] == f"/matches/{players.match.pk}/" and row["game_name"]
    assert data["online"] >= 1
    await carol.disconnect()


def test_the_live_games_need_a_login(db) -> None:
    assert Client().get("/api/live").status_code == 401


def test_the_live_games_are_one_cheap_query(django_assert_max_num_queries, db) -> None:
    users = [User.objects.create_user(f"p{n}") for n in range(6)]
    for n in range(30):
        do_create_match(users[n % 3], users[3 + n % 3], rated=False)
    client = Client()
    client.force_login(users[0])
    with django_assert_max_num_queries(6):  # session, user, matches, seats (+ profiles)
        data = client.get("/api/live").json()
    assert len(data["matches"]) == 20


# ------------------------------------------------------------------ challenges on every page

async def test_a_challenge_reaches_its_player_on_every_page(players) -> None:
    notify = WebsocketCommunicator(application(), "/ws/notifications/",
                                   headers=token_headers(players.tokens["carol"]))
    assert (await notify.connect(timeout=TIMEOUT))[0]
    seek = await database_sync_to_async(lobby.do_challenge)(players.alice, "carol", False)
    notice = await notify.receive_json_from(timeout=TIMEOUT)
    assert notice == {"type": "challenge", "seek": seek.pk, "game": seek.game,
                      "from": "alice", "from_name": "alice", "rated": False, "url": "/"}
    # The same challenge asked again (a double click) tells nobody twice.
    await database_sync_to_async(lobby.do_challenge)(players.alice, "carol", False)
    assert await notify.receive_nothing(timeout=0.5)
    await notify.disconnect()
