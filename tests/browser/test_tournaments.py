"""A club tournament in Debian's chromium, against the live stack (daphne x2, Celery worker
and beat): nobody but the browsers and the server's beat.

olga creates a club from /clubs/ and, on the club page, a Swiss of two rounds (dice, one
round a game); adam and mia join the club and the tournament from its page, and olga
starts it. The round starts on every open page at once: the tournament page shows the
pairings, adam's lobby shows "your tournament match is ready", and from its link he
opens his match. The players decide through the public API from their own pages (the
board belongs to the game); the beat records each result, pairs the next round the
moment the last match ends, and the standings on the pages update until the final ones.

Screenshots: test-artifacts/tournament-{club,form,registration,round1,lobby,match,
standings,final}.png (tournament-failure-*.png when something goes wrong). Page errors
and CSP violations fail the test.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tests.browser.conftest import Player as BrowserPlayer
from tests.browser.conftest import playing

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

STEP_MS = 20_000


class Player(BrowserPlayer):
    """A logged-in browser context of its own and its page; the pages' confirm() accepted."""

    shot_prefix = "tournament-"

    def __init__(self, browser: Any, base: str, user: User) -> None:
        super().__init__(browser, base, user.username, timeout_ms=STEP_MS)
        self.log_in(user)
        self.page.on("dialog", lambda dialog: dialog.accept())


def play_out(players: list[Player], match_id: str, deadline_s: float = 60) -> None:
    """Each player stands on every decision of theirs until the match is over (dice)."""
    end = timezone.now() + timedelta(seconds=deadline_s)
    while timezone.now() < end:
        for player in players:
            status, state = player.api("GET", f"/api/matches/{match_id}")
            assert status == 200, state
            if state["match"]["status"] != "active":
                return
            stand = next((a for a in state["view"]["legal"] if a["type"] == "stand"), None)
            if stand is not None:
                status, answer = player.api("POST", f"/api/matches/{match_id}/commands",
                                            {"action": stand, "version": state["version"]})
                assert status in (200, 409), answer
        players[0].page.wait_for_timeout(100)
    raise AssertionError(f"match {match_id} did not end")


def match_of(player: Player, tournament_id: int) -> str | None:
    status, data = player.api("GET", f"/api/tournaments/{tournament_id}")
    assert status == 200, data
    for game in data["round_list"][-1]["games"]:
        if player.name in (game["seat0"], game["seat1"]) and game["state"] == "playing":
            return str(game["match"])
    return None


def _create_the_club(olga: Player, adam: Player, mia: Player) -> str:
    """olga creates a club from /clubs/, adam and mia join it: the club's URL."""
    olga.go("/clubs/")
    olga.testid("club-name").fill("Riverside Dice Club")
    olga.page.locator("#club-description").fill("Tuesday evenings, everybody welcome.")
    with olga.page.expect_navigation():
        olga.testid("club-create").click()
    assert olga.testid("club-title").inner_text() == "Riverside Dice Club"
    club_url = str(olga.page.url)
    for player in (adam, mia):
        player.page.goto(club_url)
        player.testid("club-join").click()
        player.page.wait_for_selector("[data-testid=club-leave]")
    olga.page.reload()
    assert olga.page.locator("[data-testid=member-row]").count() == 3
    olga.shot("club")
    return club_url


def _announce_a_swiss(olga: Player) -> str:
    """A Swiss of two rounds, announced on the club page: the tournament's URL."""
    olga.testid("t-name").fill("Tuesday Swiss")
    olga.testid("t-format").select_option("swiss")
    olga.testid("t-rounds").fill("2")
    olga.testid("t-game").select_option("dice")
    olga.testid("t-rated").uncheck()
    olga.page.locator("#r-dice-rounds").select_option("1")
    olga.page.locator("#r-dice-decision_s").fill("120")
    olga.testid("t-gap").fill("0")
    assert olga.page.locator("[data-show-game=spectacular-bid]").is_hidden()
    assert olga.testid("t-double").is_hidden()
    olga.shot("form")
    with olga.page.expect_navigation():
        olga.testid("t-create").click()
    assert olga.testid("tournament-title").inner_text() == "Tuesday Swiss"
    return str(olga.page.url)


def _check_a_past_start_is_refused(olga: Player, base: str, club_url: str) -> None:
    """A start time in the past is refused with a clear message (through the API)."""
    status, refused = olga.api("POST", club_url.replace(base, "").replace(
        "/clubs/", "/api/clubs/").rstrip("/") + "/tournaments", {
            "name": "Yesterday", "format": "swiss", "rounds": 1, "game": "dice",
            "starts_at": "2001-01-01T10:00:00Z"})
    assert status == 400 and "past" in refused["message"]


def _everybody_joins_and_olga_starts(players: list[Player], tournament_url: str) -> None:
    """Everybody joins from the tournament page; olga starts it (adam waits in the lobby)."""
    olga, adam, _mia = players
    for player in players:
        player.page.goto(tournament_url)
        player.testid("join").click()
        player.page.wait_for_selector("[data-testid=entered]")
    olga.page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=entries] li').length === 3")
    olga.shot("registration")
    adam.go("/")  # adam waits in the lobby, mia on the tournament page
    adam.page.wait_for_selector("#lobby")
    olga.testid("start-now").click()


def _check_round_one_starts_everywhere(olga: Player, adam: Player, mia: Player) -> None:
    """Round 1 starts on every open page at once: pairings, adam's match, mia's bye."""
    olga.page.wait_for_selector("[data-testid=current-round] [data-testid=game-row]")
    assert "Round 1 of 2" in olga.testid("round-line").inner_text()
    adam.page.wait_for_selector("#notify:not([hidden])", timeout=STEP_MS)
    banner = adam.testid("notify").inner_text()
    assert "Your tournament match is ready" in banner and "Tuesday Swiss" in banner
    adam.shot("lobby")
    mia.page.wait_for_selector("#notify:not([hidden])")  # mia has the bye
    assert "bye" in mia.testid("notify").inner_text()
    olga.shot("round1")


def _adam_opens_his_match(olga: Player, adam: Player, tournament_id: int) -> str:
    """adam opens his round-1 match from the lobby's banner (or is there already)."""
    first = match_of(olga, tournament_id)
    assert first is not None and first == match_of(adam, tournament_id)
    if adam.page.url.endswith(f"/matches/{first}/"):
        pass  # the lobby took him to his new match already
    else:
        adam.testid("notify-play").click()
        adam.page.wait_for_url(f"**/matches/{first}/")
    adam.page.wait_for_selector("[data-testid=tournament-of]")
    assert "Tuesday Swiss, round 1" in adam.testid("tournament-of").text_content()
    adam.shot("match")
    return first


def _check_round_two_is_paired(olga: Player, mia: Player) -> None:
    """The beat records round 1 and pairs round 2 at once; the standings update."""
    olga.page.wait_for_function(
        "() => (document.querySelector('[data-testid=round-line]') || {}).innerText"
        " && document.querySelector('[data-testid=round-line]').innerText"
        ".includes('Round 2 of 2')")
    olga.page.wait_for_selector("[data-testid=standings-row]")
    points = olga.page.eval_on_selector_all(
        "[data-testid=standings-row]", "rows => rows.map(r => Number(r.dataset.points))")
    assert sorted(points) in ([0.0, 1.0, 1.0], [0.5, 0.5, 1.0]), points
    mia.page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=standings-row]').length === 3")
    olga.shot("standings")


def _check_the_final_standings(olga: Player, base: str, tournament_id: int) -> None:
    """The final standings: finished, a winner, four points in all, the CSV export."""
    olga.page.wait_for_selector("[data-testid=status-badge]:has-text('Finished')",
                                timeout=STEP_MS)
    olga.page.wait_for_selector("[data-testid=winner]")
    final = olga.page.eval_on_selector_all(
        "[data-testid=standings-row]", "rows => rows.map(r => Number(r.dataset.points))")
    assert len(final) == 3 and sum(final) == 4.0, final  # two games and two byes, 1 each
    assert "Final standings" in olga.testid("standings").inner_text()
    olga.shot("final")
    csv = olga.page.request.get(f"{base}/tournaments/{tournament_id}/standings.csv")
    assert csv.status == 200 and csv.text().startswith("rank,player_id,start_rank,name")


def test_a_club_tournament_from_the_browser(live_stack: Any, browser: Any) -> None:
    olga_user, adam_user, mia_user = (User.objects.create_user(name)
                                      for name in ("olga", "adam", "mia"))
    base = live_stack.url
    olga, adam, mia = (Player(browser, base, u) for u in (olga_user, adam_user, mia_user))
    players = [olga, adam, mia]
    with playing(*players, failure="failure-{name}"):
        club_url = _create_the_club(olga, adam, mia)
        tournament_url = _announce_a_swiss(olga)
        tournament_id = int(tournament_url.rstrip("/").rsplit("/", 1)[1])
        _check_a_past_start_is_refused(olga, base, club_url)
        _everybody_joins_and_olga_starts(players, tournament_url)
        _check_round_one_starts_everywhere(olga, adam, mia)

        first = _adam_opens_his_match(olga, adam, tournament_id)
        play_out([olga, adam], first)

        _check_round_two_is_paired(olga, mia)
        second = match_of(mia, tournament_id)
        assert second is not None
        play_out([p for p in players if match_of(p, tournament_id) == second], second)

        _check_the_final_standings(olga, base, tournament_id)
        for player in players:
            player.check_clean()


def play_every_round(players: list[Player], tournament_id: int, deadline_s: float = 120) -> None:
    """Each match the beat starts is played out by its players, to the tournament's end."""
    played: set[str] = set()
    end = timezone.now() + timedelta(seconds=deadline_s)
    while timezone.now() < end:
        status, data = players[0].api("GET", f"/api/tournaments/{tournament_id}")
        assert status == 200, data
        if data["status"] == "finished":
            return
        found: dict[str, list[Player]] = {}
        for player in players:
            match = match_of(player, tournament_id)
            if match is not None and match not in played:
                found.setdefault(match, []).append(player)
        for match, seated in found.items():
            play_out(seated, match)
            played.add(match)
        players[0].page.wait_for_timeout(300)
    raise AssertionError("the tournament did not end")


@pytest.mark.parametrize("kind", ["round_robin", "knockout"])
def test_the_organizer_runs_a_round_robin_and_a_knockout_from_the_browser(
        live_stack: Any, browser: Any, kind: str) -> None:
    """The same from the organizer's browser for the other formats: a double round robin
    of three (its crosstable), a knockout of four with a third-place match (its bracket)."""
    names = ["ora", "bea", "cy"] + (["dot"] if kind == "knockout" else [])
    users_ = [User.objects.create_user(f"{name}-{kind[:2]}") for name in names]
    players = [Player(browser, live_stack.url, user) for user in users_]
    organizer = players[0]
    with playing(*players, failure=f"failure-{kind}-{{name}}"):
        organizer.go("/clubs/")
        organizer.testid("club-name").fill(f"{kind} club")
        with organizer.page.expect_navigation():
            organizer.testid("club-create").click()
        club_url = organizer.page.url
        for player in players[1:]:
            player.page.goto(club_url)
            player.testid("club-join").click()
            player.page.wait_for_selector("[data-testid=club-leave]")
        organizer.page.reload()
        organizer.testid("t-name").fill(f"The {kind} cup")
        organizer.testid("t-format").select_option(kind)
        assert organizer.testid("t-rounds").is_hidden()
        organizer.testid("t-double" if kind == "round_robin" else "t-third").check()
        organizer.testid("t-game").select_option("dice")
        organizer.testid("t-rated").uncheck()
        organizer.page.locator("#r-dice-rounds").select_option("1")
        organizer.testid("t-gap").fill("0")
        with organizer.page.expect_navigation():
            organizer.testid("t-create").click()
        tournament_url = organizer.page.url
        tournament_id = int(tournament_url.rstrip("/").rsplit("/", 1)[1])
        for player in players:
            player.page.goto(tournament_url)
            player.testid("join").click()
            player.page.wait_for_selector("[data-testid=entered]")
        organizer.testid("start-now").click()
        organizer.page.wait_for_selector("[data-testid=current-round] [data-testid=game-row]")
        play_every_round(players, tournament_id)
        organizer.page.wait_for_selector("[data-testid=status-badge]:has-text('Finished')")
        part = "crosstable" if kind == "round_robin" else "bracket"
        organizer.page.wait_for_selector(f"[data-testid={part}]")
        if kind == "knockout":
            assert organizer.page.locator("[data-testid=bracket-match]").count() == 4
            assert "champion" in organizer.testid("bracket").inner_text()
        else:
            cells = organizer.page.locator("[data-testid=crosstable] tbody tr")
            assert cells.count() == 3
        rows = organizer.page.locator("[data-testid=standings-row]")
        assert rows.count() == len(players)
        organizer.shot(f"{kind}-final")
        for player in players:
            player.check_clean()
