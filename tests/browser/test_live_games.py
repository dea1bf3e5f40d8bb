"""Live games, presence and quick messages in Debian's chromium, against the live stack
(two daphne processes: the watcher's pages are served by the other one, so what he sees
is counted in Redis, not in one process).

- Two other players start a match; a third user sees it in the lobby's "Live games" with
  its players and watches it with one click: the spectator count goes to 1 on every page.
- Each seat's connection is shown by its name ("connected"), and "away" once its player
  closes his page.
- A quick message is sent and seen by the other player and the spectator; muted, the
  next one is not shown, and the mute is remembered.
- A challenge reaches its player on another page (the notification banner).

Screenshots: test-artifacts/e2e-live-lobby.png, e2e-live-table.png, e2e-live-away.png,
e2e-live-challenge.png. No Content-Security-Policy violation, no page error.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.test_fives_table import Person, no_problems

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]


class Watcher(Person):
    shot_prefix = "e2e-live-"

    def open_match(self, match_id: str) -> None:
        self.go(f"/matches/{match_id}/")
        self.page.wait_for_function("() => window.tablePage && window.tablePage.state"
                                    " && window.tablePage.presence")

    def presence_is(self, seat: int, state: str) -> None:
        self.page.wait_for_selector(f"[data-testid=presence-{seat}][data-state={state}]",
                                    state="attached")

    def spectators_are(self, n: int) -> None:
        self.page.wait_for_selector(f"[data-testid=spectators][data-count='{n}']",
                                    state="attached")


def off_loop(fn: Any, *args: Any) -> Any:
    """``fn`` in a thread of its own: what broadcasts (async_to_sync) cannot run beside
    Playwright's event loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result()


def people(browser: Any, stack: Any) -> tuple[Watcher, Watcher, Watcher]:
    found = []
    for n, name in enumerate(("livann", "livben", "livcid")):
        user = User.objects.create_user(name, password="pw-live-123")
        # The watcher is on the other daphne.
        base = stack.urls[1] if n == 2 and len(stack.urls) > 1 else stack.url
        person = Watcher(browser, base, name)
        person.log_in(user)
        found.append(person)
    return found[0], found[1], found[2]


def start_match(ann: Watcher, ben: Watcher) -> str:
    ann.go("/")
    status, seek = ann.api("POST", "/api/seeks", {"opponent": "livben", "rated": False,
                                                  "game": "dice"})
    assert status == 201, seek
    ben.go("/")
    status, accepted = ben.api("POST", f"/api/seeks/{seek['seek']}/accept")
    assert status == 201, accepted
    return str(accepted["match"]["id"])


def test_watch_a_live_game_see_who_is_here_and_talk(live_stack: Any, browser: Any) -> None:
    ann, ben, cid = people(browser, live_stack)
    try:
        match_id = start_match(ann, ben)
        ann.open_match(match_id)
        ben.open_match(match_id)
        ann.presence_is(1, "connected")

        # The third user finds the match in the lobby and watches it with one click.
        cid.go("/")
        row = cid.testid(f"live-{match_id}")
        row.wait_for()
        assert "livann" in row.inner_text() and "livben" in row.inner_text()
        cid.page.wait_for_selector("[data-testid=online][data-count]", state="visible")
        cid.shot("lobby")
        cid.testid(f"watch-{match_id}").click()
        cid.page.wait_for_url(f"**/matches/{match_id}/")
        cid.page.wait_for_function("() => window.tablePage && window.tablePage.presence")
        for person in (ann, ben, cid):
            person.spectators_are(1)
        cid.presence_is(0, "connected")
        cid.presence_is(1, "connected")
        assert cid.testid("watching").is_visible()
        assert cid.testid("say-hello").count() == 0  # a spectator has no quick messages

        # A quick message, seen by the other player and the spectator.
        ann.testid("say-good_game").click()
        for person in (ben, cid):
            said = person.testid("said-0")
            said.wait_for(state="visible")
            assert said.inner_text() == "Good game"
        ann.shot("table")

        # Ben mutes the others: the next message is not shown to him; remembered.
        ben.testid("mute").click()
        assert ben.testid("mute").get_attribute("aria-pressed") == "true"
        ben.page.wait_for_function("() => window.tablePage.muted")
        ben.page.wait_for_timeout(2100)  # one quick message every two seconds
        ann.testid("say-thanks").click()
        cid.page.wait_for_function(
            "() => window.tablePage.said.some((m) => m.code === 'thanks')")
        ben.page.wait_for_function(
            "() => window.tablePage.said.some((m) => m.code === 'thanks' && !m.shown)")
        assert ben.testid("said-0").is_hidden()
        ben.open_match(match_id)
        assert ben.testid("mute").get_attribute("aria-pressed") == "true"

        # Ben closes his page: "away" by his name, for Ann and the spectator.
        ben.page.close()
        ann.presence_is(1, "away")
        cid.presence_is(1, "away")
        text = ann.page.locator("[data-testid=presence-1] .presence-text").text_content()
        assert text == "away"
        ann.shot("away")
        no_problems(ann, cid)
    finally:
        for person in (ann, ben, cid):
            person.close()


def test_a_challenge_reaches_its_player_on_another_page(live_stack: Any, browser: Any) -> None:
    dan = User.objects.create_user("livdan", password="pw-live-123")
    eve = User.objects.create_user("liveve", password="pw-live-123")
    challenger, challenged = Watcher(browser, live_stack.url, "livdan"), Watcher(
        browser, live_stack.url, "liveve")
    try:
        challenger.log_in(dan)
        challenged.log_in(eve)
        challenged.go("/rules/")
        challenged.page.wait_for_function("() => window.notifyPage")
        challenger.go("/")
        status, _seek = challenger.api("POST", "/api/seeks", {"opponent": "liveve",
                                                              "rated": False, "game": "dice"})
        assert status == 201
        banner = challenged.testid("notify")
        banner.wait_for(state="visible")
        assert "livdan challenges you to Five dice, five rounds" in banner.inner_text()
        assert challenged.testid("notify-answer").get_attribute("href") == "/"
        challenged.shot("challenge", full=False)
        no_problems(challenger, challenged)
    finally:
        challenger.close()
        challenged.close()


def test_the_play_now_banner_goes_once_the_tournament_match_is_over(
        live_stack: Any, browser: Any) -> None:
    """On another match page, the banner of a tournament match goes when that match ends
    (and with it the tournament), carried through by Celery's tick as in production."""
    from django.utils import timezone

    from games.play.lobby import do_play_computer
    from games.play.services import do_forfeit
    from tests.tournaments_app.helpers import club_of, enter, new_tournament
    from tournaments.models import Tournament, TournamentGame

    olga = User.objects.create_user("livolga", password="pw-live-123")
    adam = User.objects.create_user("livadam", password="pw-live-123")
    tournament = new_tournament(olga, club_of(olga, [adam], name="Live Club"), rounds=1)
    enter(tournament, [olga, adam])
    elsewhere = off_loop(do_play_computer, olga, "dice")
    person = Watcher(browser, live_stack.url, "livolga")
    try:
        person.log_in(olga)
        person.open_match(str(elsewhere.pk))
        Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
        banner = person.testid("notify")
        banner.wait_for(state="visible")  # the beat started the tournament
        row = TournamentGame.objects.get(tournament=tournament, match__isnull=False)
        assert person.testid("notify-play").get_attribute("href") == f"/matches/{row.match_id}/"
        person.shot("banner", full=False)
        off_loop(do_forfeit, row.match_id, 1)  # the tick records it and ends the tournament
        banner.wait_for(state="hidden")
        assert Tournament.objects.get(pk=tournament.pk).status == "finished"
        no_problems(person)
    finally:
        person.close()
