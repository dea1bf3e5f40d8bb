"""The "Play now" banner does not linger: a tournament match that ends, and a tournament
that ends, are told on the notification socket (tournaments/notify.py), and a page that
reconnects asks which of its matches still wait (``waiting``)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.play.services import do_forfeit
from tests.asgi_app import application
from tournaments.lifecycle import do_tick
from tournaments.models import TournamentGame

from .helpers import club_of, enter, new_tournament, users
from .test_notifications import token_of

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 5


@pytest.fixture(autouse=True)
def _layer(redis_url: str) -> None:
    """The Redis channel layer of the running configuration."""


def prepare() -> tuple[Any, list[Any]]:
    people = users("olga", "adam")
    club = club_of(people[0], people[1:])
    tournament = new_tournament(people[0], club, rounds=1)
    enter(tournament, people)
    return tournament, people


async def notify_socket(user: Any) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application(), "/ws/notifications/",
                                 headers=await database_sync_to_async(token_of)(user))
    assert (await comm.connect(timeout=TIMEOUT))[0]
    return comm


async def next_of(comm: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    while True:
        message = await comm.receive_json_from(timeout=TIMEOUT)
        if message["type"] == kind:
            return dict(message)


async def test_the_end_of_a_tournament_match_and_of_its_tournament_are_told() -> None:
    tournament, people = await database_sync_to_async(prepare)()
    olga = await notify_socket(people[0])
    await database_sync_to_async(do_tick)(tournament.starts_at)
    ready = await next_of(olga, "tournament_match")
    await olga.send_json_to({"type": "waiting"})
    assert (await next_of(olga, "tournament_waiting"))["matches"] == [ready["match"]]

    def forfeit() -> None:
        row = TournamentGame.objects.get(match_id=ready["match"])
        do_forfeit(row.match_id, 1)
        do_tick()

    await database_sync_to_async(forfeit)()
    over = await next_of(olga, "tournament_match_over")
    assert over == {"type": "tournament_match_over", "tournament": tournament.pk,
                    "match": ready["match"]}
    assert (await next_of(olga, "tournament_over"))["tournament"] == tournament.pk
    await olga.disconnect()

    # A page that reconnects later is told that nothing waits for it any more.
    again = await notify_socket(people[0])
    await again.send_json_to({"type": "waiting"})
    assert (await next_of(again, "tournament_waiting"))["matches"] == []
    await again.disconnect()
