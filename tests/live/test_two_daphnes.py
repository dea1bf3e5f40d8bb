"""A whole hand between two players, each connected to a different daphne process."""

from __future__ import annotations

import asyncio

import pytest

from games.models import MatchEvent
from games.play.services import do_create_match
from games.play.store import export_record, load_engine, rebuild
from games.spectacular_bid.record import parse
from games.spectacular_bid.replay import replay, report

from .helpers import connect, make_player, play_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_whole_hand_across_two_daphne_processes(live_stack) -> None:
    alice, alice_token = make_player("alice")
    bob, bob_token = make_player("bob")
    match = do_create_match(alice, bob, rated=False)

    async def play() -> tuple[dict, dict]:
        a = connect(live_stack.urls[0], alice_token, str(match.pk))
        b = connect(live_stack.urls[1], bob_token, str(match.pk))
        await a.connect()
        await b.connect()
        try:
            def hand_over(view: dict) -> bool:
                return view["result"] is not None or view["hand_no"] >= 1

            return await asyncio.gather(play_until(a, hand_over), play_until(b, hand_over))
        finally:
            await a.close()
            await b.close()

    view_a, view_b = asyncio.run(play())
    match.refresh_from_db()
    assert view_a["hands"][0]["end"] is not None
    assert view_a["balances"] == view_b["balances"]
    assert sum(match.scores) == 300
    assert MatchEvent.objects.filter(match=match).count() == match.version
    # The log is the truth: rebuilding it gives the cached state, and the record replays.
    assert rebuild(match).view(None) == load_engine(match).view(None)
    record = export_record(match)
    out = report(replay(parse(record)))
    assert "error" not in out
    assert out["balances"] == match.scores
