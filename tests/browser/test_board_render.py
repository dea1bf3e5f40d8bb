"""Visual test of the board SVG renderer (static/js/board.js, static/js/tiles.js).

Opens tests/browser/board_harness.html in Debian's chromium through Playwright, checks
the drawn boards (tile counts, no overlapping tiles, touching halves that match, the
long boards inside the viewBox, clickable places and hand tiles) and saves screenshots
to test-artifacts/board-*.png.

Chromium refuses ES module imports from file:// URLs, so the harness is served by a
throwaway http.server on 127.0.0.1 rooted at the repository.
"""

from __future__ import annotations

import functools
import http.server
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.dominoes.board import Board
from games.dominoes.tiles import HI, LO, TILE_COUNT
from games.spectacular_bid.view import board_view

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
HARNESS = "tests/browser/board_harness.html"
ARTIFACTS = ROOT / "test-artifacts"


def _specs() -> list[dict[str, Any]]:
    """The boards embedded in the harness page."""
    html = (ROOT / HARNESS).read_text(encoding="utf-8")
    start = html.index('<script type="application/json" id="fives-boards">')
    start = html.index(">", start) + 1
    end = html.index("</script>", start)
    data = json.loads(html[start:end])
    # The worked game's step n shows its first n tiles (as the page's script builds them).
    tiles = data["worked"]["tiles"]
    worked = [{**{k: v for k, v in step.items() if k not in ("spinner", "ends_sum", "places")},
               "board": {"tiles": tiles[:n], "spinner": step["spinner"],
                         "ends_sum": step["ends_sum"], "places": step["places"]}}
              for n, step in enumerate(data["worked"]["steps"], start=1)]
    specs: list[dict[str, Any]] = [*worked, *data["positions"]]
    return specs


SPECS = _specs()
SPEC_IDS = [s["id"] for s in SPECS]


# --- fixtures -------------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def static_server() -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def page(browser: Any, static_server: str) -> Iterator[Any]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{static_server}/{HARNESS}")
    try:
        page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    except PlaywrightTimeout:
        pytest.fail(f"the harness did not finish rendering: {errors}", pytrace=False)
    assert errors == [], errors
    yield page
    context.close()


# --- in-page measurements ---------------------------------------------------------------------

# Client rectangles of the tiles of one <svg>, plus the viewBox mapped to client space.
_MEASURE = """(svgId) => {
  const svg = document.getElementById(svgId);
  const tiles = [...svg.querySelectorAll('[data-tile]')].map((el) => {
    const r = el.getBoundingClientRect();
    return {tile: el.dataset.tile, label: el.getAttribute('aria-label'),
            x0: r.left, y0: r.top, x1: r.right, y1: r.bottom};
  });
  const vb = svg.viewBox.baseVal;
  const m = svg.getScreenCTM();
  const p0 = new DOMPoint(vb.x, vb.y).matrixTransform(m);
  const p1 = new DOMPoint(vb.x + vb.width, vb.y + vb.height).matrixTransform(m);
  return {tiles, view: {x0: p0.x, y0: p0.y, x1: p1.x, y1: p1.y}};
}"""

# Every tile's two halves in the svg's user space: [{tile, halves: [[value, x, y], ...]}].
_HALVES = """(svgId) => {
  const svg = document.getElementById(svgId);
  const toUser = svg.getScreenCTM().inverse();
  return [...svg.querySelectorAll('[data-tile]')].map((el) => {
    const m = toUser.multiply(el.getScreenCTM());
    const [top, bottom] = el.dataset.ends.split('-').map(Number);
    const at = (y) => new DOMPoint(0, y).matrixTransform(m);
    const a = at(-20), b = at(20);
    return {tile: el.dataset.tile, halves: [[top, a.x, a.y], [bottom, b.x, b.y]]};
  });
}"""


def _overlapping(rects: list[dict[str, Any]], tolerance: float = 0.5) -> list[tuple[str, str]]:
    bad = []
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            dx = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
            dy = min(a["y1"], b["y1"]) - max(a["y0"], b["y0"])
            if dx > tolerance and dy > tolerance:
                bad.append((a["tile"], b["tile"]))
    return bad


# --- tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_board_draws_every_tile_once(page: Any, spec: dict[str, Any]) -> None:
    drawn = page.eval_on_selector_all(
        f"#board-{spec['id']} [data-tile]",
        "els => els.map(e => [e.dataset.tile, e.getAttribute('aria-label')])",
    )
    expected = sorted(t["tile"] for t in spec["board"]["tiles"])
    assert sorted(name for name, _ in drawn) == expected
    for name, label in drawn:
        assert label.startswith(f"tile {name}")


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_no_two_tiles_overlap(page: Any, spec: dict[str, Any]) -> None:
    measured = page.evaluate(_MEASURE, f"board-{spec['id']}")
    assert _overlapping(measured["tiles"]) == []


def test_hand_tiles_do_not_overlap(page: Any) -> None:
    measured = page.evaluate(_MEASURE, "hand-svg")
    assert len(measured["tiles"]) == 7
    assert _overlapping(measured["tiles"]) == []


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_tiles_inside_the_viewbox(page: Any, spec: dict[str, Any]) -> None:
    measured = page.evaluate(_MEASURE, f"board-{spec['id']}")
    view = measured["view"]
    outside = [
        t["tile"]
        for t in measured["tiles"]
        if t["x0"] < view["x0"] - 0.5
        or t["y0"] < view["y0"] - 0.5
        or t["x1"] > view["x1"] + 0.5
        or t["y1"] > view["y1"] + 0.5
    ]
    assert outside == []


def test_long_boards_turn_to_fit(page: Any) -> None:
    """Long arms snake in rows instead of running off: a compact table, several rows."""
    for board_id in ("long", "full", "nocross"):
        shape = page.evaluate(
            """(id) => {
                 const svg = document.getElementById(id);
                 const v = svg.viewBox.baseVal;
                 const toUser = svg.getScreenCTM().inverse();
                 const rows = new Set(), cols = new Set();
                 for (const el of svg.querySelectorAll('[data-tile]:not(.domino-double)')) {
                   const m = toUser.multiply(el.getScreenCTM());
                   const c = new DOMPoint(0, 0).matrixTransform(m);
                   const horizontal = Math.abs(m.a) < 0.5;  // rotated by +-90 degrees
                   (horizontal ? rows : cols).add(Math.round(horizontal ? c.y : c.x));
                 }
                 return {w: v.width, h: v.height, rows: rows.size, cols: cols.size};
               }""",
            f"board-{board_id}",
        )
        # A tile is 40 x 80 user units: at most 22 halves wide and 16 high.
        assert shape["w"] <= 22 * 40 and shape["h"] <= 16 * 40, (board_id, shape)
        assert shape["rows"] >= 2, (board_id, shape)


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_touching_halves_match(page: Any, spec: dict[str, Any]) -> None:
    """Each attached tile lies next to its target, with equal values on the touching halves."""
    halves = {t["tile"]: t["halves"] for t in page.evaluate(_HALVES, f"board-{spec['id']}")}
    for link in spec["board"]["tiles"][1:]:
        best = min(
            ((a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2, a[0], b[0])
            for a in halves[link["tile"]]
            for b in halves[link["target"]]
        )
        distance = best[0] ** 0.5
        assert distance <= 1.2 * 40, (link, distance)
        assert best[1] == best[2], (link, best)


def test_spinner_arms_point_the_right_way(page: Any) -> None:
    """Worked position 9: 1-5 goes up from the spinner (branch_a), 1-3 down (branch_b)."""
    centres = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#board-worked-9 [data-tile]')]
             .map(el => { const r = el.getBoundingClientRect();
                          return [el.dataset.tile, [(r.left + r.right) / 2, (r.top + r.bottom) / 2,
                                                    r.width, r.height]]; }))"""
    )
    sx, sy, sw, sh = centres["1-1"]
    assert sh > sw, "the spinner stands across its horizontal line"
    assert centres["1-5"][1] < sy - sh / 2 < centres["1-5"][1] + centres["1-5"][3]
    assert centres["1-3"][1] > sy + sh / 2 > centres["1-3"][1] - centres["1-3"][3]
    # line_a side (towards 1-4) on the right, line_b side (1-2) on the left
    assert centres["1-4"][0] > sx > centres["1-2"][0]
    # 1-4 opens with its low end on the left
    assert centres["1-4"][2] > centres["1-4"][3]


def test_places_are_buttons_and_click_calls_back(page: Any) -> None:
    places = page.eval_on_selector_all(
        "#board-worked-9 [data-target]",
        "els => els.map(e => [e.dataset.target, e.dataset.port, e.getAttribute('role')])",
    )
    assert sorted(places) == [["1-2", "high", "button"], ["1-3", "high", "button"]]
    page.evaluate("() => { window.__placeClicks.length = 0; }")
    page.click("#board-worked-9 [data-target='1-3'][data-port='high']")
    assert page.evaluate("() => window.__placeClicks") == [
        {"board": "worked-9", "target": "1-3", "port": "high"}
    ]
    page.focus("#board-worked-9 [data-target='1-2'][data-port='high']")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.__placeClicks")[-1] == {
        "board": "worked-9",
        "target": "1-2",
        "port": "high",
    }
    # every highlighted place of every board is drawn, and only those
    for spec in SPECS:
        count = page.eval_on_selector_all(f"#board-{spec['id']} [role='button']", "e => e.length")
        assert count == len(spec.get("highlight", [])), spec["id"]


def test_opening_ghost_on_empty_board(page: Any) -> None:
    page.evaluate("() => { window.__placeClicks.length = 0; }")
    page.click("#board-empty [role='button']")
    assert page.evaluate("() => window.__placeClicks") == [
        {"board": "empty", "target": None, "port": None}
    ]


def test_hand_clicks_and_dimming(page: Any) -> None:
    state = page.eval_on_selector_all(
        "#hand [data-tile]",
        """els => els.map(e => [e.dataset.tile, e.getAttribute('role'),
                               e.getAttribute('aria-disabled'), getComputedStyle(e).opacity])""",
    )
    playable = {"1-4", "3-3", "4-5"}
    assert [s[0] for s in state] == ["0-0", "1-4", "2-6", "3-3", "4-5", "5-6", "6-6"]
    for tile, role, disabled, opacity in state:
        if tile in playable:
            assert (role, disabled) == ("button", None)
            assert float(opacity) == 1.0
        else:
            assert disabled == "true"
            assert float(opacity) < 0.6
    page.evaluate("() => { window.__tileClicks.length = 0; }")
    page.click("#hand [data-tile='4-5']")
    page.click("#hand [data-tile='2-6']", force=True)  # dimmed: no callback
    assert page.evaluate("() => window.__tileClicks") == ["4-5"]


def _random_board(rng: random.Random, cross: bool, length: int) -> dict[str, Any] | None:
    """A legal random board of the engine, as the server's view writes it."""
    board = Board(cross=cross)
    used = {rng.randrange(TILE_COUNT)}
    board.place_opening(next(iter(used)))
    while len(board.links) < length:
        moves = [
            (tile, target, port)
            for tile in range(TILE_COUNT)
            if tile not in used
            for target, port, value in board.places
            if value in (LO[tile], HI[tile])
        ]
        if not moves:
            break
        tile, target, port = rng.choice(moves)
        board.place(tile, target, port)
        used.add(tile)
    return board_view(board)


def test_random_games_never_overlap(page: Any) -> None:
    """Many random legal boards (up to all 28 tiles): the layout never overlaps anything."""
    rng = random.Random(20240611)
    boards = [
        _random_board(rng, cross=rng.random() < 0.8, length=rng.randint(10, 28)) for _ in range(300)
    ]
    result = page.evaluate(
        """(boards) => boards.map((board) => {
             const lay = window.fivesHarness.layoutBoard(board);
             const rects = [...lay.tiles.map(t => t.rect), ...lay.places.map(p => p.rect)];
             let overlaps = 0;
             for (let i = 0; i < rects.length; i++)
               for (let j = i + 1; j < rects.length; j++) {
                 const a = rects[i], b = rects[j];
                 if (Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 &&
                     Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5) overlaps++;
               }
             const bd = lay.bounds;
             return {tiles: lay.tiles.length, places: lay.places.length, overlaps,
                     strained: lay.strained, w: bd.x1 - bd.x0, h: bd.y1 - bd.y0};
           })""",
        boards,
    )
    for board, got in zip(boards, result, strict=True):
        assert got["tiles"] == len(board["tiles"])
        assert got["places"] == len(board["places"])
        assert got["overlaps"] == 0 and not got["strained"], (got, board)
        # It stays a compact table, not a line running off to one side.
        assert got["w"] < 40 * 40 and got["h"] < 28 * 40, (got, board)


def test_screenshots(page: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for spec in SPECS:
        path = ARTIFACTS / f"board-{spec['id']}.png"
        page.locator(f"#fig-{spec['id']}").screenshot(path=str(path), animations="disabled")
        assert path.stat().st_size > 1000
    hand = ARTIFACTS / "board-hand.png"
    page.locator("#hand-box").screenshot(path=str(hand), animations="disabled")
    whole = ARTIFACTS / "board-harness.png"
    page.screenshot(path=str(whole), full_page=True, scale="css", animations="disabled")
    assert hand.stat().st_size > 1000 and whole.stat().st_size > 1000


# A phone: what is tapped on a board or in a hand is at least 44 x 44 CSS px.
TAP_PX = 44
PHONE_DRAW = """([spec, tiles]) => {
  const { renderBoard, renderHand } = window.fivesHarness;
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.width, r.height]; };
  const holder = document.createElement("div");
  holder.style.width = "350px";
  document.body.prepend(holder);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("width", "350");
  svg.setAttribute("height", "220");
  holder.appendChild(svg);
  renderBoard(svg, spec.board, { highlight: spec.highlight, onPlaceClick: () => {} });
  const places = [...svg.querySelectorAll(".fives-place-active")].map(box);
  const hands = tiles.map((names) => {
    const hand = document.createElement("div");
    holder.appendChild(hand);
    const drawn = renderHand(hand, names, { onTileClick: () => {} });
    return { tiles: [...drawn.querySelectorAll("[data-tile]")].map(box),
             width: drawn.getBoundingClientRect().width };
  });
  holder.remove();
  return { places, hands };
}"""


def test_on_a_phone_places_and_hand_tiles_are_big_enough_to_tap(browser: Any,
                                                               static_server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{static_server}/{HARNESS}")
        page.wait_for_selector("body[data-ready='1']", timeout=10_000)
        crowded = max((s for s in SPECS if s.get("highlight")),
                      key=lambda s: len(s["board"]["tiles"]))
        seven = ["0-0", "1-4", "2-6", "3-3", "4-5", "5-6", "6-6"]
        eleven = [*seven, "0-1", "0-2", "1-1", "2-2"]
        shown = page.evaluate(PHONE_DRAW, [crowded, [seven, eleven]])
        assert shown["places"], crowded["id"]
        for w, h in shown["places"]:
            assert w >= TAP_PX - 0.5 and h >= TAP_PX - 0.5, (crowded["id"], w, h)
        for hand in shown["hands"]:
            assert hand["width"] <= 350.5, hand
            for w, _h in hand["tiles"]:
                assert w >= TAP_PX - 0.5, hand
        # Seven tiles still make one row at 350 px; eleven wrap into rows.
        assert len({round(h) for _w, h in shown["hands"][0]["tiles"]}) == 1
    finally:
        context.close()
