"""The table and arena formats from the organizer's browser: a computer player entered
from the organizer's bar, the tournament started, its page showing the tables (a table
tournament) or the live leaderboard (an arena); screenshots of both."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tests.browser.conftest import playing
from tests.browser.test_tournaments import Player

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("kind", ["tables", "arena"])
def test_a_new_format_with_a_computer_player_from_the_browser(
        live_stack: Any, browser: Any, kind: str) -> None:
    users_ = [User.objects.create_user(f"{name}-{kind[:2]}") for name in ("ivy", "jon", "kay")]
    players = [Player(browser, live_stack.url, user) for user in users_]
    organizer = players[0]
    with playing(*players, failure=f"failure-{kind}-{{name}}"):
        for player in players:
            player.go("/clubs/")  # the API is called from a page of the site
        status, made = organizer.api("POST", "/api/clubs", {
            "name": f"{kind} club", "description": "", "language": "en", "policy": "open"})
        assert status in (200, 201), made
        club_id = made["club"]["id"]
        for player in players[1:]:
            assert player.api("POST", f"/api/clubs/{club_id}/join", {})[0] == 200
        settings: dict[str, Any] = ({"format": "tables", "seats": 4, "rounds": 2}
                                    if kind == "tables" else
                                    {"format": "arena", "duration_m": 30})
        status, made = organizer.api("POST", f"/api/clubs/{club_id}/tournaments", {
            "name": f"The {kind} evening", "game": "dice",
            "rules": {"rounds": 1, "quick": False, "decision_s": 600}, "rated": False,
            "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
            "round_gap_s": 0, "no_show_s": 600, "max_players": 16, **settings})
        assert status in (200, 201), made
        tournament_url = f"/tournaments/{made['tournament']['id']}/"
        for player in players:
            player.go(tournament_url)
            player.testid("join").click()
            player.page.wait_for_selector("[data-testid=entered]")
        organizer.page.reload()
        assert organizer.testid("computer-level").input_value() == "careful"
        organizer.testid("computer-level").select_option("to_win")
        organizer.testid("add-computer").click()
        organizer.page.wait_for_function(
            "() => document.querySelectorAll('[data-testid=entries] li').length === 4")
        organizer.testid("start-now").click()
        if kind == "tables":
            organizer.page.wait_for_selector("[data-testid=current-round] [data-testid=game-row]")
            page_text = organizer.testid("current-round").inner_text()
            assert "computer" in page_text.lower() or "Computer" in page_text
        else:
            organizer.page.wait_for_selector("[data-testid=status-badge]:has-text('Running')")
            organizer.page.wait_for_selector("text=Leaderboard")
        organizer.shot(f"{kind}-running")
        for player in players:
            player.check_clean()


def test_a_table_tournaments_points_are_set_on_the_form(live_stack: Any, browser: Any) -> None:
    owner = Player(browser, live_stack.url, User.objects.create_user("lea-tp"))
    with playing(owner, failure="failure-table-points-{name}"):
        owner.go("/clubs/")
        owner.testid("club-name").fill("Points club")
        with owner.page.expect_navigation():
            owner.testid("club-create").click()
        owner.testid("t-name").fill("Weighted tables")
        owner.testid("t-format").select_option("tables")
        assert owner.testid("t-table-points").is_visible()
        owner.testid("t-game").select_option("dice")
        owner.testid("t-rated").uncheck()
        owner.testid("t-table-points").fill("5, 3, 1, 0")
        owner.testid("t-bye-points").fill("2")
        owner.testid("t-format").select_option("swiss")
        assert owner.testid("t-table-points").is_hidden()  # a setting of the tables only
        owner.testid("t-format").select_option("tables")
        with owner.page.expect_navigation():
            owner.testid("t-create").click()
        tournament_id = int(owner.page.url.rstrip("/").rsplit("/", 1)[1])
        status, data = owner.api("GET", f"/api/tournaments/{tournament_id}")
        assert status == 200
        assert data["table_points"] == [5, 3, 1, 0]
        assert data["bye_points"] == 2
        owner.check_clean()
