"""axe-core (``axe-playwright-python``, its bundled ``axe.min.js``: nothing is fetched) on
the platform's main pages in Debian's chromium, against the live stack: the lobby, a match
page of every registered game while it is played, the history, a profile and a
tournament page. No violation of impact "serious" or "critical" on any of them.

Screenshots: test-artifacts/axe-<page>.png (axe-failure-*.png when something goes wrong).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.conftest import Player, console_error, playing

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

BLOCKING = {"serious", "critical"}
# The page after its scripts have drawn it: the match page's board, the lobby's lists.
READY = {
    "match": "() => window.tablePage && window.tablePage.state && window.tablePage.boardReady",
    "lobby": "() => document.querySelector('#lobby') !== null",
}


class Visitor(Player):
    shot_prefix = "axe-"
    console_problem = staticmethod(console_error)

    def __init__(self, browser: Any, base: str, user: User, **options: Any) -> None:
        super().__init__(browser, base, user.username, timeout_ms=30_000, **options)
        self.log_in(user)

    def scan(self, name: str) -> list[str]:
        """axe on the page now shown: what it finds serious or critical, one line each."""
        from axe_playwright_python.sync_playwright import Axe

        self.page.wait_for_timeout(400)  # live regions and late drawing settled
        self.shot(name, full=False)
        found = Axe().run(self.page).response["violations"]
        return [f"{name} ({self.page.url}): {v['id']} [{v['impact']}] {v['help']}: "
                + "; ".join(n["target"][0] if isinstance(n["target"][0], str)
                            else str(n["target"]) for n in v["nodes"][:6])
                for v in found if v.get("impact") in BLOCKING]


def _a_tournament(owner: User) -> int:
    from tests.tournaments_app.helpers import club_of, enter, new_tournament, users

    players = users("axe_mia", "axe_adam")
    club = club_of(owner, players, name="Axe Club")
    tournament = new_tournament(owner, club, name="Axe Open")
    enter(tournament, [owner, *players])
    return int(tournament.pk)


def _match_pages(visitor: Visitor, suffix: str) -> list[str]:
    """A match against the computer of every registered game, scanned while it is played."""
    from games import registry

    problems = []
    for plugin in registry.all_games():
        visitor.go("/")
        status, body = visitor.api("POST", "/api/matches/computer",
                                   {"game": plugin.key, "seats": 2})
        if status != 201:  # a game the computer does not play: with a second person
            status, body = visitor.api("POST", "/api/matches/computer",
                                       {"game": plugin.key, "seats": 1})
        assert status == 201, (plugin.key, body)
        visitor.go(f"/matches/{body['match']['id']}/")
        visitor.page.wait_for_function(READY["match"])
        problems += visitor.scan(f"match-{plugin.key}{suffix}")
    return problems


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_no_serious_violation_on_the_main_pages(live_stack: Any, browser: Any,
                                                phone: bool) -> None:
    from tests.factories import make_match

    user = User.objects.create_user(f"axe_olga{int(phone)}", password="pw-axe-4421")
    rival = User.objects.create_user(f"axe_ivan{int(phone)}")
    make_match(user, rival, status="finished", winner=0, reason="points", scores=[180, 120])
    tournament = _a_tournament(user)
    options = ({"viewport": (390, 844), "has_touch": True, "is_mobile": True} if phone
               else {"viewport": (1366, 768)})
    visitor = Visitor(browser, live_stack.url, user, **options)
    suffix = "-phone" if phone else ""
    with playing(visitor, failure=f"failure{suffix}"):
        problems: list[str] = []
        visitor.go("/")
        visitor.page.wait_for_function(READY["lobby"])
        problems += visitor.scan(f"lobby{suffix}")
        for name, path in (("history", "/history/"), ("profile", f"/players/{user.username}/"),
                           ("tournament", f"/tournaments/{tournament}/")):
            visitor.go(path)
            problems += visitor.scan(f"{name}{suffix}")
        problems += _match_pages(visitor, suffix)
        visitor.collect()
        assert not visitor.errors, visitor.errors
    assert problems == [], "\n".join(problems)
