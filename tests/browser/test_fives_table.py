"""Fives with the cross in Debian's chromium, on the shared table page, against the live
stack (daphne x2, Celery worker and beat).

The computer player is the platform's own (``bots.runner.play_match`` with the
``computer`` user's token), run in a thread of the test; the people click. The page's
state (``window.tablePage``) only tells the test what is legal; every action is a click
or a key on the board's elements.

- One person and three computers: 4 seats from the lobby's "Play the computer", several
  moves (the first ones by keyboard alone), the hand summary once a hand has ended, the
  phone layout at 360 x 740, then a resignation and the result with every seat's rank.
- Two people (two browser contexts, one on each daphne) and two computers: a table
  opened in the lobby, joined by the other person; both play several moves.
- One person and the computer (two seats, full record): Draw is offered when nothing
  fits, and a drawn tile that fits must be played.

No Content-Security-Policy violation, no page error. Screenshots: test-artifacts/
e2e-fives-4p.png, e2e-fives-phone.png, e2e-fives-result.png, e2e-fives-2p2c.png,
e2e-fives-draw.png (and e2e-fives-failure-*.png when something goes wrong).
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import Player, is_csp_complaint, playing

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

PASSWORD = "Fives-table-pass-4417"
STEP_MS = 20_000

# The page's state: the view of this page's seat (read only).
MY_TURN = """() => {
  const p = window.tablePage;
  if (!p || !p.state || !p.boardReady) return false;
  if (p.state.match.status !== "active") return true;
  const v = p.state.view;
  return !p.pending && v && v.to_act === v.seat && v.legal.length > 0;
}"""


# ------------------------------------------------------------------ a person in a browser

class Person(Player):
    """A browser context of its own (cookies, websocket), its page, and what went wrong."""

    shot_prefix = "e2e-"

    def __init__(self, browser: Any, base: str, name: str,
                 viewport: tuple[int, int] = (1280, 900), storage: Any = None) -> None:
        options: dict[str, Any] = {} if storage is None else {"storage_state": storage}
        super().__init__(browser, base, name, viewport=viewport, timeout_ms=STEP_MS, **options)
        self.moves = 0

    def console_problem(self, message: Any) -> str | None:
        text = str(message.text)
        if is_csp_complaint(text):
            return f"console on {self.page.url}: {text}"
        if message.type == "error" and "WebSocket" not in text:
            return f"console error on {self.page.url}: {text}"
        return None

    def sign_up(self, password: str = PASSWORD) -> None:
        super().sign_up(password)
        self.page.wait_for_selector("#my-matches li")  # lobby.js has polled once
        self.collect()

    def wait_table(self) -> None:
        self.page.wait_for_url("**/matches/**")
        self.page.wait_for_function(
            "() => window.tablePage && window.tablePage.state && window.tablePage.boardReady")
        self.page.wait_for_selector("[data-testid=board] [data-tile], "
                                    "[data-testid=hand] [data-tile]")


# ------------------------------------------------------------------ the computer player

class Computer:
    """``bots.runner.play_match`` for the computer user's token, in a thread of its own."""

    def __init__(self, base: str, match_id: str) -> None:
        from accounts.models import AccessToken
        from games.play.lobby import bot_user

        _row, self.token = AccessToken.issue(bot_user(), "browser tests")
        self.base = base
        self.match_id = match_id
        self.loop = asyncio.new_event_loop()
        self.task: asyncio.Task[None] | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from bots.client import Api
        from bots.runner import play_match

        asyncio.set_event_loop(self.loop)
        self.task = self.loop.create_task(
            play_match(Api(self.base, self.token), self.match_id, think=(0.05, 0.25)))
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass
        except BaseException as exc:  # noqa: BLE001  # reported by stop()
            self.error = exc
        finally:
            self.loop.close()

    def stop(self) -> None:
        if self.thread.is_alive() and self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(timeout=15)
        assert self.error is None, f"the computer player failed: {self.error!r}"


# ------------------------------------------------------------------ moves by clicking

def wait_my_turn(person: Person, timeout_ms: int = STEP_MS) -> dict[str, Any] | None:
    """The view once it is this person's move; None once the game is over."""
    person.page.wait_for_function(MY_TURN, timeout=timeout_ms)
    state = person.state
    if state["match"]["status"] != "active":
        return None
    return dict(state["view"])


def move(person: Person, view: dict[str, Any], keyboard: bool = False) -> str:
    """One move of ``person`` (whose turn it is), by clicks or by keys alone."""
    page = person.page
    before = person.version
    legal = view["legal"]
    if [a["type"] for a in legal] == ["draw"]:
        draw = person.testid("draw")
        assert draw.is_visible(), f"{person.name}: Draw is not offered"
        if keyboard:
            draw.focus()
            page.keyboard.press("Enter")
        else:
            draw.click()
        done = "draw"
    else:
        assert person.testid("draw").is_hidden(), "Draw is offered beside a playable tile"
        plays = [a for a in legal if a["type"] == "play"]
        by_tile: dict[str, list[dict[str, Any]]] = {}
        for a in plays:
            by_tile.setdefault(a["tile"], []).append(a)
        # A tile with several places shows the highlighting; else any tile.
        tile = next((t for t, ps in by_tile.items() if len(ps) > 1), plays[0]["tile"])
        if view.get("must_play"):
            tile = view["must_play"]
        choice = by_tile[tile][0]
        tile_el = page.locator(f'[data-testid=hand] [data-tile="{tile}"]')
        if keyboard:
            tile_el.focus()
            page.keyboard.press("Enter")
        else:
            tile_el.click()
        if len(by_tile[tile]) > 1:
            places = page.locator("[data-testid=board] .fives-place-active")
            places.first.wait_for()
            assert places.count() == len(by_tile[tile]), (places.count(), by_tile[tile])
            place = page.locator(f'[data-testid=board] .fives-place-active'
                                 f'[data-target="{choice["target"]}"][data-port="{choice["port"]}"]')
            if keyboard:
                # Picking a tile by keyboard moves the focus to its first place.
                focused = page.evaluate("() => document.activeElement.getAttribute('data-port')")
                assert focused is not None, "the focus did not move to a place"
                place.focus()
                page.keyboard.press("Enter")
            else:
                place.click()
            done = f"{tile} on {choice['target']}:{choice['port']}"
        else:
            done = f"{tile} (its only place)"
    page.wait_for_function(f"() => window.tablePage.version > {before}")
    person.moves += 1
    return done


def play_moves(person: Person, count: int, keyboard: bool = False) -> list[str]:
    done = []
    for _ in range(count):
        view = wait_my_turn(person, timeout_ms=60_000)
        if view is None:
            break
        done.append(move(person, view, keyboard=keyboard))
    return done


# The state and what the page shows of it, read at one instant (between two messages).
SNAPSHOT = """() => {
  const q = (sel) => document.querySelector(sel);
  const text = (sel) => (q(sel) ? q(sel).innerText.trim() : null);
  const seats = window.tablePage.state.match.seats;
  return {
    view: window.tablePage.state.view,
    scores: [...Array(seats).keys()].map((s) => text(`[data-testid=score-${s}]`)),
    extras: [...Array(seats).keys()].map((s) => text(`[data-testid=seat-extra-${s}]`)),
    target: text("[data-testid=target]"),
    hand: document.querySelectorAll("[data-testid=hand] [data-tile]").length,
    board: document.querySelectorAll("[data-testid=board] [data-tile]").length,
    log: document.querySelectorAll("[data-testid=move-log] li").length,
  };
}"""


def check_table(person: Person, seats: int) -> None:
    """What every seat sees: names, scores, tile counts; the board, the info line."""
    shown = person.page.evaluate(SNAPSHOT)
    view = shown["view"]
    assert view["seats"] == seats
    for seat in range(seats):
        assert person.testid(f"seat-{seat}").is_visible()
        assert shown["scores"][seat] == str(view["scores"][seat]), (seat, shown)
        if view["phase"] == "play":
            assert str(view["hand_counts"][seat]) in shown["extras"][seat], (seat, shown)
    assert str(view["rules"]["target"]) in shown["target"], shown
    if view["phase"] == "play":
        assert shown["hand"] == len(view["hand"]), shown
    assert shown["board"] == len(view["board"]["tiles"]), shown
    assert shown["log"] == len(view["moves"]), shown


def check_summary(person: Person) -> bool:
    """Once a hand has ended: its summary (winner, pips, the hands revealed)."""
    view = person.state["view"]
    ended = [h for h in view.get("hands", []) if h.get("end")]
    if not ended:
        assert person.testid("hand-summary").is_hidden()
        return False
    last = ended[-1]
    summary = person.testid("hand-summary")
    summary.wait_for()
    assert summary.get_attribute("data-hand") == str(last["hand"])
    rows = summary.locator("tbody tr")
    assert rows.count() == view["seats"]
    for seat in range(view["seats"]):
        row = rows.nth(seat)
        assert row.locator(".fives-pips").inner_text() == str(last["pips"][seat])
        assert row.locator("[data-tile]").count() == len(last["hands"][seat])
    if last["winner"] is not None:
        assert "is-winner" in (rows.nth(last["winner"]).get_attribute("class") or "")
    return True


def resign_and_check_result(person: Person, seats: int) -> None:
    person.testid("resign").click()
    person.testid("confirm").wait_for()
    person.testid("confirm-yes").click()
    person.testid("result").wait_for()
    state = person.state
    assert state["match"]["status"] == "finished"
    ranks = state["view"]["result"]["ranks"]
    my_seat = state["view"]["seat"]
    assert ranks[my_seat] == max(ranks), ranks  # who resigns ranks last
    assert person.page.locator("[data-testid=ranks] li").count() == seats
    for seat in range(seats):
        assert person.testid(f"rank-{seat}").inner_text().strip().endswith(str(ranks[seat]))
    assert person.testid("resign").is_hidden()


def no_problems(*people: Person) -> None:
    problems = []
    for person in people:
        if not person.page.is_closed():
            person.collect()
        problems += [f"{person.name}: {p}" for p in person.errors]
    assert problems == [], "\n".join(problems)


def offer_fives_table(person: Person, computer_seats: int, **conventions: Any) -> None:
    """An open casual table of four for Fives from the lobby's form, the computer in
    ``computer_seats`` of its seats, with these conventions (True: checked; else chosen)."""
    person.testid("seek-game").select_option("fives")
    person.testid("seek-seats").select_option("4")
    person.testid("seek-rated").select_option("casual")
    person.testid("seek-computer").select_option(str(computer_seats))
    for name, value in conventions.items():
        control = person.testid(f"conv-{name}")
        if value is True:
            control.check()
        else:
            control.select_option(str(value))
    person.testid("seek-submit").click()
    person.testid("seek-feedback").wait_for()


def match_id_of(person: Person) -> str:
    return str(urlsplit(person.page.url).path).strip("/").split("/")[1]


# ------------------------------------------------------------------ the tests

def test_one_person_and_three_computers(live_stack: Any, browser: Any) -> None:
    ann = Person(browser, live_stack.url, "annfives")
    with playing(ann, failure="fives-failure-4p") as stack:
        ann.sign_up()
        page = ann.page
        ann.testid("seek-game").select_option("fives")
        ann.testid("seek-seats").select_option("4")
        ann.testid("conv-cross").check()
        assert "3" in ann.testid("play-computer-note").inner_text()
        ann.testid("play-computer").click()
        page.wait_for_url("**/matches/**")
        stack.callback(Computer(live_stack.urls[-1], match_id_of(ann)).stop)
        ann.wait_table()
        ann.collect()
        state = ann.state
        assert state["match"]["game"] == "fives" and state["match"]["seats"] == 4
        assert state["view"]["rules"]["cross"] is True
        names = [ann.testid(f"seat-name-{s}").inner_text() for s in range(4)]
        assert names[0] == "annfives" and len(set(names)) == 4, names

        done = play_moves(ann, 4, keyboard=True)  # by keys alone
        assert len(done) == 4, done
        check_table(ann, 4)
        ann.shot("fives-4p-early", full=False)
        # On to the end of the first hand (seven tiles each, no bazaar with four).
        while ann.state["view"]["hand_no"] == 0 and ann.moves < 9:
            if not play_moves(ann, 1):
                break
        # A seat with nothing to play is passed by the server, so another seat may go out
        # while ann has placed only her first four.
        assert ann.moves >= 5 or ann.state["view"]["hand_no"] > 0, ann.moves
        wait_my_turn(ann, timeout_ms=60_000)
        check_table(ann, 4)
        summary_shown = check_summary(ann)
        play_moves(ann, 2)  # a board with tiles beside the last hand's summary
        if summary_shown:
            check_summary(ann)
        ann.shot("fives-4p")

        # The same table on a phone (same account, second context).
        phone = Person(browser, live_stack.url, "annfives-phone", viewport=(360, 740),
                       storage=ann.context.storage_state())
        stack.callback(phone.close)
        phone.page.goto(f"{live_stack.url}/matches/{match_id_of(ann)}/")
        phone.wait_table()
        width = phone.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width}px wide on a 360px phone"
        hand_box = phone.page.locator("[data-testid=hand] svg").bounding_box()
        assert hand_box is not None and hand_box["width"] <= 360
        if summary_shown:
            phone.testid("hand-summary").wait_for()
        phone.shot("fives-phone")
        if wait_my_turn(phone) is not None:
            play_moves(phone, 1)  # a tap on the phone
        no_problems(phone)
        phone.close()

        resign_and_check_result(ann, 4)
        ann.shot("fives-result")
        no_problems(ann)


def test_two_people_and_two_computers(live_stack: Any, browser: Any) -> None:
    ann = Person(browser, live_stack.url, "annpair")
    bob = Person(browser, live_stack.urls[-1], "bobpair")  # the other daphne process
    with playing(ann, bob, failure="fives-failure-2p2c-{name}") as stack:
        ann.sign_up()
        bob.sign_up()
        offer_fives_table(ann, computer_seats=2)
        row = bob.page.locator("[data-testid=seek-list] li.row", has_text="annpair")
        row.wait_for()
        assert row.locator("[data-testid=game-badge]").text_content() == "Fives with the cross"
        assert "3 of 4" in row.locator("[data-testid^=seats-]").inner_text()
        with bob.page.expect_navigation(url="**/matches/**"):
            row.locator("button[data-action=accept]").click()
        ann.page.wait_for_url("**/matches/**", timeout=STEP_MS)  # the lobby's poll
        assert urlsplit(ann.page.url).path == urlsplit(bob.page.url).path
        stack.callback(Computer(live_stack.url, match_id_of(ann)).stop)
        for person in (ann, bob):
            person.wait_table()
        seats = {p.name: p.state["view"]["seat"] for p in (ann, bob)}
        assert seats == {"annpair": 0, "bobpair": 1}, seats

        deadline = time.monotonic() + 240
        while min(ann.moves, bob.moves) < 4 and time.monotonic() < deadline:
            for person in (ann, bob):
                view = person.state["view"]
                if person.state["match"]["status"] != "active":
                    break
                if view["to_act"] == view["seat"] and view["legal"] and not person.page.evaluate(
                        "() => window.tablePage.pending"):
                    move(person, view)
            if ann.state["match"]["status"] != "active":
                break
            time.sleep(0.1)
        assert min(ann.moves, bob.moves) >= 4, (ann.moves, bob.moves)
        # Both pages agree on what is public.
        bob.page.wait_for_function(f"() => window.tablePage.version >= {ann.version}")
        ann.page.wait_for_function(f"() => window.tablePage.version >= {bob.version}")
        for person in (ann, bob):
            check_table(person, 4)
        ann.shot("fives-2p2c")
        resign_and_check_result(bob, 4)
        ann.testid("result").wait_for()
        assert "bobpair" in ann.testid("result").inner_text()
        no_problems(ann, bob)


def test_two_seats_draw_from_the_bazaar(live_stack: Any, browser: Any) -> None:
    """With two players the bazaar has 14 tiles: Draw is offered when nothing fits (and
    only then), and a drawn tile that fits must be played."""
    ann = Person(browser, live_stack.url, "anndraw")
    with playing(ann, failure="fives-failure-draw") as stack:
        ann.sign_up()
        ann.testid("seek-game").select_option("fives")
        ann.testid("conv-full_record").check()
        ann.testid("play-computer").click()
        ann.page.wait_for_url("**/matches/**")
        stack.callback(Computer(live_stack.url, match_id_of(ann)).stop)
        ann.wait_table()
        assert ann.state["view"]["rules"]["full_record"] is True
        assert "full record" in ann.testid("cross-rule").inner_text()
        draws = must_plays = 0
        for _ in range(40):
            view = wait_my_turn(ann, timeout_ms=60_000)
            if view is None:
                break
            shown = ann.testid("bazaar").inner_text()
            assert str(view["bazaar_count"]) in shown, (shown, view["bazaar_count"])
            kinds = {a["type"] for a in view["legal"]}
            if view.get("must_play"):
                must_plays += 1
                assert {a["tile"] for a in view["legal"]} == {view["must_play"]}
                places = [a for a in view["legal"] if a.get("target")]
                if len(places) > 1:  # picked already: its places are shown
                    pressed = ann.page.locator("[data-testid=hand] [aria-pressed=true]")
                    assert pressed.get_attribute("data-tile") == view["must_play"]
            if kinds == {"draw"}:
                draws += 1
                if draws == 1:
                    ann.shot("fives-draw", full=False)
            move(ann, view)
            if draws and must_plays:
                break
        assert draws, "no draw in 40 moves"
        if ann.state["match"]["status"] == "active":
            check_table(ann, 2)
        no_problems(ann)
