"""The replay viewer and the profile chart in Debian's chromium, against the live stack.

A casual match is played through games.play.services (legal moves only) until its first hand
is over, then alice resigns. Logged in as alice, the test opens the match's replay page,
steps through it with the arrow keys, the buttons and the slider, and checks what the
viewer shows against the frames the server computes (step counter, action text, balances,
board tiles). It also feeds the upload page a broken file and then the match's record,
and looks at alice's profile with a rating chart. Screenshots: test-artifacts/replay-*.png.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Match
from games.play.services import do_command, do_create_match
from games.play.store import export_record, load_engine
from games.spectacular_bid.frames import frames
from games.spectacular_bid.record import parse
from ratings.models import Rating, RatingChange
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-replay-123"
JSON = dict[str, Any]


# ------------------------------------------------------------------ the match

def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def play_first_hand_then_resign(alice: User, bob: User) -> Match:
    match = do_create_match(alice, bob, rated=False)
    players = (alice, bob)
    for _ in range(400):
        current = fresh(match)
        engine = load_engine(current)
        summary = engine.view(None).get("hands") or []
        if summary and summary[0]["end"] is not None:
            break
        for seat in (0, 1):
            options = engine.view(seat)["legal"]
            if options:
                result = do_command(match.pk, players[seat],
                                    {"action": options[0], "version": current.version})
                assert result.ok, (options[0], result)
                break
        else:
            raise AssertionError("nobody may act")
    else:
        raise AssertionError("the first hand did not end")
    result = do_command(match.pk, alice, {"action": {"seat": 0, "type": "resign"}})
    assert result.ok, result
    done = fresh(match)
    assert done.status == Match.Status.FINISHED and done.winner == 1
    return done


def off_the_loop(func: Any, *args: Any) -> Any:
    """Run ``func`` in a thread of its own: the services broadcast through async_to_sync,
    which refuses to run in a thread with an event loop (Playwright's)."""
    from django.db import connections

    def run() -> Any:
        try:
            return func(*args)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


# ------------------------------------------------------------------ page helpers

def resigned_match(settings: Any, seed: str) -> tuple[User, Match]:
    """alice, and her casual match with bob on the fixed deals of ``seed``: its first hand
    played, then resigned by her."""
    settings.TEST_FIXED_DEALS = True
    settings.TEST_DEALS_SEED = seed
    alice = User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    return alice, off_the_loop(play_first_hand_then_resign, alice, bob)


class Watch:
    """JavaScript errors of a page (uncaught exceptions and console errors)."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: self.errors.append(f"console: {msg.text}")
                if msg.type == "error" else None)


def login(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.press("input[name=password]", "Enter")
    page.wait_for_selector("[data-testid=current-user]", timeout=15_000)
    assert page.inner_text("[data-testid=current-user]").strip() == username


@contextlib.contextmanager
def alices_page(browser: Any, base: str) -> Iterator[tuple[Any, Watch]]:
    """A desktop page logged in as alice, and the watch on its errors; closed afterwards."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        watch = Watch(page)
        login(page, base, "alice")
        yield page, watch
    finally:
        context.close()


def text(page: Any, testid: str) -> str:
    return str(page.inner_text(f"[data-testid={testid}]")).strip()


def step_of(page: Any) -> tuple[int, int]:
    found = re.fullmatch(r"(\d+) / (\d+)", text(page, "replay-step"))
    assert found, text(page, "replay-step")
    return int(found.group(1)), int(found.group(2))


def shot(page: Any, name: str, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"replay-{name}.png"), full_page=full_page)


def go_to_step(page: Any, index: int) -> None:
    """Jump with the slider (1-based, like the counter)."""
    page.eval_on_selector(
        "[data-testid=replay-slider]",
        "(el, v) => { el.value = String(v);"
        " el.dispatchEvent(new Event('input', {bubbles: true})); }",
        index,
    )


def check_frame(page: Any, data: JSON, index: int) -> None:
    """What the viewer shows for frame ``index`` (0-based) matches the server's frame."""
    frame = data["frames"][index]
    assert step_of(page) == (index + 1, len(data["frames"]))
    for seat in (0, 1):
        assert text(page, f"replay-balance-{seat}") == str(frame["balances"][seat])
    board = frame["board"] or {"tiles": []}
    drawn = page.eval_on_selector_all("#replay-board [data-tile]",
                                      "els => els.map(e => e.dataset.tile)")
    assert sorted(drawn) == sorted(t["tile"] for t in board["tiles"])
    for seat in (0, 1):
        held = page.eval_on_selector_all(f"#replay-hand-{seat} [data-tile]",
                                         "els => els.map(e => e.dataset.tile)")
        assert sorted(held) == sorted(frame["hands"][seat]), (index, seat)


def _step_with_the_arrows_and_buttons(page: Any, data: JSON) -> None:
    """Right arrow, then the buttons, then back to the first step (where Prev is off)."""
    first_action = text(page, "replay-action")
    page.keyboard.press("ArrowRight")
    check_frame(page, data, 1)
    second_action = text(page, "replay-action")
    assert second_action != first_action
    page.click("[data-testid=replay-next]")
    check_frame(page, data, 2)
    assert text(page, "replay-action") != second_action
    page.click("[data-testid=replay-prev]")
    check_frame(page, data, 1)
    page.keyboard.press("ArrowLeft")
    check_frame(page, data, 0)
    page.keyboard.press("ArrowLeft")  # already at the first step
    check_frame(page, data, 0)
    assert page.is_disabled("[data-testid=replay-prev]")


def _check_a_scoring_play(page: Any, data: JSON) -> None:
    """A scoring play: its description and the balances after it."""
    scoring = next((i for i, f in enumerate(data["frames"])
                    if f["action"]["type"] == "play" and f["action"]["points"] > 0), None)
    if scoring is not None:
        go_to_step(page, scoring + 1)
        check_frame(page, data, scoring)
        action = data["frames"][scoring]["action"]
        shown = text(page, "replay-action")
        assert action["tile"] in shown and f"+{action['points']}" in shown
        if "target" in action:
            assert f"on {action['target']} ({action['port']})" in shown
        # the last tile placed is marked on the board
        assert page.locator("#replay-board .domino-last").count() == 1
        shot(page, "scoring")


def _check_the_end_of_the_first_hand(page: Any, data: JSON) -> None:
    """The end of the first hand is announced on its last action."""
    last_of_hand = max(i for i, f in enumerate(data["frames"]) if f["action"]["hand"] == 0)
    go_to_step(page, last_of_hand + 1)
    check_frame(page, data, last_of_hand)
    assert page.is_visible("[data-testid=replay-note]")
    assert "End of hand 1" in text(page, "replay-note")
    shot(page, "hand-end")


def _check_end_and_home(page: Any, data: JSON, n: int) -> None:
    """End and Home keys: the resignation and the final line, then the first step."""
    page.keyboard.press("End")
    check_frame(page, data, n - 1)
    assert "alice resigns" in text(page, "replay-action")
    assert page.is_disabled("[data-testid=replay-next]")
    assert "bob wins by resignation" in text(page, "replay-final")
    shot(page, "end")
    page.keyboard.press("Home")
    check_frame(page, data, 0)


def _check_the_balance_chart(page: Any, n: int) -> None:
    """The balance chart: a line, the centre line, a marker; a click jumps there."""
    chart = page.locator("[data-testid=balance-chart]")
    assert chart.locator("path.chart-line").count() >= 1
    assert chart.locator(".chart-ref").count() == 1
    assert chart.locator(".chart-marker").count() == 1
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 150
    chart.click(position={"x": box["width"] - 20, "y": box["height"] / 2})
    assert step_of(page)[0] > n // 2


def _check_the_record_download(page: Any, base: str, match: Match) -> None:
    """The record can be downloaded (logged in)."""
    link = page.locator("[data-testid=replay-download]")
    assert link.get_attribute("href") == f"/api/matches/{match.pk}/record"
    record = page.request.get(f"{base}/api/matches/{match.pk}/record")
    assert record.status == 200
    assert record.json()["players"] == ["alice", "bob"]


# ------------------------------------------------------------------ tests

def test_replay_viewer_steps_through_a_match(live_stack, browser, settings) -> None:
    _alice, match = resigned_match(settings, "replay-viewer")
    data = frames(parse(export_record(match)))
    n = len(data["frames"])
    assert n >= 6 and data["frames"][-1]["action"]["type"] == "resign"

    base = live_stack.url
    with alices_page(browser, base) as (page, watch):
        page.goto(f"{base}/matches/{match.pk}/replay/")
        page.wait_for_selector("#replay[data-ready='1']", timeout=15_000)
        check_frame(page, data, 0)
        first_action = text(page, "replay-action")
        assert "alice" in first_action and text(page, "replay-tag") == "Hand 1"
        shot(page, "start")

        _step_with_the_arrows_and_buttons(page, data)
        _check_a_scoring_play(page, data)
        _check_the_end_of_the_first_hand(page, data)
        _check_end_and_home(page, data, n)
        _check_the_balance_chart(page, n)
        _check_the_record_download(page, base, match)

        # A phone-sized screen
        page.set_viewport_size({"width": 390, "height": 844})
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        check_frame(page, data, 2)
        shot(page, "phone")
        assert watch.errors == []


def test_uploaded_record_and_profile_chart(live_stack, browser, settings) -> None:
    alice, match = resigned_match(settings, "replay-upload")
    record = export_record(match)
    data = frames(parse(record))

    # A rating history for alice's profile (ratings are derived data; written directly)
    ratings = [1500, 1516, 1531, 1518, 1534, 1549, 1537, 1552, 1566, 1551, 1568, 1583]
    for seq, (before, after) in enumerate(pairwise(ratings), start=1):
        RatingChange.objects.create(match=match, user=alice, game="spectacular-bid", seq=seq,
                                    before=before, after=after, games_after=seq, won=after > before)
    Rating.objects.create(user=alice, game=match.game, rating=ratings[-1],
                          games=len(ratings) - 1, wins=7)

    base = live_stack.url
    with alices_page(browser, base) as (page, watch):
        page.goto(f"{base}/replay/")
        upload = page.locator("[data-testid=replay-upload]")

        # A broken file: the server's message, no viewer
        upload.set_input_files(files=[{"name": "broken.json", "mimeType": "application/json",
                                       "buffer": b'{"format": "spectacular-bid/1", "hands": 3'}])
        page.wait_for_selector("[data-testid=replay-error]:visible", timeout=10_000)
        assert "not a valid match record" in text(page, "replay-error")
        assert page.is_hidden("#replay")
        shot(page, "upload-error")

        # The match's own record: the same frames as the match page
        upload.set_input_files(files=[{"name": "match.json", "mimeType": "application/json",
                                       "buffer": json.dumps(record).encode()}])
        page.wait_for_selector("#replay[data-ready='1']", timeout=10_000)
        assert page.is_hidden("[data-testid=replay-error]")
        check_frame(page, data, 0)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        check_frame(page, data, 2)
        assert page.inner_text("#replay-name-0") == "alice"
        assert page.inner_text("#replay-name-1") == "bob"
        shot(page, "upload")

        # The profile: numbers and the rating chart
        page.goto(f"{base}/players/alice/")
        page.wait_for_selector("#rating-chart[data-ready='1']", timeout=10_000)
        shown = text(page, "profile-rating")
        assert str(ratings[-1]) in shown and "11 rated matches" in shown, shown
        assert page.locator("[data-testid=provisional]").count() == 0
        assert text(page, "stat-matches") == "1"
        assert text(page, "stat-losses") == "1"
        chart = page.locator("[data-testid=rating-chart]")
        assert chart.locator("path.chart-line").count() == 1
        assert chart.locator(".chart-dot").count() == len(ratings)  # with the starting point
        assert chart.locator(".chart-tick").count() >= 4
        box = chart.bounding_box()
        assert box is not None and box["height"] > 150
        shot(page, "profile")
        chart.screenshot(path=str(ARTIFACTS / "replay-rating-chart.png"))
        # the broken upload's 400 is logged by the browser; nothing else may be
        assert [e for e in watch.errors if "status of 400" not in e] == []
