"""The shared replay viewer (templates/games/replay_table.html, static/js/replay_shell.js)
for Fives and five dice, in Debian's chromium against the live stack.

A four-seat Fives game (to 100, with the cross) and a three-seat dice game are played to
the end through ``games.play.services`` with the plugins' computer player. Their replay pages
are stepped through with the keys, the buttons, the slider and play/pause, and what they
show is checked against the frames the server computes (``plugin.frames``): the step
counter, the action text, the scores after each step, the board's tiles and the hands
revealed at a hand's end (Fives), the dice and the score sheet (dice). A fives/1 record
uploaded on /replay/ (the Spectacular Bid page) is handed to the shared viewer; a dice
record is opened there too, and a Spectacular Bid record is handed back. Any page error
or CSP violation fails. Screenshots: test-artifacts/e2e-replay-{fives,dice,phone}.png.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from accounts.models import Profile
from games.models import Match
from games.play.services import do_command, do_create_match
from games.play.store import export_record, load_engine, plugin_of
from tests.browser.conftest import Player, console_error
from tests.browser.test_replay_viewer import off_the_loop

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

JSON = dict[str, Any]
STEP_MS = 15_000


# ------------------------------------------------------------------ the games

def people(*names: str) -> list[User]:
    users = [User.objects.create_user(name) for name in names]
    # A display name: the viewer shows it, the record keeps the username.
    Profile.objects.update_or_create(user=users[0], defaults={"display_name": f"{names[0]} Star"})
    return users


def play_out(match: Match, seat_users: list[User], seed: int) -> Match:
    """Every seat plays its game's computer player through ``do_command``."""
    rng = random.Random(seed)
    plugin = plugin_of(match)
    for _ in range(5000):
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.Status.ACTIVE:
            return current
        engine = load_engine(current)
        for seat, user in enumerate(seat_users):
            action = plugin.bot_action(plugin.view(engine, seat), rng)
            if action is None:
                continue
            result = do_command(current.pk, user, {"action": action, "version": current.version})
            assert result.ok, (action, result)
            break
        else:
            raise AssertionError("nobody could act")
    raise AssertionError("the match did not end")


def finished(game: str, users: list[User], rules: JSON | None, seed: int) -> tuple[Match, JSON]:
    def run() -> Match:
        match = do_create_match(*users, game=game, rated=False, rules=rules)
        return play_out(match, users, seed)

    done = off_the_loop(run)
    assert done.status == Match.Status.FINISHED
    return done, plugin_of(done).frames(export_record(done))


# ------------------------------------------------------------------ what the page should say

def tile(name: str) -> str:
    return name.replace("-", "|")


def fives_text(frame: JSON, names: list[str]) -> str:
    a = frame["action"]
    name = names[a["seat"]]
    if a["type"] == "play":
        if a.get("target") is None:
            return f"{name} leads {tile(a['tile'])}"
        return f"{name} plays {tile(a['tile'])} on {tile(a['target'])}"
    if a["type"] == "pass":
        return f"{name} cannot play: a pass" if a.get("forced") else f"{name} passes"
    return {"draw": f"{name} draws a tile", "resign": f"{name} resigns",
            "flag": f"{name} runs out of time"}[a["type"]]


def dice_text(frame: JSON, names: list[str]) -> str:
    a = frame["action"]
    name = names[a["seat"]]
    kind = a["type"]
    if kind == "order":
        return f"{name} rolls {a['die']} for the order of play"
    if kind == "roll":
        return f"{name} rolls {' '.join(map(str, a['dice']))}:"
    if kind == "stand":
        return f"{name} stands: {a['score']} recorded"
    if kind == "improve":
        keep = " ".join(map(str, a["keep"])) or "nothing"
        rolled = " ".join(map(str, a["dice"]))
        return f"{name} keeps {keep} and rolls {rolled}: {a['score']} recorded"
    return f"{name} resigns"


# ------------------------------------------------------------------ the browser side

class Viewer(Player):
    """A logged-in browser context on one page; its errors and CSP complaints."""

    shot_prefix = "e2e-replay-"

    def __init__(self, browser: Any, base: str, user: User,
                 viewport: tuple[int, int] = (1280, 900)) -> None:
        super().__init__(browser, base, user.username, viewport=viewport, timeout_ms=STEP_MS,
                         reduced_motion="reduce")
        self.log_in(user)

    console_problem = staticmethod(console_error)

    def open(self, path: str) -> None:
        self.go(path)

    def wait_ready(self) -> None:
        self.page.wait_for_selector("#replay[data-ready='1']")

    def text(self, testid: str) -> str:
        return str(self.page.inner_text(f"[data-testid={testid}]")).strip()

    def step(self) -> tuple[int, int]:
        found = re.fullmatch(r"(\d+) / (\d+)", self.text("replay-step"))
        assert found, self.text("replay-step")
        return int(found.group(1)), int(found.group(2))

    def slide_to(self, index: int) -> None:
        """Jump with the slider to frame ``index`` (0-based)."""
        self.page.eval_on_selector(
            "[data-testid=replay-slider]",
            "(el, v) => { el.value = String(v);"
            " el.dispatchEvent(new Event('input', {bubbles: true})); }",
            index + 1,
        )

    def scores(self, seats: int) -> list[str]:
        return [self.text(f"replay-score-{seat}") for seat in range(seats)]


def check_fives_frame(v: Viewer, data: JSON, index: int, names: list[str]) -> None:
    frame = data["frames"][index]
    seats = len(data["players"])
    assert v.step() == (index + 1, len(data["frames"]))
    shown = v.text("replay-action")
    assert fives_text(frame, names) in shown, (index, shown)
    points = frame["action"].get("points", 0)
    if frame["action"]["type"] == "play" and points > 0:
        assert f"+{points}" in shown
    assert v.text("replay-tag") == f"Hand {frame['action']['hand'] + 1}"
    assert v.scores(seats) == [str(s) for s in frame["scores"]]
    drawn = v.page.eval_on_selector_all("[data-testid=replay-board] [data-tile]",
                                        "els => els.map(e => e.dataset.tile)")
    assert sorted(drawn) == sorted(t["tile"] for t in frame["board"]["tiles"]), index
    for seat in range(seats):
        held = v.page.eval_on_selector_all(f"[data-testid=replay-revealed-{seat}] [data-tile]",
                                           "els => els.map(e => e.dataset.tile)")
        assert sorted(held) == sorted((frame["revealed"] or [[]] * seats)[seat]), (index, seat)
        count = frame["hand_counts"][seat]
        assert v.text(f"replay-count-{seat}") == ("1 tile" if count == 1 else f"{count} tiles")


def check_dice_frame(v: Viewer, data: JSON, index: int, names: list[str]) -> None:
    frame = data["frames"][index]
    seats = len(data["players"])
    assert v.step() == (index + 1, len(data["frames"]))
    shown = v.text("replay-action")
    assert dice_text(frame, names) in shown, (index, shown)
    assert v.scores(seats) == [str(s) for s in frame["totals"]]
    dice = v.page.eval_on_selector_all("[data-testid=replay-dice] [data-value]",
                                       "els => els.map(e => Number(e.dataset.value))")
    a = frame["action"]
    if a["type"] == "order":
        assert dice == [a["die"]]
    elif a["type"] == "roll":
        assert dice == a["dice"]
    elif a["type"] == "improve":
        assert dice == frame["turn"]["keep"] + frame["turn"]["rerolled"]
    for r, row in enumerate(frame["scores"]):
        for seat, value in enumerate(row):
            cell = v.text(f"replay-sheet-{r}-{seat}").replace("★", "").strip()
            assert cell == ("" if value is None else str(value)), (index, r, seat)
    for seat in range(seats):
        assert v.text(f"replay-total-{seat}") == str(frame["totals"][seat])


def _check_the_fives_header(v: Viewer, data: JSON, names: list[str]) -> None:
    """The players' names, the result and the first step (where Prev is off)."""
    for seat, name in enumerate(names):
        assert v.text(f"replay-player-{seat}") == name
        assert v.text(f"replay-name-{seat}") == name
    winner = names[data["result"]["winner"]]
    assert f"{winner} wins" in v.text("replay-result")
    check_fives_frame(v, data, 0, names)
    assert v.page.is_disabled("[data-testid=replay-prev]")


def _step_with_keys_and_buttons(v: Viewer, data: JSON, names: list[str]) -> None:
    """Keys and buttons: forward, back, and back again at the first step."""
    v.page.keyboard.press("ArrowRight")
    check_fives_frame(v, data, 1, names)
    v.page.click("[data-testid=replay-next]")
    check_fives_frame(v, data, 2, names)
    v.page.click("[data-testid=replay-prev]")
    check_fives_frame(v, data, 1, names)
    v.page.keyboard.press("ArrowLeft")
    v.page.keyboard.press("ArrowLeft")  # already at the first step
    check_fives_frame(v, data, 0, names)


def _check_scoring_and_the_first_hands_end(v: Viewer, data: JSON, names: list[str]) -> int:
    """A scoring play (its points, the last tile marked); the first hand's end (the hands
    revealed, how it ended): that step's index."""
    frames = data["frames"]
    scoring = next(i for i, f in enumerate(frames)
                   if f["action"]["type"] == "play" and f["action"]["points"] > 0)
    v.slide_to(scoring)
    check_fives_frame(v, data, scoring, names)
    assert v.page.locator("[data-testid=replay-board] .domino-last").count() == 1

    end = max(i for i, f in enumerate(frames) if f["action"]["hand"] == 0)
    v.slide_to(end)
    check_fives_frame(v, data, end, names)
    assert frames[end]["revealed"] is not None
    assert v.text("replay-note").startswith("End of hand 1:")
    v.shot("fives")
    return end


def _play_and_pause(v: Viewer, data: JSON, names: list[str]) -> None:
    """Play, then pause, with the button and with the space bar."""
    v.page.keyboard.press("Home")
    v.page.click("[data-testid=replay-play]")
    v.page.wait_for_function("() => window.replayPage.index >= 2", timeout=8_000)
    v.page.click("[data-testid=replay-play]")
    assert not v.page.evaluate("() => window.replayPage.playing")
    check_fives_frame(v, data, v.page.evaluate("() => window.replayPage.index"), names)
    # Space plays and pauses too (on the page; on a button it presses the button)
    v.page.evaluate("() => document.activeElement.blur()")
    v.page.keyboard.press(" ")
    assert v.page.evaluate("() => window.replayPage.playing")
    assert v.page.get_attribute("[data-testid=replay-play]", "aria-pressed") == "true"
    v.page.keyboard.press(" ")
    assert not v.page.evaluate("() => window.replayPage.playing")


def _check_the_fives_end_and_record(v: Viewer, data: JSON, names: list[str], base: str,
                                    match: Match) -> None:
    """The end, with the ranks; the record can be downloaded."""
    v.page.keyboard.press("End")
    check_fives_frame(v, data, len(data["frames"]) - 1, names)
    assert v.page.is_disabled("[data-testid=replay-next]")
    rank = v.page.text_content(f"[data-testid=replay-rank-{data['result']['winner']}]")
    assert rank == "Rank 1"
    assert "reached the target score" in v.text("replay-final")

    link = v.page.locator("[data-testid=replay-download]")
    assert link.get_attribute("href") == f"/api/matches/{match.pk}/record"
    record = v.context.request.get(f"{base}/api/matches/{match.pk}/record")
    assert record.status == 200 and record.json()["format"] == "fives/1"


def _check_the_fives_phone(v: Viewer, data: JSON, names: list[str], end: int) -> None:
    """A phone: everything fits in 360 px, the controls at the bottom of the screen."""
    v.page.set_viewport_size({"width": 360, "height": 740})
    v.slide_to(end)
    check_fives_frame(v, data, end, names)
    width = v.page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, width
    # the controls stay at the bottom of the screen: what a phone shows
    box = v.page.locator(".rt-controls").bounding_box()
    assert box is not None and abs(box["y"] + box["height"] - 740) < 2, box
    v.page.evaluate("() => window.scrollTo(0, 0)")
    v.shot("phone", full=False)


# ------------------------------------------------------------------ tests

def test_a_fives_replay_steps_through_the_game(live_stack: Any, browser: Any) -> None:
    users = people("ann", "bob", "cyd", "dee")
    match, data = finished("fives", users, {"target": 100, "cross": True}, seed=7)
    names = ["ann Star", "bob", "cyd", "dee"]
    frames = data["frames"]
    n = len(frames)
    assert n > 20 and data["result"]["winner"] is not None

    v = Viewer(browser, live_stack.url, users[1])
    try:
        v.open(f"/matches/{match.pk}/replay/")
        v.wait_ready()
        _check_the_fives_header(v, data, names)
        _step_with_keys_and_buttons(v, data, names)
        end = _check_scoring_and_the_first_hands_end(v, data, names)

        # The hands list jumps to a hand's first step
        if len(data["hands"]) > 1:
            v.page.click("[data-testid=replay-hands] button[data-hand='1']")
            start = next(i for i, f in enumerate(frames) if f["action"]["hand"] == 1)
            check_fives_frame(v, data, start, names)

        _play_and_pause(v, data, names)
        _check_the_fives_end_and_record(v, data, names, live_stack.url, match)
        _check_the_fives_phone(v, data, names, end)
        v.check_clean()
    finally:
        v.close()


def test_a_dice_replay_steps_through_the_game(live_stack: Any, browser: Any) -> None:
    users = people("eve", "fay", "gus")
    match, data = finished("dice", users, None, seed=3)
    names = ["eve Star", "fay", "gus"]
    frames = data["frames"]
    n = len(frames)

    v = Viewer(browser, live_stack.url, users[0])
    try:
        v.open(f"/matches/{match.pk}/replay/")
        v.wait_ready()
        check_dice_frame(v, data, 0, names)
        assert v.text("replay-tag") == "Order of play"
        for i in range(1, min(n, 12)):
            v.page.keyboard.press("ArrowRight")
            check_dice_frame(v, data, i, names)
        improve = next((i for i, f in enumerate(frames) if f["action"]["type"] == "improve"), None)
        if improve is not None:
            v.slide_to(improve)
            check_dice_frame(v, data, improve, names)
            a = frames[improve]["action"]
            assert v.text("replay-tag") == f"Round {a['round'] + 1}"
            first = v.page.eval_on_selector_all("[data-testid=replay-first-roll] [data-value]",
                                                "els => els.map(e => Number(e.dataset.value))")
            assert first == frames[improve]["turn"]["dice"]
        v.page.click("[data-testid=replay-last]")
        check_dice_frame(v, data, n - 1, names)
        result = data["result"]
        final = v.text("replay-final")
        if result["points_winner"] is not None and not result["absolute"]:
            assert f"On points: {names[result['points_winner']]}" in final, final
        v.page.click("[data-testid=replay-first]")
        check_dice_frame(v, data, 0, names)
        v.slide_to(n // 2)
        check_dice_frame(v, data, n // 2, names)
        v.shot("dice")
        v.check_clean()
    finally:
        v.close()


def _upload(v: Viewer, name: str, content: bytes) -> None:
    """Hand a file to the upload field of /replay/."""
    v.page.set_input_files("[data-testid=replay-upload]", files=[{
        "name": name, "mimeType": "application/json", "buffer": content}])


def _open_a_fives_then_a_dice_record(v: Viewer, fives_record: JSON, fives_data: JSON,
                                     dice_record: JSON, dice_data: JSON) -> None:
    """One upload page for every game: the record's format picks the viewer."""
    v.open("/replay/")
    _upload(v, "fives.json", json.dumps(fives_record).encode())
    v.wait_ready()
    assert v.page.evaluate("() => window.replayPage.game") == "fives"
    players = fives_data["players"]  # a record knows usernames only
    check_fives_frame(v, fives_data, 0, players)
    v.page.keyboard.press("End")
    check_fives_frame(v, fives_data, len(fives_data["frames"]) - 1, players)

    # Then a dice record
    _upload(v, "dice.json", json.dumps(dice_record).encode())
    v.page.wait_for_function("() => window.replayPage.game === 'dice'"
                             " && document.querySelector('#replay').dataset.ready === '1'")
    check_dice_frame(v, dice_data, 0, dice_data["players"])
    v.page.keyboard.press("ArrowRight")
    check_dice_frame(v, dice_data, 1, dice_data["players"])


def _open_a_record_with_an_illegal_action(v: Viewer, fives: Match, fives_record: JSON,
                                          fives_data: JSON) -> None:
    """A record with an illegal action: what comes before it, and a warning."""
    illegal = json.loads(json.dumps(fives_record))
    first_hand = illegal["hands"][0]["actions"]
    first_hand[1] = dict(first_hand[0])  # the leader again, out of turn
    _upload(v, "illegal.json", json.dumps(illegal).encode())
    v.page.wait_for_function("() => window.replayPage.game === 'fives'"
                             " && document.querySelector('#replay').dataset.ready === '1'")
    # The leader's play may bring forced passes with it (a frame each): the deal decides
    # how many frames come before the illegal action, the server's frames say.
    shown = len(plugin_of(fives).frames(illegal)["frames"])
    lead_and_its_passes = next(i for i, f in enumerate(fives_data["frames"])
                               if i > 0 and not f["action"].get("forced"))
    assert shown == lead_and_its_passes
    assert v.step() == (1, shown)
    warning = v.text("replay-warning")
    assert warning.startswith(
        "The record stops at an illegal action (hand 1, action 2)"), warning


def _open_broken_records(v: Viewer, dice_record: JSON) -> None:
    """A broken dice record and a malformed Spectacular Bid record: the page says so."""
    broken = {**dice_record, "actions": "none"}
    _upload(v, "broken.json", json.dumps(broken).encode())
    v.page.wait_for_selector("[data-testid=replay-error]:visible")
    assert "not a valid match record" in v.text("replay-error")
    assert v.page.is_hidden("#replay")
    assert v.page.is_hidden("[data-testid=replay-warning]")
    v.shot("upload")
    csp = v.page.evaluate("() => window.__csp || []")
    assert csp == [], csp

    # A malformed Spectacular Bid record: the same page says so
    _upload(v, "sb.json", b'{"format": "spectacular-bid/1", "hands": 3}')
    v.page.wait_for_function(
        "() => { const e = document.querySelector('[data-testid=replay-error]');"
        " return !e.hidden && e.textContent.includes('not a valid match record'); }")
    assert "not a valid match record" in v.text("replay-error")
    csp = v.page.evaluate("() => window.__csp || []")
    assert csp == [], csp


def test_records_of_every_format_open_on_the_upload_page(live_stack: Any, browser: Any) -> None:
    users = people("hal", "ida", "jon", "kim")
    fives, fives_data = finished("fives", users, {"target": 100}, seed=11)
    dice, dice_data = finished("dice", users[:2], None, seed=5)
    fives_record = export_record(fives)
    dice_record = export_record(dice)

    v = Viewer(browser, live_stack.url, users[0])
    try:
        _open_a_fives_then_a_dice_record(v, fives_record, fives_data, dice_record, dice_data)
        _open_a_record_with_an_illegal_action(v, fives, fives_record, fives_data)
        _open_broken_records(v, dice_record)
        # the broken uploads' 400s are logged by the browser; nothing else may be
        assert [e for e in v.errors if "status of 400" not in e] == [], v.errors
    finally:
        v.close()
