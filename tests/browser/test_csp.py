"""Every page satisfies the Content-Security-Policy (config/security.py), in chromium.

Against the live stack (daphne serves the pages and /static/ with the policy, DEBUG on),
a player signs up through the form, and the test visits every kind of page: the lobby,
rules, leaderboard, history, a profile, a match page (its websocket included) and, once
the match is over, its replay; the account page (a token made, copied and revoked), the
language menu, allauth's pages, and the Django admin (its annul action too). Any
``securitypolicyviolation`` event or console CSP error on any of them fails the test.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Match
from games.play.services import do_command, do_create_match
from tests.browser.conftest import Player, is_csp_complaint
from tests.browser.test_replay_viewer import off_the_loop

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-csp-player-123"


class Visits(Player):
    """One browser page; every CSP complaint seen on it, with the URL it came from."""

    violations_wait_ms = 300

    def __init__(self, browser: Any, base: str) -> None:
        super().__init__(browser, base, "visitor")
        self.visited: list[str] = []

    def console_problem(self, message: Any) -> str | None:
        text = str(message.text)
        return f"console on {self.page.url}: {text}" if is_csp_complaint(text) else None

    def go(self, path: str, ready: str | None = None) -> None:
        response = self.page.goto(self.base + path)
        assert response is not None and response.status == 200, (path, response)
        assert "script-src 'self'" in (response.headers.get("content-security-policy") or "")
        if ready:
            self.page.wait_for_selector(ready, timeout=15_000)
        self.page.wait_for_load_state("load")
        self.visited.append(path)
        self.collect()


def sign_up(visits: Visits, username: str) -> None:
    visits.go("/accounts/signup/")
    page = visits.page
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    with page.expect_navigation():
        page.click("form[action='/accounts/signup/'] button[type=submit]")
    page.wait_for_selector("[data-testid=current-user]", timeout=15_000)
    visits.collect()


def new_match(seat0: User, seat1: User) -> Match:
    return do_create_match(seat0, seat1, rated=False)


def finish(match: Match, players: tuple[User, User]) -> None:
    """Both start the first hand, then seat 0 resigns: the match is over."""
    for seat in (0, 1):
        version = Match.objects.get(pk=match.pk).version
        done = do_command(match.pk, players[seat],
                          {"action": {"seat": seat, "type": "continue"}, "version": version})
        assert done.ok, done
    done = do_command(match.pk, players[0], {"action": {"seat": 0, "type": "resign"}})
    assert done.ok, done


def _check_the_detector_detects(visits: Visits) -> None:
    """The detector detects: an inline script is refused and reported."""
    page = visits.page
    visits.go("/rules/")
    page.evaluate("""() => { const s = document.createElement("script");
        s.textContent = "window.__inlineRan = true;"; document.head.appendChild(s); }""")
    visits.collect()
    assert page.evaluate("() => window.__inlineRan === undefined")
    assert any("script-src" in p for p in visits.errors), visits.errors
    visits.errors.clear()


def _visit_the_lobby_match_and_replay(visits: Visits, player: User, rival: User) -> Match:
    """The lobby (polls the API), then a match page with its websocket, and its replay."""
    page = visits.page
    visits.go("/", ready="#my-matches li")
    match = off_the_loop(new_match, player, rival)
    visits.go(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.tablePage && window.tablePage.state",
                           timeout=15_000)
    off_the_loop(finish, match, (player, rival))
    page.wait_for_selector("[data-testid=result]:visible", timeout=15_000)
    visits.collect()
    visits.go(f"/matches/{match.pk}/replay/", ready="#replay[data-ready='1']")
    page.keyboard.press("End")
    visits.collect()
    return match


def _make_copy_and_revoke_a_token(visits: Visits) -> None:
    """The account page: a token made, copied, and revoked after a confirmation."""
    page = visits.page
    visits.go("/account/")
    page.fill("[data-testid=token-name]", "csp bot")
    with page.expect_navigation():
        page.click("[data-testid=token-submit]")
    page.click("[data-testid=copy-token]")
    page.wait_for_timeout(200)
    assert page.inner_text("[data-testid=copy-token]").strip() != "Copy"  # account.js ran
    visits.collect()
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click("[data-testid^=revoke-]")
    assert page.locator("[data-testid=no-tokens]").count() == 1
    visits.collect()


def _switch_the_language_and_back(visits: Visits) -> None:
    """The language menu (site.js submits it), there and back."""
    page = visits.page
    page.select_option("[data-testid=language]", "fr")
    page.wait_for_selector("html[lang=fr]", timeout=10_000)
    visits.collect()
    page.select_option("[data-testid=language]", "en")
    page.wait_for_selector("html[lang=en]", timeout=10_000)
    visits.collect()


def _visit_allauth_and_log_out(visits: Visits) -> None:
    """allauth's management pages (the e-mail page loads allauth's own scripts)."""
    page = visits.page
    for path in ("/accounts/password/change/", "/accounts/email/", "/accounts/logout/"):
        visits.go(path)
    with page.expect_navigation():
        page.click("form[action='/accounts/logout/'] button[type=submit] >> nth=-1")
    visits.collect()


def _visit_the_admin(visits: Visits, player: User, match: Match) -> None:
    """The admin, as a superuser, its pages and the annul action."""
    page = visits.page
    User.objects.create_superuser("cspadmin", "cspadmin@example.org", PASSWORD)
    visits.go("/admin/login/")
    page.fill("input[name=username]", "cspadmin")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")
    visits.collect()
    for path in ("/admin/", "/admin/auth/user/", f"/admin/auth/user/{player.pk}/change/",
                 "/admin/auth/user/add/", f"/admin/auth/user/{player.pk}/password/",
                 "/admin/accounts/profile/", "/admin/accounts/accesstoken/",
                 "/admin/games/match/", f"/admin/games/match/{match.pk}/change/"):
        visits.go(path)
    visits.go("/admin/games/match/")
    page.check(f"input[name=_selected_action][value='{match.pk}']")
    page.select_option("select[name=action]", "annul_matches")
    with page.expect_navigation():
        page.click("button[name=index]")
    assert page.locator("input[name=apply]").count() == 1  # templates/admin/annul_matches
    visits.collect()


def test_no_page_violates_the_policy(live_stack: Any, browser: Any, settings: Any) -> None:
    settings.TEST_FIXED_DEALS = True
    settings.TEST_DEALS_SEED = "csp"
    base = live_stack.url
    visits = Visits(browser, base)
    try:
        _check_the_detector_detects(visits)

        # Signed out: allauth's entrance pages and the public ones.
        for path in ("/accounts/login/", "/accounts/password/reset/", "/leaderboard/",
                     "/history/", "/replay/"):
            visits.go(path)
        sign_up(visits, "cspplayer")
        player = User.objects.get(username="cspplayer")
        rival = User.objects.create_user("csprival", password=PASSWORD)

        match = _visit_the_lobby_match_and_replay(visits, player, rival)
        visits.go("/players/cspplayer/")
        visits.go("/players/cspplayer/history/")
        visits.go("/leaderboard/")
        visits.go("/history/")
        visits.go("/rules/")

        _make_copy_and_revoke_a_token(visits)
        _switch_the_language_and_back(visits)
        _visit_allauth_and_log_out(visits)
        _visit_the_admin(visits, player, match)

        assert visits.errors == [], "\n".join(visits.errors)
    finally:
        visits.close()
