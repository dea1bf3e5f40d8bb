"""Hidden Nim over the live stack: two daphne processes, the Celery worker and beat,
started by the tests (they inherit ``PLATFORM_EXTRA_GAMES``, so they host the game too).

Both players play through the public websocket API, one on each daphne, while a
spectator watches; every message each socket received equals what the game's view
builds for that recipient at that version (the match log replayed event by event), so
no bonus reached anybody it was hidden from; the record verifies and replays."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from bots.client import Api, MatchConnection
from games.engine.fairness import VERIFIED, verify_record
from games.engine.plugin import LogEntry
from games.models import Match, MatchEvent
from games.services import do_create_match
from games.store import export_record, replay_log, rules_of
from tests.live.helpers import make_player

from .helpers import KEY, plugin

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


async def _play(conn: MatchConnection, rng: random.Random, log: list[Any], acting: bool,
                timeout: float) -> None:
    game = plugin()
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        try:
            message = await conn.receive(timeout=3)
        except TimeoutError:
            await conn.sync()
            continue
        log.append(message)
        if message.get("type") == "state" and message["match"]["status"] != "active":
            return
        view = conn.view_to_act_on() if acting else None
        action = game.bot_action(view, rng) if view is not None else None
        if action is not None:
            await conn.send_command(action)
    raise TimeoutError("the match did not end in time")


def test_a_match_over_two_daphnes_sends_each_socket_its_own_view(live_stack,
                                                                  settings) -> None:
    people = [make_player(f"nim{i}") for i in range(2)]
    watcher = make_player("nim-watcher")
    settings.FAIR_SEED_WAIT_S = 60.0  # the clients send their own seeds as they connect
    match = do_create_match(*[user for user, _token in people], game=KEY, rated=False,
                            rules={"pile": 12})
    logs: list[list[Any]] = [[], [], []]

    async def run() -> None:
        conns = [MatchConnection(Api(live_stack.urls[i % 2], token), str(match.pk))
                 for i, (_user, token) in enumerate([*people, watcher])]
        for conn in conns:
            await conn.connect()
        try:
            await asyncio.gather(*[_play(conn, random.Random(i), logs[i], acting=i < 2,
                                         timeout=120) for i, conn in enumerate(conns)])
        finally:
            for conn in conns:
                await conn.close()

    asyncio.run(run())
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    game = plugin()
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    log = [LogEntry(e.kind, e.seat, e.payload, e.t_us) for e in events]
    checked = 0
    for recipient, messages in enumerate(logs):
        seat = recipient if recipient < 2 else None
        for message in messages:
            if message.get("type") != "state":
                continue
            assert "views" not in message
            version = message["version"]
            state = replay_log(game, game.new_state(rules_of(match), 2), log[:version])
            assert message["view"] == game.view(state, seat), (recipient, version)
            if message["view"]["result"] is None and message["view"]["bonuses"] != [None, None]:
                hidden = [b for s, b in enumerate(message["view"]["bonuses"]) if s != seat]
                assert hidden == [None] * len(hidden)
            checked += 1
    assert checked >= 3 * 4  # the deal and at least three takes, to each of three sockets
    record = export_record(match)
    assert verify_record(game, record).status == VERIFIED
    outcome = game.replay_document(json.dumps(record).encode(), with_legal=False)
    assert outcome.exit_status == 0
    assert game.replayed_scores(outcome.report) == match.scores
