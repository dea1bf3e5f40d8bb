"""Over the live stack, for every registered game: each socket is sent exactly its own view.

Players of a Fives table of four and of a dice table of three play through the public
websocket API (two daphne processes, the Celery worker and beat) while a spectator
watches. Afterwards the match log is replayed event by event, which gives the true state
at every version, and every message each socket received must equal what the game's
view function builds for that recipient at that version: nothing else reaches a socket.
The conformance suite (tests/conformance) proves the view functions themselves hide
everything hidden (a view is unchanged when the hidden information is dealt again).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import orjson
import pytest

from bots.client import Api, MatchConnection
from games import registry
from games.engine.fairness import VERIFIED, verify_record
from games.engine.plugin import LogEntry
from games.models import Match, MatchEvent
from games.play.services import do_create_match
from games.play.store import export_record, replay_log, rules_of

from .helpers import make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


async def _play(conn: MatchConnection, plugin: Any, rng: random.Random, log: list[Any],
                acting: bool, timeout: float) -> None:
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
        if not acting:
            continue
        view = conn.view_to_act_on()
        action = plugin.bot_action(view, rng) if view is not None else None
        if action is not None:
            await conn.send_command(action)
    # What this socket last knew, so that a hang says where it stood.
    last = [(m.get("type"), m.get("version"), m.get("code")) for m in log[-6:]]
    raise TimeoutError(f"the match did not end in time: version {conn.version}, acted on "
                       f"{conn.acted_version}, awaiting a result {conn.awaiting_result}, "
                       f"last messages {last}")


def _states_by_version(match: Match) -> dict[int, Any]:
    plugin = registry.game(match.game)
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    states = {}
    for version in range(len(events) + 1):
        log = [LogEntry(e.kind, e.seat, e.payload, e.t_us) for e in events[:version]]
        states[version] = replay_log(plugin, plugin.new_state(rules_of(match), match.seat_count),
                                     log)
    return states


# Short tables, so that greedy bots finish in seconds; a game not named plays its standard.
SHORT_RULES = {
    "spectacular-bid": {"start_points": 30},
    "fives": {"target": 100, "cross": True},
    "dice": {"rounds": 3},
}


def _tables() -> list[tuple[str, int, Any]]:
    """Every registered game (the test-only one too), at its largest table up to four."""
    return [(plugin.key, max(s for s in plugin.seat_counts if s <= 4),
             SHORT_RULES.get(plugin.key)) for plugin in registry.all_games()]


@pytest.mark.parametrize("game,seats,rules", _tables())
def test_every_socket_gets_exactly_its_own_view(live_stack, settings, game, seats,
                                               rules) -> None:
    people = [make_player(f"{game}{i}") for i in range(seats)]
    watcher = make_player(f"{game}-watcher")
    # Seeded chance as on the platform: the first deal or roll waits for the players'
    # own seeds, which the API clients send as they connect (bots/client.py).
    settings.FAIR_SEED_WAIT_S = 60.0
    match = do_create_match(*[user for user, _token in people], game=game, rated=False,
                            rules=rules)
    secret = match.fair_server_seed
    plugin = registry.game(game)
    logs: list[list[Any]] = [[] for _ in range(seats + 1)]

    async def run() -> None:
        conns = [MatchConnection(Api(live_stack.urls[i % 2], token), str(match.pk))
                 for i, (_user, token) in enumerate([*people, watcher])]
        for conn in conns:
            await conn.connect()
        try:
            await asyncio.gather(*[
                _play(conn, plugin, random.Random(i), logs[i], acting=i < seats, timeout=240)
                for i, conn in enumerate(conns)])
        finally:
            for conn in conns:
                await conn.close()

    asyncio.run(run())
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    states = _states_by_version(match)
    checked = 0
    for recipient, log in enumerate(logs):
        seat = recipient if recipient < seats else None
        for message in log:
            if message.get("type") != "state":
                continue
            assert "views" not in message  # one seat each: nobody is sent another's view
            expected = plugin.view(states[message["version"]], seat)
            assert message["view"] == expected, (recipient, message["version"])
            checked += 1
    assert checked > 10 * seats
    # The server seed reached nobody before the match was over; the end revealed it, and
    # the record's chance is what the players' seeds give.
    for log in logs:
        last = [m for m in log if m.get("type") == "state"][-1]
        assert all(secret not in orjson.dumps(m).decode() for m in log if m is not last)
        assert last["match"]["fairness"]["server_seed"] == secret
    seeds = match.fair_player_seeds
    assert len(seeds) == seats and all(len(seed) == 32 for seed in seeds)
    record = export_record(match)
    assert verify_record(plugin, record).status == VERIFIED
    first = MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.CHANCE).order_by("seq")[0]
    assert first.t_us > 0 and first.t_us < 30_000_000  # dealt when the seeds came in
