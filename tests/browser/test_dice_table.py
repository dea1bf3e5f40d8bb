"""The five-dice game in Debian's chromium, against the live stack (daphne x2, Celery).

Every action is a click (or a key) on the board of the shared match page
(templates/games/table.html + games/dice/static/games/dice/board.js); the page's state
(``window.tablePage``) only tells the test what is legal and when the next state came.

- Alone: a whole casual game through ``POST /api/matches/computer`` with one seat: keeps and
  re-rolls by click, a keep by keyboard (Space on a focused die, Enter on Re-roll), stands;
  then the result, the post-game analysis, the record, the replay, the history and the
  personal bests page with the solo leaderboard.
- Two players, rated, two browser contexts (one of them a 360x740 phone): the whole game
  played through both boards, the odds panel never offered, the points and rounds
  result, the rating changes.
- A table of three with the computer (``bots.runner.play_match`` with the bot's token):
  the odds panel open, its best line pressed to choose, the computer's turns announced.

Screenshots: test-artifacts/e2e-dice-{solo,2p,phone,table,bests}.png (and
e2e-dice-failure-*.png when something goes wrong). Any page error or CSP violation fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.conftest import Player as BrowserPlayer
from tests.browser.conftest import console_error, playing

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

STEP_MS = 15_000
GAME_DEADLINE_S = 120


class Player(BrowserPlayer):
    """A logged-in browser context of its own and its page, at the dice table."""

    shot_prefix = "e2e-dice-"

    def __init__(self, browser: Any, base: str, user: User,
                 viewport: tuple[int, int] = (1280, 900)) -> None:
        super().__init__(browser, base, user.username, viewport=viewport, timeout_ms=STEP_MS,
                         reduced_motion="no-preference")
        self.user = user
        self.log_in(user)

    console_problem = staticmethod(console_error)

    def shot(self, name: str, full: bool = True) -> None:
        self.page.wait_for_timeout(700)  # the roll's tumble is over
        super().shot(name, full)

    def get(self, path: str) -> tuple[int, Any]:
        """A GET with this context's cookies, outside the page (its refusals are no page
        errors)."""
        response = self.context.request.get(self.base + path)
        return response.status, response.json()

    def open_match(self, match_id: str) -> None:
        self.page.goto(f"{self.base}/matches/{match_id}/")
        self.page.wait_for_function(
            "() => window.tablePage && window.tablePage.boardReady && window.tablePage.state")

    @property
    def view(self) -> Any:
        state = self.state
        return state.get("view") or state["views"][0]

    def wait_decision(self) -> None:
        """My roll is on the table, my buttons are shown and no command is waiting."""
        self.page.wait_for_function(
            """() => { const p = window.tablePage, s = p.state, v = s && s.view;
                return v && !p.pending && v.to_act != null && p.mySeats.includes(v.to_act)
                    && v.legal.length > 0
                    && !document.getElementById('dice-actions').hidden
                    && !document.querySelector('[data-testid=die-0]').disabled; }""")

    def wait_over(self) -> None:
        self.page.wait_for_function("() => window.tablePage.state.match.status !== 'active'",
                                    timeout=GAME_DEADLINE_S * 1000)


# ------------------------------------------------------------------ playing through the board

def keep_and_reroll(pl: Player, positions: list[int], keyboard: bool = False) -> list[int]:
    """Keep the dice at ``positions`` and re-roll the others; the kept values."""
    view = pl.view
    dice = view["table"]["dice"]
    for i in positions:
        die = pl.testid(f"die-{i}")
        if keyboard:
            die.focus()
            pl.page.keyboard.press("Space")
        else:
            die.click()
        assert die.get_attribute("aria-pressed") == "true", (i, dice)
    left = 5 - len(positions)
    label = pl.testid("dice-reroll").inner_text()
    assert (str(left) in label) if 0 < left < 5 else True, label
    before = pl.version
    if keyboard:
        pl.testid("dice-reroll").focus()
        pl.page.keyboard.press("Enter")
    else:
        pl.testid("dice-reroll").click()
    pl.wait_version(before)
    return sorted(dice[i] for i in positions)


def stand(pl: Player) -> int:
    table = pl.view["table"]
    button = pl.testid("dice-stand")
    assert str(table["stand_records"]) in button.inner_text()
    before = pl.version
    button.click()
    pl.wait_version(before)
    return int(table["stand_records"])


def last_turn(view: dict[str, Any], seat: int, round_no: int) -> dict[str, Any]:
    (turn,) = [t for t in view["sheet"][round_no]["turns"] if t["seat"] == seat]
    return turn


def check_sheet(pl: Player, view: dict[str, Any]) -> None:
    """The board's score sheet says what the view says, cell by cell."""
    for r, sheet in enumerate(view["sheet"]):
        for seat, score in enumerate(sheet["scores"]):
            if score is None:
                continue
            cell = pl.page.locator(f"#dice-sheet-table [data-testid=sheet-{r}-{seat}]")
            assert cell.locator(".dice-sheet-score").inner_text() == str(score), (r, seat)
            won = "is-winner" in (cell.get_attribute("class") or "")
            assert won == (sheet["winner"] == seat and view["players"] > 1), (r, seat)
    if view["totals"] is not None:
        for seat, total in enumerate(view["totals"]):
            assert pl.page.locator(f"#dice-sheet-table [data-testid=total-{seat}]").inner_text() \
                == str(total)


# ------------------------------------------------------------------ alone

def _start_a_solo_game(pl: Player) -> str:
    """A casual game alone through POST /api/matches/computer; the odds may be shown."""
    pl.page.goto(pl.base + "/")
    status, body = pl.api("POST", "/api/matches/computer", {"game": "dice", "seats": 1})
    assert status == 201, body
    match_id = str(body["match"]["id"])
    pl.open_match(match_id)
    assert pl.view["players"] == 1 and not pl.state["match"]["rated"]
    assert pl.testid("dice-odds-toggle").is_visible()  # casual: the odds may be shown
    return match_id


def _play_the_solo_rounds(pl: Player) -> list[int]:
    """Five rounds: keep two, stand, re-roll all, keep three by keyboard, stand; the
    scores recorded."""
    plan = ["keep2", "stand", "all", "keyboard", "stand"]
    recorded: list[int] = []
    for round_no, move in enumerate(plan):
        pl.wait_decision()
        view = pl.view
        assert view["round"] == round_no
        assert pl.testid("dice-round").inner_text().startswith(f"Round {round_no + 1}")
        table = view["table"]
        assert pl.testid("dice-attempt-score").inner_text() == str(table["score"])
        assert str(table["fallback"]) in pl.testid("dice-stand-records").inner_text()
        if move == "keep2":
            kept = keep_and_reroll(pl, [0, 1])
        elif move == "all":
            kept = keep_and_reroll(pl, [])
        elif move == "keyboard":
            kept = keep_and_reroll(pl, [2, 3, 4], keyboard=True)
        else:
            recorded.append(stand(pl))
            assert last_turn(pl.view, 0, round_no)["keep"] is None
            continue
        turn = last_turn(pl.view, 0, round_no)
        assert turn["keep"] == kept, (turn, kept)
        recorded.append(turn["recorded"])
        # What the re-roll gave is shown, and said, as the last turn.
        text = pl.testid("dice-last-text").inner_text()
        assert f"{turn['recorded']} " in text, text
        if round_no == 0:
            pl.shot("solo-reroll", full=False)
            _check_reduced_motion(pl)
    return recorded


def _check_the_solo_result(pl: Player, recorded: list[int]) -> None:
    """The total, the sheet, the outcome and the analysis of five decisions."""
    pl.wait_over()
    final = pl.view
    assert final["totals"] == [sum(recorded)]
    check_sheet(pl, final)
    outcome = pl.testid("dice-outcome")
    outcome.wait_for(state="visible")
    assert str(sum(recorded)) in outcome.inner_text()
    assert pl.testid("dice-bests-link").is_visible()
    assert not pl.testid("dice-actions").is_visible()
    assert pl.testid("rematch").is_visible()  # again, the same settings, alone too
    # The analysis: five decisions, each beside the best one.
    pl.page.locator("[data-testid=dice-analysis-row]").nth(4).wait_for()
    assert pl.page.locator("[data-testid=dice-analysis-row]").count() == 5
    assert "of 5 decisions the best" in pl.testid("dice-analysis-summary").inner_text()
    pl.shot("solo")


def _check_the_record_replay_and_history(pl: Player, match_id: str) -> None:
    """The record, the replay, the history."""
    status, record = pl.get(f"/api/matches/{match_id}/record")
    assert status == 200 and record["format"] == "dice/1" and record["players"] == ["sola"]
    assert [a["type"] for a in record["actions"]].count("roll") == 5
    replay = pl.page.goto(f"{pl.base}/matches/{match_id}/replay/")
    assert replay is not None and replay.status == 200
    pl.page.goto(f"{pl.base}/history/?game=dice")
    pl.page.locator(f"[data-testid=history-row][data-match='{match_id}']").wait_for()


def _check_the_personal_bests(pl: Player, total: int) -> None:
    """Personal bests: this game leads the solo leaderboard, beside others' results."""
    _other_solo_results(total)
    pl.page.goto(f"{pl.base}/games/dice/bests/")
    row = pl.page.locator("[data-testid=bests-row][data-player=sola]")
    row.wait_for()
    assert row.locator("[data-testid=bests-score]").inner_text() == str(total)
    assert pl.testid("my-bests-table").is_visible()
    assert pl.testid("my-rank").is_visible()
    assert pl.page.locator("[data-testid=bests-row]").count() == 4
    pl.shot("bests")
    pl.testid("bests-period").select_option("week")
    pl.testid("bests-apply").click()
    pl.page.wait_for_url("**period=week**")
    assert pl.page.locator("[data-testid=bests-row]").count() == 3  # one is 20 days old


def test_a_solo_game_in_the_browser(live_stack: Any, browser: Any) -> None:
    user = User.objects.create_user("sola", password="pw-sola-123")
    pl = Player(browser, live_stack.url, user)
    with playing(pl, failure="failure-solo"):
        match_id = _start_a_solo_game(pl)
        recorded = _play_the_solo_rounds(pl)
        _check_the_solo_result(pl, recorded)
        _check_the_record_replay_and_history(pl, match_id)
        _check_the_personal_bests(pl, sum(recorded))
        pl.check_clean()


def _check_reduced_motion(pl: Player) -> None:
    """The roll tumbles, unless the player asked for less motion."""
    name = """() => { const d = document.querySelector('[data-testid=die-0]');
        d.classList.add('is-rolling');
        return getComputedStyle(d.querySelector('.die-face')).animationName; }"""
    assert pl.page.evaluate(name) == "dice-tumble"
    pl.page.emulate_media(reduced_motion="reduce")
    assert pl.page.evaluate(name) == "none"
    pl.page.emulate_media(reduced_motion="no-preference")


def _other_solo_results(mine: int) -> None:
    """Three more players' solo games (one above this one, two below, one of them old)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match
    from tests.factories import make_match

    for name, score, days in (("ada", mine + 17, 2), ("bea", max(1, mine - 30), 1),
                              ("cyd", max(1, mine - 5), 20)):
        other = User.objects.create_user(name)
        make_match(other, game="dice", scores=[score], status=Match.Status.FINISHED,
                   reason="finished", rules={"rounds": 5, "quick": False, "decision_s": 30},
                   finished_at=timezone.now() - timedelta(days=days))


# ------------------------------------------------------------------ two players, rated

def _start_a_rated_game(alice: Player, phone: Player) -> str:
    """ann's rated seek, bob's accept on the phone; no odds anywhere; the order of play."""
    players = [alice, phone]
    alice.page.goto(alice.base + "/")
    phone.page.goto(phone.base + "/")
    status, body = alice.api("POST", "/api/seeks", {"game": "dice", "seats": 2, "rated": True})
    assert status == 201, body
    status, body = phone.api("POST", f"/api/seeks/{body['seek']}/accept")
    assert status == 201, body
    match_id = str(body["match"]["id"])
    for pl in players:
        pl.open_match(match_id)
        assert pl.state["match"]["rated"]
        # Rated: no odds panel, and the API refuses them too.
        assert not pl.testid("dice-odds-toggle").is_visible()
        assert not pl.testid("dice-odds").is_visible()
    assert phone.get(f"/api/matches/{match_id}/advice")[1]["code"] == "rated"
    order = alice.testid("dice-order")
    order.wait_for()
    first = alice.view["order"]["first"]
    assert ["ann", "bob"][first] in order.inner_text().lower() or "goes first" in \
        order.inner_text()
    return match_id


def _play_through_both_boards(alice: Player, phone: Player) -> int:
    """Each decision on the board of the player to act, the other board following; the
    number of decisions."""
    by_seat = {alice.view["seat"]: alice, phone.view["seat"]: phone}
    deadline = time.monotonic() + GAME_DEADLINE_S
    decisions = 0
    while alice.state["match"]["status"] == "active":
        assert time.monotonic() < deadline, "the game did not end in time"
        view = alice.view
        seat = view["to_act"]
        if seat is None:
            time.sleep(0.1)
            continue
        pl = by_seat[seat]
        pl.wait_decision()
        other = by_seat[1 - seat]
        # The other board shows the same roll, not for it to play.
        assert other.testid("dice-turn").inner_text().endswith("is deciding.")
        assert other.testid("die-0").is_disabled()
        before = other.version
        if decisions % 3 == 1:
            stand(pl)
        else:
            keep_and_reroll(pl, [4] if decisions % 3 == 0 else [1, 2])
        decisions += 1
        other.wait_version(before)
        if view["round"] == 1 and decisions == 3:
            alice.shot("2p", full=True)
        if view["round"] == 2 and decisions == 5:
            phone.shot("phone", full=True)
            width = phone.page.evaluate(
                "() => document.getElementById('dice-board').getBoundingClientRect().right")
            assert width <= 360, f"the board is {width}px wide on a 360px phone"
    return decisions


def _check_both_outcomes(players: list[Player]) -> dict[str, Any]:
    """Both boards show the sheet, the points and rounds outcome and the scoreline; the
    result."""
    for pl in players:
        pl.wait_over()
        final = pl.view
        check_sheet(pl, final)
        outcome = pl.testid("dice-outcome")
        outcome.wait_for(state="visible")
        result = final["result"]
        text = outcome.inner_text()
        if result["points_winner"] is not None:
            assert "On points" in text and str(max(final["totals"])) in text
        assert "On rounds" in text
        assert outcome.get_attribute("data-absolute") == ("true" if result["absolute"]
                                                          else "false")
        # Each figure named: no bare "216:174 || 2:2".
        assert pl.testid("dice-scoreline").inner_text() == (
            "Points " + ":".join(map(str, final["totals"])) + " · rounds won "
            + ":".join(map(str, final["round_wins"])))
    return dict(result)


def test_a_rated_two_player_game_with_a_phone(live_stack: Any, browser: Any) -> None:
    ann = User.objects.create_user("ann", password="pw-ann-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    alice = Player(browser, live_stack.url, ann)
    phone = Player(browser, live_stack.urls[-1], bob, viewport=(360, 740))  # the other daphne
    players = [alice, phone]
    with playing(*players, failure="failure-{name}"):
        _start_a_rated_game(alice, phone)
        decisions = _play_through_both_boards(alice, phone)
        assert decisions == 10
        result = _check_both_outcomes(players)
        header = alice.state["match"]
        if result["points_winner"] is not None:
            alice.page.wait_for_function(
                "() => window.tablePage.state.match.rating_changes.length === 2")
            assert alice.testid("rating-changes").is_visible()
        alice.page.locator("[data-testid=dice-analysis-row]").nth(9).wait_for()
        assert header["rated"]
        alice.shot("2p-result")
        for pl in players:
            pl.check_clean()


# ------------------------------------------------------------------ a table with the computer

def _start_the_computer(url: str, bot_token: str, match_id: str, stop: threading.Event,
                        bot_errors: list[BaseException]) -> threading.Thread:
    """The computer plays its seats with the bot's token (bots.runner) until ``stop``."""
    from bots.client import Api
    from bots.runner import play_match

    def bot() -> None:
        async def run() -> None:
            task = asyncio.create_task(play_match(Api(url, bot_token),
                                                  match_id, think=(0.2, 0.4)))
            while not task.done() and not stop.is_set():
                await asyncio.sleep(0.1)
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        try:
            asyncio.run(run())
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            bot_errors.append(exc)

    thread = threading.Thread(target=bot, daemon=True)
    thread.start()
    return thread


def _open_the_odds(pl: Player) -> None:
    """The odds panel, off at first, switched on (and remembered)."""
    assert pl.view["players"] == 3 and pl.view["seat"] == 0
    toggle = pl.testid("dice-odds-toggle")
    assert not toggle.is_checked()
    toggle.check()
    assert pl.page.evaluate("() => localStorage.getItem('dice.odds')") == "on"
    odds = pl.testid("dice-odds")
    odds.wait_for(state="visible")


def _take_the_best_line(pl: Player, match_id: str, rounds_played: int) -> None:
    """The odds of this roll (exact, best first, with the stand among them); its best line
    pressed to choose, then played."""
    pl.wait_decision()
    view = pl.view
    pl.page.locator("[data-testid=dice-odds-option]").first.wait_for()
    advice = pl.get(f"/api/matches/{match_id}/advice")[1]["advice"]
    assert advice["dice"] == view["table"]["dice"]
    lines = pl.page.locator("[data-testid=dice-odds-option]")
    assert lines.count() >= 2
    best_text = lines.first.inner_text()
    assert f"{advice['best']['expected']:.1f}" in best_text, (best_text, advice["best"])
    if rounds_played == 1:
        pl.shot("table")
    if rounds_played >= 1:
        # What the computer did was said in the live region.
        pl.page.wait_for_function(
            "() => /Computer \\d/.test(document.getElementById('table-announce')"
            ".textContent)")
    lines.first.click()  # choose the best decision
    before = pl.version
    if advice["best"]["type"] == "stand":
        pl.testid("dice-stand").click()
    else:
        pressed = pl.page.locator("[data-testid=dice-row] [aria-pressed=true]").count()
        assert pressed == len(advice["best"]["keep"])
        mine = pl.testid("dice-odds-mine").inner_text()
        assert f"{advice['best']['expected']:.1f}" in mine, mine
        pl.testid("dice-reroll").click()
    pl.wait_version(before)


def _play_by_the_odds(pl: Player, match_id: str, bot_errors: list[BaseException]) -> int:
    """The human takes the best line on each of its turns until the game ends; the rounds
    played."""
    deadline = time.monotonic() + GAME_DEADLINE_S
    rounds_played = 0
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        assert not bot_errors, bot_errors
        pl.page.wait_for_function(
            """() => { const s = window.tablePage.state;
                return s.match.status !== 'active'
                    || (s.view.to_act === 0 && !window.tablePage.pending); }""",
            timeout=STEP_MS * 2)
        if pl.state["match"]["status"] != "active":
            return rounds_played
        _take_the_best_line(pl, match_id, rounds_played)
        rounds_played += 1


def _check_the_table_result(pl: Player) -> None:
    """The ranks, the outcome, and every decision of the human the best one."""
    final = pl.view
    check_sheet(pl, final)
    for seat, rank in enumerate(final["result"]["ranks"]):
        assert pl.testid(f"rank-{seat}").inner_text() == f"Rank {rank}"
    assert pl.testid("dice-outcome").is_visible()
    assert not pl.testid("dice-odds").is_visible()  # the game is over
    # Every decision of the human was the best one, as the odds said.
    analysis = pl.testid("dice-analysis")
    with contextlib.suppress(Exception):
        pl.page.locator("[data-testid=dice-analysis-row]").nth(14).wait_for()
    assert pl.page.locator("[data-testid=dice-analysis-row]").count() == 15, (
        analysis.get_attribute("data-error"), analysis.inner_text())
    mine = pl.page.locator("[data-testid=dice-analysis-summary] li[data-seat='0']")
    assert "5 of 5 decisions the best" in mine.inner_text()


def test_a_table_with_the_computer_and_the_odds(live_stack: Any, browser: Any) -> None:
    from accounts.models import AccessToken
    from games.play.lobby import bot_user

    user = User.objects.create_user("tess", password="pw-tess-123")
    pl = Player(browser, live_stack.url, user)
    _row, bot_token = AccessToken.issue(bot_user(), "tests")
    stop = threading.Event()
    bot_errors: list[BaseException] = []
    with playing(pl, failure="failure-table") as stack:
        stack.callback(stop.set)
        pl.page.goto(pl.base + "/")
        pl.page.evaluate("() => localStorage.removeItem('dice.odds')")
        status, body = pl.api("POST", "/api/matches/computer", {"game": "dice", "seats": 3})
        assert status == 201, body
        match_id = body["match"]["id"]
        _start_the_computer(live_stack.urls[1], bot_token, match_id, stop, bot_errors)
        pl.open_match(match_id)
        _open_the_odds(pl)

        rounds_played = _play_by_the_odds(pl, match_id, bot_errors)
        pl.wait_over()
        assert rounds_played == 5
        _check_the_table_result(pl)
        pl.shot("table-result")
        pl.check_clean()


# ------------------------------------------------------------------ six seats on a phone

def test_six_seats_fit_a_phone(live_stack: Any, browser: Any) -> None:
    """A table of six (five of them the computer's) at 360x740: a round played, the whole
    board within the screen's width (the score sheet scrolls inside itself if it must)."""
    from accounts.models import AccessToken
    from bots.client import Api
    from bots.runner import play_match
    from games.play.lobby import bot_user

    user = User.objects.create_user("sixer", password="pw-sixer-123")
    pl = Player(browser, live_stack.url, user, viewport=(360, 740))
    _row, bot_token = AccessToken.issue(bot_user(), "tests")
    stop = threading.Event()
    with playing(pl, failure="failure-six") as stack:
        stack.callback(stop.set)
        pl.page.goto(pl.base + "/")
        status, body = pl.api("POST", "/api/matches/computer", {"game": "dice", "seats": 6})
        assert status == 201, body
        match_id = body["match"]["id"]

        async def run_bot() -> None:
            task = asyncio.create_task(play_match(Api(live_stack.urls[1], bot_token), match_id,
                                                  think=(0.0, 0.05)))
            while not task.done() and not stop.is_set():
                await asyncio.sleep(0.1)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

        threading.Thread(target=lambda: asyncio.run(run_bot()), daemon=True).start()
        pl.open_match(match_id)
        for _ in range(2):  # two rounds: the sheet has scores of every seat
            pl.wait_decision()
            stand(pl)
        pl.page.wait_for_function(
            "() => window.tablePage.state.view.sheet[1].scores.every((s) => s !== null)"
            " || window.tablePage.state.view.round >= 2", timeout=STEP_MS * 2)
        right = pl.page.evaluate(
            "() => document.getElementById('dice-board').getBoundingClientRect().right")
        assert right <= 360, f"the board is {right}px wide on a 360px phone"
        assert pl.page.locator("#dice-sheet-table thead th").count() == 7
        pl.shot("six-phone")
        pl.check_clean()
