"""The lobby's game choice in Debian's chromium, against the live stack.

- Every registered game is offered, with the seat counts it allows and a control for each
  of its chosen conventions (the fixed ones shown as fixed); the computer's seats at an
  open table follow the seat count. Screenshot: test-artifacts/e2e-lobby-games.png.
- Without a browser: the lobby's game data, and which page a match gets (the shared
  table page for a game whose plugin names a board, else the game's own).
- A four-seat Fives table with one computer seat: the second person's Join answers
  ``waiting`` and keeps them in the lobby; the third fills the table, and the two already
  seated are taken to the match by the lobby's polling. The table's conventions (cross,
  target) are listed on the open table and reach the match.

No Content-Security-Policy violation, no page error.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from games import registry
from tests.browser.test_fives_table import STEP_MS, Person, no_problems, offer_fives_table
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]


def page_data(html: str, element_id: str) -> Any:
    start = html.index(f'<script id="{element_id}" type="application/json">')
    body = html[html.index(">", start) + 1:html.index("</script>", start)]
    return json.loads(body)


def test_the_pages_follow_the_plugins(client: Any) -> None:
    """No browser: the lobby lists every game; a game that names a board gets the table
    page (its template included, its module named), the others their own page."""
    from django.contrib.auth.models import User

    from games.play.lobby import do_play_computer

    ann = User.objects.create_user("annpages", password="x")
    client.force_login(ann)
    games = page_data(client.get("/").content.decode(), "lobby-games")
    assert [g["key"] for g in games] == registry.game_keys()
    for shown, plugin in zip(games, registry.all_games(), strict=True):
        assert shown["seat_counts"] == list(plugin.seat_counts)
        assert [c["key"] for c in shown["conventions"]] == [c.key for c in plugin.conventions()]
        assert shown["one_device"] == plugin.has_one_device
    for plugin in registry.all_games():
        seats = 4 if 4 in plugin.seat_counts else plugin.seat_counts[0]
        match = do_play_computer(ann, plugin.key, seats, None)
        html = client.get(f"/matches/{match.pk}/").content.decode()
        data = page_data(html, "table-data")
        assert data["game"] == plugin.key and data["seats"] == seats
        assert data["my_seats"] == [0] and data["role"] == "player"
        assert data["board_module"].endswith(plugin.board_module)
        assert "js/shell.js" in html and 'id="board-root"' in html
        assert all(isinstance(text, str) and text for text in data["strings"].values())


def seat_options(person: Person) -> list[int]:
    values = person.page.eval_on_selector_all("[data-testid=seek-seats] option",
                                              "els => els.map(e => Number(e.value))")
    return [int(v) for v in values]


def test_every_game_with_its_seats_and_conventions(live_stack: Any, browser: Any) -> None:
    ann = Person(browser, live_stack.url, "annlobby")
    try:
        ann.sign_up()
        page = ann.page
        offered = page.eval_on_selector_all("[data-testid=seek-game] option",
                                            "els => els.map(e => e.value)")
        assert offered == registry.game_keys(), offered
        for plugin in registry.all_games():
            ann.testid("seek-game").select_option(plugin.key)
            ann.testid("seek-rated").select_option("casual")
            assert seat_options(ann) == list(plugin.seat_counts), plugin.key
            for convention in plugin.conventions():
                if convention.key == "players":
                    continue  # the seats control
                if convention.fixed:
                    fixed = ann.testid(f"fixed-{convention.key}")
                    assert fixed.is_visible(), (plugin.key, convention.key)
                    assert "fixed" in fixed.inner_text().lower()
                elif plugin.key == "spectacular-bid" and convention.key == "start_points":
                    assert ann.testid("seek-points").is_visible()
                else:
                    control = ann.testid(f"conv-{convention.key}")
                    assert control.is_visible(), (plugin.key, convention.key)
                    if convention.kind == "bool":
                        assert control.is_checked() == bool(convention.default)
                    elif convention.asked_in == "minutes":  # a time in seconds, asked in minutes
                        assert float(control.input_value()) * 60 == convention.default, convention
                    else:
                        assert control.input_value() == str(convention.default), convention
            assert ann.testid("one-device").is_visible() == plugin.has_one_device
        # Spectacular Bid's rated tables use the standard rules: nothing to choose.
        ann.testid("seek-game").select_option("spectacular-bid")
        ann.testid("seek-rated").select_option("rated")
        assert ann.testid("seek-conventions").is_hidden()
        assert ann.testid("seek-points").is_hidden()
        # "Play the computer" starts a casual game whatever the type: the note says so.
        assert "is casual" in ann.testid("play-computer-note").inner_text()
        ann.testid("seek-rated").select_option("casual")
        assert "is casual" not in ann.testid("play-computer-note").inner_text()
        ann.testid("seek-rated").select_option("rated")

        # Fives: 2 or 4 players; the computer may take up to two seats of an open table.
        ann.testid("seek-game").select_option("fives")
        assert ann.testid("seek-computer").is_hidden()
        assert "other seat" in ann.testid("play-computer-note").inner_text()
        ann.testid("seek-seats").select_option("4")
        computer = page.eval_on_selector_all("[data-testid=seek-computer] option",
                                             "els => els.map(e => e.value)")
        assert computer == ["0", "1", "2"], computer
        assert "3" in ann.testid("play-computer-note").inner_text()
        ann.testid("conv-cross").check()
        ann.testid("conv-target").select_option("100")
        shot = str(ARTIFACTS / "e2e-lobby-games.png")
        page.locator("[data-testid=new-game]").screenshot(path=shot)
        no_problems(ann)
    finally:
        ann.close()


def test_a_table_waits_until_its_seats_are_taken(live_stack: Any, browser: Any) -> None:
    ann = Person(browser, live_stack.url, "anntable")
    bob = Person(browser, live_stack.urls[-1], "bobtable")
    carol = Person(browser, live_stack.url, "caroltable")
    people = (ann, bob, carol)
    try:
        for person in people:
            person.sign_up()
        offer_fives_table(ann, computer_seats=1, cross=True, target=100)

        row = bob.page.locator("[data-testid=seek-list] li.row", has_text="anntable")
        row.wait_for()
        assert row.locator("[data-testid=rules-cross]").count() == 1
        assert "100" in row.locator("[data-testid=rules-target]").inner_text()
        seats = row.locator("[data-testid^=seats-]")
        assert "2 of 4" in seats.inner_text() and "2 free" in seats.inner_text()
        with bob.page.expect_response("**/accept") as answer:
            row.locator("button[data-action=accept]").click()
        body = answer.value.json()
        assert body["ok"] is True and body["waiting"] is True, body
        bob.testid("lobby-notice").wait_for()
        row.locator("[data-testid^=seated-]").wait_for()  # bob sits: no second Join
        assert urlsplit(bob.page.url).path == "/"

        carols = carol.page.locator("[data-testid=seek-list] li.row", has_text="anntable")
        carols.locator("[data-testid^=seats-]", has_text="3 of 4").wait_for()
        with carol.page.expect_navigation(url="**/matches/**"):
            carols.locator("button[data-action=accept]").click()
        for person in (ann, bob):  # seated before: the lobby's poll takes them there
            person.page.wait_for_url("**/matches/**", timeout=STEP_MS)
        paths = {urlsplit(p.page.url).path for p in people}
        assert len(paths) == 1, paths
        for person in people:
            person.wait_table()
        view = ann.state["view"]
        assert view["rules"]["cross"] is True and view["rules"]["target"] == 100
        names = [ann.testid(f"seat-name-{s}").inner_text() for s in range(4)]
        assert names[:3] == ["anntable", "bobtable", "caroltable"], names
        assert ann.testid("cross-rule").inner_text() == "Cross"
        assert "100" in ann.testid("target").inner_text()
        no_problems(*people)
    finally:
        for person in people:
            person.close()


def test_a_challenge_names_its_game(live_stack: Any, browser: Any) -> None:
    """The challenge form offers every game; the starting points only where the game has
    them (its headline convention) and the table is casual; the challenge is for the game
    chosen."""
    ann = Person(browser, live_stack.url, "annchal")
    bob = Person(browser, live_stack.url, "bobchal")
    try:
        for person in (ann, bob):
            person.sign_up()
        offered = ann.page.eval_on_selector_all("[data-testid=challenge-game] option",
                                                "els => els.map(e => e.value)")
        assert offered == registry.game_keys(), offered
        ann.testid("challenge-rated").select_option("casual")
        for plugin in registry.all_games():
            ann.testid("challenge-game").select_option(plugin.key)
            assert ann.testid("challenge-points").is_visible() == bool(
                plugin.headline_convention), plugin.key
        game = registry.all_games()[-1].key  # not the default game
        ann.testid("challenge-game").select_option(game)
        ann.testid("challenge-name").fill("bobchal")
        with ann.page.expect_response("**/api/seeks") as answer:
            ann.testid("challenge-submit").click()
        assert answer.value.json()["ok"] is True, answer.value.json()
        status, mine = ann.api("GET", "/api/seeks", None)
        assert status == 200
        challenges = [s for s in mine["my_challenges"] if s["opponent"] == "bobchal"]
        assert [s["game"] for s in challenges] == [game], mine
        no_problems(ann)
    finally:
        ann.close()
        bob.close()


def test_the_language_menu_waits_for_the_keyboard(live_stack: Any, browser: Any) -> None:
    """Arrows move through the languages without leaving the page; Enter applies the one
    reached (a keyboard user can get to the last language)."""
    visitor = Person(browser, live_stack.url, "langvisitor")
    try:
        visitor.go("/rules/")
        menu = visitor.testid("language")
        codes = visitor.page.eval_on_selector_all("[data-testid=language] option",
                                                  "els => els.map(e => e.value)")
        start = menu.input_value()
        visitor.page.evaluate("() => { window.__same_page = true; }")
        menu.focus()
        for _ in range(len(codes) - 1 - codes.index(start)):
            visitor.page.keyboard.press("ArrowDown")
        # Not sent on the first arrow: the page was not loaded again.
        assert visitor.page.evaluate("() => window.__same_page === true")
        assert menu.input_value() == codes[-1]
        with visitor.page.expect_navigation():
            visitor.page.keyboard.press("Enter")
        assert visitor.testid("language").input_value() == codes[-1]
        visitor.context.clear_cookies()
    finally:
        visitor.close()


def test_play_the_computer_at_a_chosen_level(live_stack: Any, browser: Any) -> None:
    """The level control offers the game's levels (medium chosen); the match seats that
    level's account. The dice game offers its own levels."""
    from games.models import Match
    from games.play.lobby import computer_user
    from tests.browser.test_fives_table import match_id_of

    ann = Person(browser, live_stack.url, "annlevels")
    try:
        ann.sign_up()
        page = ann.page
        ann.testid("seek-game").select_option("dice")
        levels = page.eval_on_selector_all("[data-testid=computer-level] option",
                                           "els => els.map(e => e.value)")
        assert levels == ["careful", "easy", "to_win"]
        assert ann.testid("computer-level").input_value() == "careful"
        ann.testid("seek-game").select_option("fives")
        levels = page.eval_on_selector_all("[data-testid=computer-level] option",
                                           "els => els.map(e => e.value)")
        assert levels == ["easy", "medium", "hard"]
        assert ann.testid("computer-level").input_value() == "medium"
        ann.testid("computer-level").select_option("hard")
        ann.testid("play-computer").click()
        page.wait_for_url("**/matches/**", timeout=STEP_MS)
        match = Match.objects.get(pk=match_id_of(ann))
        hard = computer_user(registry.game("fives"), "hard")
        assert match.seat_users[1:] == [hard.pk]
        no_problems(ann)
    finally:
        ann.close()
