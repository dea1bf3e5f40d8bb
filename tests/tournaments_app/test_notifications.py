"""The notification socket /ws/notifications/: a round's start reaches each of its
players at once (and a page opened later is told of the match still waiting)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from accounts.models import AccessToken
from tests.asgi_app import application
from tournaments.lifecycle import do_tick
from tournaments.models import TournamentGame

from .helpers import club_of, enter, new_tournament, users

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 5


@pytest.fixture(autouse=True)
def _layer(redis_url: str) -> None:
    """The Redis channel layer of the running configuration, as between processes."""




async def connect(headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application(), "/ws/notifications/", headers=headers)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    return comm


def token_of(user: Any) -> list[tuple[bytes, bytes]]:
    raw = AccessToken.issue(user, "tests")[1]
    return [(b"authorization", f"Bearer {raw}".encode()), (b"host", b"localhost")]


def session_of(user: Any) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return [(b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()),
            (b"host", b"localhost"), (b"origin", b"http://localhost")]


def prepare() -> tuple[Any, list[Any]]:
    people = users("olga", "adam", "mia")
    club = club_of(people[0], people[1:])
    tournament = new_tournament(people[0], club, rounds=2)
    enter(tournament, people)
    return tournament, people


async def test_a_round_start_reaches_every_player_at_once() -> None:
    tournament, people = await database_sync_to_async(prepare)()
    # One by token, the others as logged-in pages (the session, from the page's origin).
    headers = await database_sync_to_async(
        lambda: [token_of(people[0])] + [session_of(person) for person in people[1:]])()
    sockets = [await connect(h) for h in headers]
    await database_sync_to_async(do_tick)(tournament.starts_at)
    notices = [await comm.receive_json_from(timeout=TIMEOUT) for comm in sockets]
    kinds = sorted(n["type"] for n in notices)
    assert kinds == ["tournament_bye", "tournament_match", "tournament_match"]
    for notice in notices:
        assert notice["tournament"] == tournament.pk and notice["round"] == 1
        assert notice["tournament_url"] == f"/tournaments/{tournament.pk}/"
    match_notice = next(n for n in notices if n["type"] == "tournament_match")
    assert match_notice["url"] == f"/matches/{match_notice['match']}/"
    for comm in sockets:
        await comm.disconnect()

    # A page opened later is told of the match that waits for its player.
    row = await database_sync_to_async(
        lambda: TournamentGame.objects.filter(match__isnull=False).select_related(
            "seat0").first())()
    late = await connect(await database_sync_to_async(session_of)(row.seat0))
    waiting = await late.receive_json_from(timeout=TIMEOUT)
    assert waiting["type"] == "tournament_match" and waiting["match"] == str(row.match_id)
    await late.disconnect()


async def test_an_anonymous_socket_is_closed() -> None:
    comm = WebsocketCommunicator(application(), "/ws/notifications/",
                                 headers=[(b"host", b"localhost"),
                                          (b"origin", b"http://localhost")])
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert not connected and code == 4401


async def test_ping() -> None:
    people = await database_sync_to_async(users)("olga")
    comm = await connect(await database_sync_to_async(token_of)(people[0]))
    await comm.send_to(text_data='{"type": "ping"}')
    assert await comm.receive_json_from(timeout=TIMEOUT) == {"type": "pong"}
    await comm.send_to(text_data="not json")
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()
