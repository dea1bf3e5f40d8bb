"""Seeds over the match websocket (games/live/consumers.py), in process with the Redis layer.

Both players send their seed as the page does; each gets a ``result``; once both are in,
the first deal reaches both sockets, and a seed after it is refused ``too_late``.
A spectator's seed is refused.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from accounts.models import AccessToken
from games.models import Match
from games.play.services import do_create_match
from tests.server.test_consumers import is_type, open_socket, receive_until, token_headers

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _layer(redis_url: str, settings: Any) -> None:
    import config.celery  # noqa: F401 - deadlines go to the configured broker

    settings.FAIR_SEED_WAIT_S = 30.0


def _setup() -> tuple[Match, list[str]]:
    users = [User.objects.create_user(name) for name in ("alice", "bob", "carol")]
    match = do_create_match(users[0], users[1], rated=False)
    return match, [AccessToken.issue(user, "t")[1] for user in users]


async def test_seeds_over_the_socket() -> None:
    match, tokens = await database_sync_to_async(_setup)()
    alice, first = await open_socket(match.pk, token_headers(tokens[0]))
    bob, _ = await open_socket(match.pk, token_headers(tokens[1]))
    carol, _ = await open_socket(match.pk, token_headers(tokens[2]))
    try:
        fairness = first["match"]["fairness"]
        assert fairness["seeds_open"] and fairness["server_seed"] is None
        await carol.send_json_to({"type": "seed", "seed": "spectator", "id": "s"})
        refused, _ = await receive_until(carol, is_type("result", id="s"))
        assert refused["code"] == "forbidden"

        await alice.send_json_to({"type": "seed", "seed": "a" * 32, "id": "seed"})
        answer, _ = await receive_until(alice, is_type("result", id="seed"))
        assert answer["ok"], answer
        await bob.send_json_to({"type": "seed", "seed": "b" * 32, "id": "seed"})
        await receive_until(bob, is_type("result", id="seed"))
        dealt, _ = await receive_until(
            alice, lambda m: m.get("type") == "state"
            and not m["match"]["fairness"]["seeds_open"])
        assert dealt["match"]["fairness"]["player_seeds"] == ["a" * 32, "b" * 32]
        assert dealt["match"]["fairness"]["server_seed"] is None

        await alice.send_json_to({"type": "seed", "seed": "again", "id": "late"})
        late, _ = await receive_until(alice, is_type("result", id="late"))
        assert (late["ok"], late["code"]) == (False, "too_late")
        await alice.send_json_to({"type": "seed", "seed": 5, "id": "bad"})
        bad, _ = await receive_until(alice, is_type("result", id="bad"))
        assert bad["code"] == "bad_request"
    finally:
        for comm in (alice, bob, carol):
            await comm.disconnect()
