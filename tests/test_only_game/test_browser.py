"""Hidden Nim in Debian's chromium, against the live stack: the shared match page
(templates/games/table.html, static/js/shell.js) mounts the game's own board module from
its folder, two players play the whole game by clicking its buttons, each page shows only
its own bonus, and the shared replay page shows the game with the game's replay module.
Any page error or CSP violation fails."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.play.services import do_create_match
from tests.browser.conftest import Player, browser, console_error  # noqa: F401 (fixture)
from tests.browser.test_replay_viewer import off_the_loop

from .helpers import KEY

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]


class NimPlayer(Player):
    shot_prefix = "hidden-nim-"
    console_problem = staticmethod(console_error)

    def __init__(self, browser: Any, base: str, user: User) -> None:  # noqa: F811
        super().__init__(browser, base, user.username, timeout_ms=15_000)
        self.log_in(user)


def test_two_players_play_it_on_the_shared_match_page(live_stack: Any,
                                                      browser: Any) -> None:  # noqa: F811
    people = [User.objects.create_user(name) for name in ("nima", "nimb")]
    match = off_the_loop(lambda: do_create_match(*people, game=KEY, rated=False,
                                                 rules={"pile": 8}))
    players = [NimPlayer(browser, live_stack.url, user) for user in people]
    try:
        for player in players:
            player.go(f"/matches/{match.pk}/")
            player.page.wait_for_function("() => window.tablePage && window.tablePage.state")
            player.testid("hn-pile").wait_for()
        for _ in range(20):
            view = players[0].state["view"]
            if view["result"] is not None:
                break
            mover = players[view["to_act"]]
            mine = mover.state["view"]
            bonus = mine["bonuses"][mine["seat"]]
            assert mover.testid("hn-bonus").inner_text().endswith(str(bonus))
            assert mine["bonuses"][1 - mine["seat"]] is None
            count = mine["legal"][-1]["count"]
            before = mover.version
            mover.testid(f"hn-take-{count}").click()
            for player in players:
                player.wait_version(before)
        final = players[1].state["view"]
        assert final["result"] is not None and final["pile"] == 0
        players[1].page.wait_for_function(
            "() => document.querySelector('[data-testid=hn-pile]').textContent.endsWith('0')")
        players[1].shot("table")
        for player in players:
            player.collect()
            player.check_clean()

        viewer = players[0]
        viewer.go(f"/matches/{match.pk}/replay/")
        viewer.testid("hn-replay-pile").wait_for()
        viewer.page.wait_for_function(
            "() => document.querySelector('[data-testid=hn-replay-pile]').textContent !== ''")
        viewer.shot("replay")
        viewer.collect()
        viewer.check_clean()
    finally:
        for player in players:
            player.close()
