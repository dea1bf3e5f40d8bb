"""The match page fits one screen on a turn, what is tapped is big enough, and two pages
that used to overflow (the History table, the Russian menu) do not.

For every hosted game (``games.registry.hosted_games()``, none skipped), against the
computer (``POST /api/matches/computer`` and ``bots.runner.play_match`` in a thread):

- a desktop turn at 1366 x 768 and a phone turn at 390 x 844 (touch): the board, each of
  the player's own pieces (hand tiles, dice) and each enabled action button lie inside the
  viewport at the scroll position the page loaded with; on the phone each of them that is
  tapped (pieces, buttons, highlighted board places) is at least 44 x 44 CSS px;
- the History table at 1366 px: its last column and a Replay button inside the viewport
  width, the page without a sideways scroll;
- the header menu in Russian at 1366 px: one line.

Screenshots: test-artifacts/fit-<game>-{desktop,phone}.png, fit-history.png,
fit-menu-ru.png (and fit-failure-*.png when something goes wrong).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.conftest import Player, console_error, playing
from tests.browser.test_fives_table import Computer

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

STEP_MS = 30_000
DESKTOP = (1366, 768)
PHONE = (390, 844)
TAP_PX = 44


@dataclass(frozen=True)
class TurnParts:
    """Where a game's board, its player's pieces and its action buttons are (CSS selectors
    inside the board root), and what is tapped."""

    board: str
    pieces: str  # the player's own pieces, shown
    tapped: str  # those of them that take a tap now
    buttons: str
    places: str = ""  # board places that take a tap (shown once a piece is picked)
    toasts: str = ""  # where score pop-ups show: never over the board


# Each hosted game's parts; a game without a line here fails the test (none is skipped).
PARTS: dict[str, TurnParts] = {
    "spectacular-bid": TurnParts(
        board="[data-testid=board]",
        pieces="[data-testid=hand] [data-tile]",
        tapped="[data-testid=hand] [data-tile][role=button]",
        buttons="#sb button.btn",
        places="[data-testid=board] .fives-place-active",
        toasts="#toasts",
    ),
    "fives": TurnParts(
        board="[data-testid=board]",
        pieces="[data-testid=hand] [data-tile]",
        tapped="[data-testid=hand] [data-tile][role=button]",
        buttons="#fives button.btn",
        places="[data-testid=board] .fives-place-active",
        toasts="#fives .fives-toasts",
    ),
    "dice": TurnParts(
        board="[data-testid=dice-row]",
        pieces="[data-testid=dice-row] button.die",
        tapped="[data-testid=dice-row] button.die:enabled",
        buttons="[data-testid=dice-actions] button.btn",
    ),
}

# This page's seat is to act, with something legal, and the board shows it.
MY_TURN = """() => {
  const p = window.tablePage, s = p && p.state, v = s && s.view;
  if (!p || !s || !p.boardReady || p.pending || !v) return false;
  return s.match.status === "active" && (v.legal || []).length > 0;
}"""

# Actions that come before a move with the pieces (starting a hand, the auction): the
# button each is taken with. A game whose turn starts with one of them gets it pressed.
BEFORE_PLAY = {"continue": "continue", "decline": "decline", "accept": "accept"}

# Every visible match of a selector: its box in viewport coordinates, whether it is enabled.
BOXES = """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !el.closest("[hidden]");
  }).map((el) => {
    const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height, disabled: !!el.disabled,
            name: el.getAttribute("data-testid") || el.getAttribute("data-tile")
                  || el.getAttribute("aria-label") || el.textContent.trim().slice(0, 30)};
  })"""


class Person(Player):
    shot_prefix = "fit-"
    console_problem = staticmethod(console_error)

    def __init__(self, browser: Any, base: str, user: User, viewport: tuple[int, int],
                 **options: Any) -> None:
        super().__init__(browser, base, user.username, viewport=viewport, timeout_ms=STEP_MS,
                         **options)
        self.log_in(user)

    def boxes(self, selector: str) -> list[dict[str, Any]]:
        return list(self.page.evaluate(BOXES, selector))


def _outside(box: dict[str, Any], width: int, height: int) -> bool:
    """Whether a box leaves the viewport (half a pixel of rounding allowed)."""
    return (box["x"] < -0.5 or box["y"] < -0.5 or box["x"] + box["w"] > width + 0.5
            or box["y"] + box["h"] > height + 0.5)


def _start_against_the_computer(person: Person, stack: Any, game: str, live: Any) -> Computer:
    person.go("/")
    status, body = person.api("POST", "/api/matches/computer", {"game": game, "seats": 2})
    assert status == 201, body
    computer = Computer(live.urls[-1], str(body["match"]["id"]))
    stack.callback(computer.stop)
    return computer


def _wait_my_turn(person: Person, computer: Computer) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        person.page.wait_for_function(MY_TURN, timeout=60_000)
    except PlaywrightTimeout:
        alive = computer.thread.is_alive()
        raise AssertionError(f"no turn: computer alive={alive}, error={computer.error!r}, "
                             f"state={person.state}") from None


def _legal_types(person: Person) -> set[str]:
    return {a["type"] for a in person.state["view"]["legal"]}


def _open_on_a_turn(person: Person, computer: Computer, game: str, size: tuple[int, int],
                    phone: bool) -> list[str]:
    """The match page at a turn with the player's pieces, the turns before it (a hand's
    start, an auction) checked and taken through their buttons on the way; then reloaded,
    as a player coming back to it would be: the layout as loaded is what counts."""
    parts = PARTS[game]
    person.go(f"/matches/{computer.match_id}/")
    problems: list[str] = []
    for step in range(8):
        _wait_my_turn(person, computer)
        before = _legal_types(person) & set(BEFORE_PLAY)
        if not before or _legal_types(person) - set(BEFORE_PLAY) - {"bid"}:
            break
        person.page.wait_for_timeout(300)
        problems += _check_inside(person, parts, size, pieces=False)
        if phone:
            problems += _check_taps(person, parts)
        person.shot(f"{game}-{'phone' if phone else 'desktop'}-before-{step}", full=False)
        version = person.version
        kind = next(k for k in BEFORE_PLAY if k in before)
        person.testid(BEFORE_PLAY[kind]).click()
        person.wait_version(version)
    person.page.reload()
    _wait_my_turn(person, computer)
    person.page.locator(parts.pieces).first.wait_for()
    person.page.wait_for_timeout(800)  # a roll's tumble, a toast's entrance
    return problems


def _check_inside(person: Person, parts: TurnParts, size: tuple[int, int],
                  pieces: bool = True) -> list[str]:
    width, height = size
    problems = []
    board = person.boxes(parts.board)
    assert board, f"no board ({parts.board})"
    found_pieces = person.boxes(parts.pieces)
    assert found_pieces or not pieces, f"no pieces ({parts.pieces})"
    buttons = [b for b in person.boxes(parts.buttons) if not b["disabled"]]
    for kind, found in (("board", board), ("piece", found_pieces), ("button", buttons)):
        problems += [f"{kind} {b['name']!r} at {b} is outside {width}x{height}"
                     for b in found if _outside(b, width, height)]
    return problems


# What board.js draws in an SVG (hand tiles, board places) is sized by its drawing; it keeps
# a hand tile at 44 px or more (narrower gaps, else rows) and gives a small board place an
# invisible target of 44 px. Named apart in a failure.
DRAWN = "drawn by board.js: "


def _check_taps(person: Person, parts: TurnParts) -> list[str]:
    """On the phone: each tapped thing is at least TAP_PX x TAP_PX."""
    drawn = parts.tapped.startswith("[data-testid=hand]")
    tapped = [(drawn, b) for b in person.boxes(parts.tapped)]
    tapped += [(False, b) for b in person.boxes(parts.buttons) if not b["disabled"]]
    if parts.places:
        tapped += [(True, b) for b in person.boxes(parts.places)]
    return [f"{DRAWN if by_js else ''}{b['name']!r} is {b['w']:.0f}x{b['h']:.0f} px"
            for by_js, b in tapped if b["w"] < TAP_PX - 0.5 or b["h"] < TAP_PX - 0.5]


def _pick_a_piece(person: Person, parts: TurnParts) -> None:
    """A piece with several places picked, so that its places are shown (dominoes)."""
    view = person.state["view"]
    by_tile: dict[str, int] = {}
    for action in view.get("legal", []):
        if action.get("tile") and action.get("port") is not None:
            by_tile[action["tile"]] = by_tile.get(action["tile"], 0) + 1
    several = [t for t, n in by_tile.items() if n > 1]
    if not several:
        return
    person.page.locator(f'[data-testid=hand] [data-tile="{several[0]}"]').click()
    person.page.locator(parts.places).first.wait_for()


# The focused element: whether it shows as focused, and its outline.
FOCUS_RING = """() => { const el = document.activeElement, st = getComputedStyle(el);
  return {visible: el.matches(":focus-visible"), style: st.outlineStyle,
          width: parseFloat(st.outlineWidth) || 0}; }"""


def _check_toasts(person: Person, parts: TurnParts) -> list[str]:
    """The pop-ups' strip ends where the board begins."""
    if not parts.toasts:
        return []
    (board,) = person.boxes(parts.board)
    return [f"the pop-ups {strip} cover the board {board}"
            for strip in person.boxes(parts.toasts) if strip["y"] + strip["h"] > board["y"] + 0.5]


def _check_focus_ring(person: Person, parts: TurnParts) -> list[str]:
    """A piece focused from the keyboard shows a ring of at least 2 px."""
    person.page.keyboard.press("Shift")  # a keyboard user: focus() shows the ring
    person.page.locator(parts.tapped).first.focus()
    ring = person.page.evaluate(FOCUS_RING)
    if not ring["visible"] or ring["style"] == "none" or ring["width"] < 2:
        return [f"the focused piece has no strong ring: {ring}"]
    return []


def _a_turn(person: Person, computer: Computer, game: str, size: tuple[int, int],
            phone: bool) -> list[str]:
    parts = PARTS[game]
    problems = _open_on_a_turn(person, computer, game, size, phone)
    problems += _check_inside(person, parts, size) + _check_toasts(person, parts)
    if phone:
        problems += _check_taps(person, parts)
    person.shot(f"{game}-{'phone' if phone else 'desktop'}", full=False)
    if not phone:
        problems += _check_focus_ring(person, parts)
        person.shot(f"{game}-desktop-focus", full=False)
    if parts.places:
        _pick_a_piece(person, parts)
        if person.boxes(parts.places):
            person.shot(f"{game}-{'phone' if phone else 'desktop'}-places", full=False)
            problems += _check_inside(person, parts, size)
            if phone:
                problems += _check_taps(person, parts)
    return problems


def _hosted_keys() -> list[str]:
    from games import registry

    return [plugin.key for plugin in registry.hosted_games()]


def test_every_hosted_game_has_its_parts() -> None:
    missing = set(_hosted_keys()) - set(PARTS)
    assert not missing, f"no TurnParts for {missing}"


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("game", _hosted_keys())
def test_a_turn_fits_one_screen(live_stack: Any, browser: Any, game: str, phone: bool) -> None:
    size = PHONE if phone else DESKTOP
    options = {"has_touch": True, "is_mobile": True} if phone else {}
    user = User.objects.create_user(f"fit{game[:6]}{int(phone)}", password="pw-fit-4419")
    person = Person(browser, live_stack.url, user, size, **options)
    with playing(person, failure=f"failure-{game}-{int(phone)}") as stack:
        computer = _start_against_the_computer(person, stack, game, live_stack)
        problems = _a_turn(person, computer, game, size, phone)
        person.collect()
        assert not person.errors, person.errors
    assert problems == [], "\n".join(problems)


# ------------------------------------------------------------------ the History table, the menu

LONG_NAMES = ["alexandrina_kowalczyk", "maximilian_oberhauser", "bartholomew_quinlan",
              "evangeline_montgomery", "konstantin_vasiliev", "seraphina_delacroix"]


def _a_wide_history() -> None:
    """Finished matches whose rows are as wide as they get: six long names, six scores."""
    from django.utils import timezone

    from tests.factories import make_match

    people = [User.objects.create_user(name) for name in LONG_NAMES]
    now = timezone.now()
    make_match(*people, game="dice", status="finished", winner=3, reason="points",
               scores=[1234, 987, 1102, 1450, 876, 1001], finished_at=now)
    make_match(*people[:4], game="fives", status="finished", winner=0, reason="target",
               scores=[251, 180, 95, 240], rated=True, finished_at=now)
    make_match(*people[:2], game="spectacular-bid", status="finished", winner=1,
               reason="resign", scores=[150, 150], finished_at=now)


def test_the_history_table_fits_a_desktop(live_stack: Any, browser: Any) -> None:
    _a_wide_history()
    person = Person(browser, live_stack.url, User.objects.create_user("fithistory"), DESKTOP)
    with playing(person, failure="failure-history"):
        person.go("/history/")
        person.page.locator("[data-testid=history-row]").nth(2).wait_for()
        width = DESKTOP[0]
        person.shot("history", full=False)
        columns = person.page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=history] tbody tr:first-child td')]"
            ".map((td) => Math.round(td.getBoundingClientRect().width))")
        scroll = person.page.evaluate(
            "() => [document.documentElement.scrollWidth,"
            " document.querySelector('.table-wrap').scrollWidth,"
            " document.querySelector('.table-wrap').clientWidth]")
        assert scroll[0] <= width and scroll[1] <= scroll[2], \
            f"sideways scroll: {scroll}, the columns {columns} px wide"
        last_head = person.boxes("[data-testid=history] thead th:last-child")
        points = person.boxes("[data-testid=history] td.pg-balances")
        replays = person.boxes("[data-testid=history-replay]")
        assert len(replays) == 3 and len(points) == 3
        for box in last_head + points + replays:
            assert box["x"] >= 0 and box["x"] + box["w"] <= width, box


def test_the_history_table_on_a_phone(live_stack: Any, browser: Any) -> None:
    """On a phone each match is a small card: nothing sideways, the Replay button shown."""
    _a_wide_history()
    person = Person(browser, live_stack.url, User.objects.create_user("fithistphone"), PHONE,
                    has_touch=True, is_mobile=True)
    with playing(person, failure="failure-history-phone"):
        person.go("/history/")
        person.page.locator("[data-testid=history-row]").nth(2).wait_for()
        width = person.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE[0], width
        for box in person.boxes("[data-testid=history-replay]"):
            assert box["x"] >= 0 and box["x"] + box["w"] <= PHONE[0], box
            assert box["h"] >= TAP_PX - 0.5, box
        person.shot("history-phone", full=False)


def test_the_russian_menu_is_one_line_at_1366(live_stack: Any, browser: Any) -> None:
    user = User.objects.create_user("konstantin_vasilievich")  # a long name in the header
    person = Person(browser, live_stack.url, user, DESKTOP)
    with playing(person, failure="failure-menu-ru"):
        person.context.add_cookies([{"name": "django_language", "value": "ru",
                                     "url": live_stack.url}])
        person.go("/")
        assert person.page.evaluate("() => document.documentElement.lang") == "ru"
        tops = person.page.evaluate(
            "() => [...document.querySelectorAll('.site-header__inner > *, .site-nav > *')]"
            ".filter((el) => el.getBoundingClientRect().height > 0)"
            ".map((el) => Math.round(el.getBoundingClientRect().top"
            " + el.getBoundingClientRect().height / 2))")
        assert max(tops) - min(tops) <= 4, f"the menu wraps: the items' middles at {tops}"
        height = person.page.locator(".site-header").bounding_box()["height"]
        assert height < 70, f"the header is {height}px tall"
        person.shot("menu-ru", full=False)
