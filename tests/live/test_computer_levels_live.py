"""A level of the computer plays through the public API: the hard Spectacular Bid account,
served as ``manage.py runbot`` serves it (``bots.runner.play_match`` with its username and
the runner's process pool), plays a hand against a person over the websockets."""

from __future__ import annotations

import asyncio

import pytest

from accounts.models import AccessToken
from bots.client import Api
from bots.runner import Decisions, play_match
from games import registry
from games.play.lobby import computer_user, do_play_computer

from .helpers import connect, make_player, play_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_hard_computer_plays_a_hand_through_the_public_api(live_stack) -> None:
    human, token = make_player("visitor")
    match = do_play_computer(human, "spectacular-bid", level="hard")
    bot = computer_user(registry.game("spectacular-bid"), "hard")
    _row, bot_token = AccessToken.issue(bot, "tests")
    decisions = Decisions(workers=1)

    async def run() -> dict:
        player = asyncio.create_task(play_match(
            Api(live_stack.urls[1], bot_token), str(match.pk), think=(0.0, 0.05),
            username=bot.get_username(), decisions=decisions))
        me = connect(live_stack.urls[0], token, str(match.pk))
        await me.connect()
        try:
            return await play_until(me, lambda v: v["result"] is not None or v["hand_no"] >= 1,
                                    timeout=120)
        finally:
            await me.close()
            player.cancel()

    try:
        view = asyncio.run(run())
    finally:
        decisions.close()
    assert view["hands"][0]["end"] in ("domino", "blocked", "match_over")
