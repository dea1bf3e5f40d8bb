"""`manage.py export_record` reproduces a played match; the computer plays over the API."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from accounts.models import AccessToken
from bots.client import Api
from bots.runner import play_match
from games.models import Match
from games.play.lobby import bot_user, do_play_computer
from games.play.services import do_command, do_create_match
from games.play.store import load_engine

from .helpers import connect, make_player, play_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def test_the_computer_plays_a_hand_through_the_public_api(live_stack) -> None:
    human, token = make_player("visitor")
    match = do_play_computer(human)
    _bot_token_row, bot_token = AccessToken.issue(bot_user(), "tests")

    async def run() -> dict:
        bot = asyncio.create_task(play_match(Api(live_stack.urls[1], bot_token), str(match.pk),
                                             think=(0.0, 0.05)))
        me = connect(live_stack.urls[0], token, str(match.pk))
        await me.connect()
        try:
            return await play_until(me, lambda v: v["result"] is not None or v["hand_no"] >= 1)
        finally:
            await me.close()
            bot.cancel()

    view = asyncio.run(run())
    assert view["hands"][0]["end"] in ("domino", "blocked", "match_over")


def test_export_record_command_replays_to_the_same_match(live_stack, tmp_path) -> None:
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    match = do_create_match(alice, bob, rated=False)
    users = [alice, bob]
    for _ in range(60):  # a few moves, then a resignation
        engine = load_engine(match)
        seat = engine.to_act()
        legal = engine.view(seat if seat is not None else 0)["legal"]
        if seat is None:
            for s in (0, 1):
                do_command(match.pk, users[s], {"action": {"seat": s, "type": "continue"}})
            continue
        do_command(match.pk, users[seat], {"action": legal[0], "version": match.version})
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
    if match.status == Match.Status.ACTIVE:
        assert do_command(match.pk, alice, {"action": {"seat": 0, "type": "resign"}}).ok
    match.refresh_from_db()
    env = dict(live_stack.env)
    out = tmp_path / "record.json"
    subprocess.run([sys.executable, "manage.py", "export_record", str(match.pk), "-o", str(out)],
                   cwd=ROOT, env=env, check=True)
    replayed = subprocess.run([sys.executable, "manage.py", "replay", str(out), "--json"],
                              cwd=ROOT, env=env, capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr
    report = json.loads(replayed.stdout)
    assert report["balances"] == match.scores
    assert report["result"] == {"winner": match.winner, "reason": match.reason}
