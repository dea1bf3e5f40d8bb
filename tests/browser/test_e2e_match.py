"""The whole journey in Debian's chromium, against the live stack (daphne x2, Celery).

Two browser contexts, alice and bob, sign up through /accounts/signup/ (e-mail
verification is off in the stack). alice challenges bob from the lobby (casual, 50
starting points, so the match is short), bob accepts in his lobby, and both land on the
match page. They play the whole match through the UI: Start / Continue, a tap on a tile
and then on a highlighted place (or "Open with this tile"), Draw when nothing fits, and
the auction (the non-jockey bids the minimum when it can, else declines; the jockey
accepts). The page's state (``window.tablePage``) only tells the test what is legal; every
action is a click on a ``data-testid`` / ``data-tile`` element.

The deals are fixed per hand number (TEST_FIXED_DEALS, seed "live-tests"), and the moves
are a fixed policy (the first legal action), so the match is the same every run: with
50 points, five hands and a win on points (see the summary printed at the end).

Also here: settings refuse TEST_FIXED_DEALS when DEBUG is off (a subprocess), and a
scripted settlement (a routed websocket) for what this seed's deals never show: a hand
that ends on a scoring placement and is followed by the next deal (the "+15" toast over
the settled hand's board), and the board's translated screen-reader labels.

Screenshots: test-artifacts/e2e-*.png (the lobby with the challenge, the board during
play, a tile selected with its places highlighted, the auction, the settlement of each
hand with its final board, the result); e2e-failure-*.png when something goes wrong.
A summary of the match goes to test-artifacts/e2e-summary.json.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import Player as BrowserPlayer
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "Fives-e2e-pass-9137"
START_POINTS = 50
PLAY_DEADLINE_S = 150  # the whole match, Start to result
MAX_HANDS = 10  # the fixed deals end the match in five; more means something changed
STEP_TIMEOUT_MS = 15_000


# ------------------------------------------------------------------ the settings guard

def test_fixed_deals_are_refused_without_debug(tmp_path: Path) -> None:
    """TEST_FIXED_DEALS cannot be switched on in production (DEBUG off)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEST_", "DEBUG"))}
    env.update(DEBUG="false", SECRET_KEY="x", VAR_DIR=str(tmp_path))

    def settings_import(fixed: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", "import config.settings"], cwd=ROOT,
                              env={**env, "TEST_FIXED_DEALS": fixed}, capture_output=True,
                              text=True, timeout=120)

    refused = settings_import("true")
    assert refused.returncode != 0, "settings accepted TEST_FIXED_DEALS with DEBUG off"
    assert "ImproperlyConfigured" in refused.stderr, refused.stderr[-2000:]
    assert "TEST_FIXED_DEALS" in refused.stderr, refused.stderr[-2000:]
    # The same production settings without fixed deals load: the refusal is about them.
    allowed = settings_import("false")
    assert allowed.returncode == 0, allowed.stderr[-2000:]


# ------------------------------------------------------------------ one player in a browser

class Player(BrowserPlayer):
    """A browser context of its own (cookies, websocket) and its page."""

    shot_prefix = "e2e-"
    page_object = "tablePage"

    def __init__(self, browser: Any, base: str, name: str) -> None:
        super().__init__(browser, base, name, timeout_ms=STEP_TIMEOUT_MS)

    # ---- pages

    def sign_up(self, password: str = PASSWORD) -> None:
        super().sign_up(password)
        assert self.testid("current-user").inner_text().strip() == self.name
        assert "sessionid" in {c["name"] for c in self.context.cookies()}

    # ---- the match page's state (read only)

    @property
    def view(self) -> Any:
        return self.state["view"]

    def wait_idle(self) -> None:
        """No command of ours is waiting for its answer (the page ignores clicks then)."""
        self.page.wait_for_function(
            "() => window.tablePage && !window.tablePage.pending")


def _sync(players: list[Player], above: int) -> None:
    """Both pages have the state that follows version ``above`` (the same one)."""
    for pl in players:
        pl.wait_version(above)
    deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
    while True:
        versions = [pl.version for pl in players]
        if versions[0] == versions[1]:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the pages disagree on the version: {versions}")
        time.sleep(0.05)


# ------------------------------------------------------------------ the journey

class Journey:
    """Plays the match through the UI and keeps what it saw for the checks."""

    def __init__(self, players: list[Player]) -> None:
        self.players = players  # by seat
        self.log: list[str] = []
        self.bids = 0
        self.accepts = 0
        self.declines = 0
        self.auctions = 0
        self.actions = 0
        self.settlements: list[dict[str, Any]] = []
        self.toasts: list[str] = []  # the final placements' toasts that were seen
        self.shots: set[str] = set()

    def shot_once(self, pl: Player, name: str, full: bool = True) -> None:
        if name not in self.shots:
            self.shots.add(name)
            pl.shot(name, full)

    def act(self, pl: Player, view: dict[str, Any]) -> None:
        """One decision of ``pl`` (whose turn it is), made by clicking."""
        legal = view["legal"]
        kinds = [a["type"] for a in legal]
        pl.wait_idle()
        before = pl.version
        if view["phase"] == "continue":
            button = pl.testid("continue")
            assert button.is_visible() and button.is_enabled(), f"{pl.name}: no Continue button"
            button.click()
            self.log.append(f"{pl.name}: {button.inner_text().strip()}")
        elif view["phase"] == "auction":
            self.auction(pl, view, kinds)
        elif kinds == ["draw"]:
            draw = pl.testid("draw")
            assert draw.is_visible() and draw.is_enabled(), f"{pl.name}: Draw is not offered"
            draw.click()
            self.log.append(f"{pl.name}: draw")
        else:
            self.play(pl, view, legal[0])
        self.actions += 1
        _sync(self.players, before)

    def play(self, pl: Player, view: dict[str, Any], a: dict[str, Any]) -> None:
        assert a["type"] == "play", (pl.name, a)
        page = pl.page
        if view.get("must_play"):
            # The drawn tile must be played: it is selected already, its places are shown.
            pressed = page.locator("#hand [aria-pressed=true]")
            assert pressed.get_attribute("data-tile") == view["must_play"]
        else:
            page.click(f'#hand [data-tile="{a["tile"]}"]')
        places = [x for x in view["legal"] if x["type"] == "play" and x["tile"] == a["tile"]]
        if a.get("target") and len(places) == 1 and not view.get("must_play"):
            self.log.append(f"{pl.name}: {a['tile']} on its only place, by one tap")
        elif a.get("target"):
            place = page.locator(f'#board .fives-place-active[data-target="{a["target"]}"]'
                                 f'[data-port="{a["port"]}"]')
            place.wait_for(state="visible")
            if len(view["board"]["tiles"]) >= 4:
                self.shot_once(pl, "board-selected", full=False)
            place.click()
            self.log.append(f"{pl.name}: {a['tile']} on {a['target']}:{a['port']}")
        else:
            opener = pl.testid("open")
            assert opener.is_visible(), f"{pl.name}: no 'Open with this tile' button"
            opener.click()
            self.log.append(f"{pl.name}: opens with {a['tile']}")

    def auction(self, pl: Player, view: dict[str, Any], kinds: list[str]) -> None:
        """The non-jockey bids the minimum if it can, else declines; facing a bid: accept."""
        panel = pl.testid("auction")
        assert panel.is_visible(), f"{pl.name}: the auction panel is not shown"
        if "accept" in kinds:
            self.shot_once(pl, "auction-accept", full=False)
            pl.testid("accept").click()
            self.accepts += 1
            self.log.append(f"{pl.name}: accepts {view['auction']['bid']}")
            return
        self.auctions += 1
        bids = [a["amount"] for a in view["legal"] if a["type"] == "bid"]
        self.shot_once(pl, "auction", full=False)
        if bids:
            select = pl.testid("bid-select")
            offered = pl.page.eval_on_selector_all(
                "[data-testid=bid-select] option", "els => els.map(e => Number(e.value))")
            assert offered == bids, (offered, bids)
            select.select_option(str(bids[0]))
            pl.testid("bid").click()
            # A bid of the whole balance asks first.
            confirm = pl.testid("confirm")
            if confirm.is_visible():
                pl.testid("confirm-yes").click()
            self.bids += 1
            self.log.append(f"{pl.name}: bids {bids[0]}")
        else:
            assert kinds == ["decline"], kinds
            pl.testid("decline").click()
            self.declines += 1
            self.log.append(f"{pl.name}: declines")

    def check_settlement(self, view: dict[str, Any], final: bool) -> None:
        """The settled hand's panel: who won it, its final board, its last move."""
        hands = view["hands"]
        settled = [h for h in hands if h.get("board") is not None]
        assert len(settled) == 1, "the view should carry the latest settled hand's board only"
        h = settled[0]
        if h["hand"] in {s["hand"] for s in self.settlements}:
            return
        last = h["moves"][-1] if h["moves"] else None
        if last and last["type"] == "play" and last["points"] > 0:
            # The final placement's points: a toast over the small board of the settled
            # hand, or over the board itself when the match ended in that hand.
            where = "#toasts" if final and view["hand_no"] == h["hand"] else "#settlement-toasts"
            for pl in self.players:
                toast = pl.page.locator(f"{where} .toast", has_text=f"+{last['points']}")
                toast.first.wait_for(state="attached", timeout=2500)
            self.toasts.append(f"hand {h['hand'] + 1}: +{last['points']} ({where})")
        for pl in self.players:
            panel = pl.testid("settlement")
            panel.wait_for(state="visible")
            pl.page.wait_for_function(
                f"() => document.getElementById('panel-settlement').dataset.hand === '{h['hand']}'")
            assert panel.get_attribute("data-winner") == (
                "" if h["winner"] is None else str(h["winner"])), (h, pl.name)
            drawn = pl.page.locator("[data-testid=settlement-board] [data-tile]").count()
            assert drawn == len(h["board"]["tiles"]), (drawn, h["board"])
            plays = [m for m in h["moves"] if m["type"] == "play"]
            last_play = plays[-1] if plays else None
            if last_play and last_play is h["moves"][-1] and last_play["points"] > 0:
                assert pl.testid("settlement-points").inner_text() == f"+{last_play['points']}"
            if h["winner"] is not None:
                assert self.players[h["winner"]].name in pl.testid("settlement-text").inner_text()
        self.settlements.append({"hand": h["hand"], "end": h["end"], "winner": h["winner"],
                                 "tiles": len(h["board"]["tiles"]), "balances": view["balances"]})
        self.shot_once(self.players[0], f"settlement-hand{h['hand'] + 1}")
        self.log.append(f"-- hand {h['hand'] + 1}: {h['end']}, winner {h['winner']}, "
                        f"balances {view['balances']}")


def _check_rated_tables_keep_the_standard_rules(alice: Player) -> None:
    """Rated games use the standard rules: the choice is offered for casual games only,
    and the API refuses a rated table with other numbers."""
    page = alice.page
    assert alice.testid("challenge-rated").input_value() == "rated"
    assert not alice.testid("challenge-points").is_visible()
    refused = page.evaluate(
        """async () => {
            const m = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
            const r = await fetch("/api/seeks", {method: "POST", headers: {
                "X-CSRFToken": m ? decodeURIComponent(m[1]) : "",
                "Content-Type": "application/json"},
                body: JSON.stringify({opponent: "bob", rated: true, rules: {start_points: 50}})});
            return [r.status, await r.json()];
        }""")
    assert refused[0] == 400 and refused[1]["message"], refused


def _post_and_cancel_an_open_seek(alice: Player, bob: Player) -> None:
    """An open seek with table rules: the row says so (bob sees it), then alice cancels it."""
    assert not alice.testid("seek-points").is_visible()
    alice.testid("seek-rated").select_option("casual")
    alice.testid("seek-points").select_option("100")
    alice.testid("seek-submit").click()
    alice.testid("seek-feedback").wait_for(state="visible")
    seek_row = bob.page.locator("[data-testid=seek-list] li.row", has_text="alice")
    seek_row.wait_for()
    assert "100" in seek_row.locator("[data-testid=rules-start-points]").inner_text()
    assert seek_row.locator(".badge--casual").count() == 1
    alice.page.locator("[data-testid=seek-list] button[data-action=cancel]").click()
    seek_row.wait_for(state="detached")


def _challenge_bob_at_the_table_points(alice: Player) -> None:
    """alice challenges bob to a casual game of START_POINTS points."""
    page = alice.page
    alice.testid("challenge-rated").select_option("casual")
    points = alice.testid("challenge-points")
    points.wait_for(state="visible")
    options = page.eval_on_selector_all("[data-testid=challenge-points] option",
                                        "els => els.map(e => e.value)")
    assert options == ["150", "100", "50"], options
    points.select_option(str(START_POINTS))
    alice.testid("challenge-name").fill("bob")
    alice.shot("lobby-points", full=False)
    alice.testid("challenge-submit").click()
    feedback = alice.testid("challenge-feedback")
    feedback.wait_for(state="visible")
    assert "bob" in feedback.inner_text(), feedback.inner_text()
    alice.page.locator("[data-testid=my-challenges] [data-testid=rules-start-points]").wait_for()


def _bob_accepts_the_challenge(alice: Player, bob: Player) -> str:
    """bob accepts from his lobby; both land on the match page: its path."""
    # bob's lobby lists the challenge (with its table rules) within a poll or two.
    row = bob.page.locator("[data-testid=challenges-to-me] li.row")
    row.wait_for()
    assert "alice" in row.inner_text()
    badge = row.locator("[data-testid=rules-start-points]")
    assert str(START_POINTS) in badge.inner_text(), row.inner_text()
    bob.shot("lobby-challenge", full=False)
    with bob.page.expect_navigation(url="**/matches/**"):
        row.locator("button[data-action=accept]").click()
    # alice's lobby sees the new match and takes her there by itself.
    alice.page.wait_for_url("**/matches/**", timeout=STEP_TIMEOUT_MS)
    path = str(urlsplit(bob.page.url).path)
    assert urlsplit(alice.page.url).path == path, (alice.page.url, bob.page.url)
    for pl in (alice, bob):
        pl.page.wait_for_function("() => window.tablePage && window.tablePage.state")
    return path


def _lobby_challenge(alice: Player, bob: Player) -> str:
    """alice challenges bob (casual, 50 points) from the lobby; bob accepts: the match URL."""
    _check_rated_tables_keep_the_standard_rules(alice)
    _post_and_cancel_an_open_seek(alice, bob)
    _challenge_bob_at_the_table_points(alice)
    return _bob_accepts_the_challenge(alice, bob)


def _seat_the_players(alice: Player, bob: Player) -> list[Player]:
    """The challenger sits in seat 0; both see the table's points and a Continue button."""
    seats = {pl.name: pl.view["seat"] for pl in (alice, bob)}
    assert sorted(seats.values()) == [0, 1], seats
    players = sorted([alice, bob], key=lambda pl: seats[pl.name])
    assert players[0] is alice, "the challenger sits in seat 0"
    view = alice.view
    assert view["rules"]["start_points"] == START_POINTS, view["rules"]
    for pl in players:
        for seat in (0, 1):
            assert pl.testid(f"score-{seat}").inner_text() == str(START_POINTS)
        assert pl.testid("continue").is_visible()
    return players


def _check_the_end(journey: Journey) -> dict[str, Any]:
    """The end: a winner on points, shown to both, and the last hand's final board."""
    players = journey.players
    final = players[0].view
    result = final["result"]
    assert result is not None and result["reason"] == "points", result
    winner = players[result["winner"]]
    loser = players[1 - result["winner"]]
    assert final["balances"][1 - result["winner"]] == 0, final["balances"]
    assert sum(final["balances"]) == 2 * START_POINTS
    for pl in players:
        panel = pl.testid("result")
        panel.wait_for(state="visible")
        assert panel.get_attribute("data-reason") == "points"
        assert panel.get_attribute("data-winner") == str(result["winner"])
        text = panel.inner_text()
        assert winner.name in text and loser.name in text, text
        assert not pl.testid("resign").is_visible()
        pl.testid("settlement-board").wait_for(state="visible")
    journey.check_settlement(final, final=True)
    assert "You win!" in winner.testid("result").inner_text()
    assert "You lost" in loser.testid("result").inner_text()
    winner.shot("result")
    loser.shot("result-loser", full=False)
    return dict(final)


def _write_the_summary(journey: Journey, final: dict[str, Any], started: float) -> None:
    """The match's numbers, to e2e-summary.json and the output."""
    elapsed = time.monotonic() - started
    summary = {
        "seconds": round(elapsed, 1), "hands": final["hands_played"],
        "ends": [h["end"] for h in final["hands"]], "result": final["result"],
        "balances": final["balances"], "ui_actions": journey.actions,
        "auctions": journey.auctions, "bids": journey.bids, "accepts": journey.accepts,
        "declines": journey.declines, "settlements": journey.settlements,
        "toasts": journey.toasts,
    }
    (ARTIFACTS / "e2e-summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"\ne2e match: {json.dumps(summary)}")


def test_sign_up_challenge_and_play_a_whole_match(live_stack: Any, browser: Any) -> None:
    started = time.monotonic()
    for old in ARTIFACTS.glob("e2e-failure-*"):
        old.unlink()  # from an earlier run
    alice = Player(browser, live_stack.url, "alice")
    # bob uses the other daphne process: the match's messages cross processes.
    bob = Player(browser, live_stack.urls[-1], "bob")
    journey: Journey | None = None
    try:
        alice.sign_up()
        bob.sign_up()
        _lobby_challenge(alice, bob)
        players = _seat_the_players(alice, bob)
        journey = Journey(players)
        _play(journey)
        final = _check_the_end(journey)

        # The auction was played with a bid and an accept (the fixed deals have one).
        assert journey.auctions >= 1, "no auction: every hand before the last was blocked"
        assert journey.bids >= 1 and journey.accepts >= 1, (journey.bids, journey.accepts)
        assert journey.toasts, "no hand ended with a scoring placement: no toast was checked"

        _write_the_summary(journey, final, started)
        for pl in players:
            assert not pl.errors, (pl.name, pl.errors)
    except BaseException:
        for pl in (alice, bob):
            with contextlib.suppress(Exception):  # the page may be gone
                pl.shot(f"failure-{pl.name}")
        if journey is not None:
            print("\nlast actions:\n  " + "\n  ".join(journey.log[-30:]))
        raise
    finally:
        alice.context.close()
        bob.context.close()


def _play(journey: Journey) -> None:
    """Start, then decisions until the match is over, within PLAY_DEADLINE_S."""
    players = journey.players
    deadline = time.monotonic() + PLAY_DEADLINE_S
    resigned = False
    while True:
        if time.monotonic() > deadline:
            view = players[0].view
            raise AssertionError(
                f"the match did not end within {PLAY_DEADLINE_S} s: hand {view['hand_no'] + 1}, "
                f"phase {view['phase']}, balances {view['balances']}, "
                f"{journey.actions} actions; last: {journey.log[-5:]}")
        views = [pl.view for pl in players]
        view = views[0]
        if view["phase"] == "over":
            journey.check_settlement(view, final=True)
            break
        if view["phase"] == "continue" and view["hand_no"] > 0:
            journey.check_settlement(view, final=False)
        if view["hand_no"] >= MAX_HANDS and not resigned:
            # Far more hands than the fixed deals need: end it, and say so.
            players[0].testid("resign").click()
            players[0].testid("confirm-yes").click()
            resigned = True
            continue
        if view["phase"] == "play" and len(view["board"]["tiles"]) >= 6:
            journey.shot_once(players[0], "board")
        actor = next((seat for seat in (0, 1) if views[seat]["legal"]), None)
        if actor is None:
            time.sleep(0.1)  # a deal or a forced step on its way
            continue
        journey.act(players[actor], views[actor])
    if resigned:
        pytest.fail(f"the match lasted {MAX_HANDS} hands without ending on points: "
                    "resigned (did the fixed deals or the engine change?)")


# ------------------------------------------------------------------ a scripted settlement

def _tile(tile: str, target: str | None = None, port: str | None = None,
          own: str | None = None) -> dict[str, Any]:
    return {"tile": tile, "target": target, "port": port, "own_port": own}


# A hand that seat 0 plays out with [5|5] on [4|5]: the double counts 10, [5|6] 5: +15.
_BOARD = [_tile("6-6"), _tile("4-6", "6-6", "line_a", "high"),
          _tile("5-6", "6-6", "line_b", "high"), _tile("4-5", "4-6", "low", "low")]
_FINAL = [*_BOARD, _tile("5-5", "4-5", "high", "line_a")]
_MOVES = [{"seat": 1, "type": "play", "tile": "6-6", "points": 0, "forced": True},
          {"seat": 0, "type": "play", "tile": "4-6", "target": "6-6", "port": "line_a",
           "points": 0},
          {"seat": 1, "type": "play", "tile": "5-6", "target": "6-6", "port": "line_b",
           "points": 0},
          {"seat": 0, "type": "play", "tile": "4-5", "target": "4-6", "port": "low",
           "points": 10},
          {"seat": 1, "type": "draw", "points": 0}]
_LAST = {"seat": 0, "type": "play", "tile": "5-5", "target": "4-5", "port": "high",
         "points": 15}


def _scripted(version: int, **view: Any) -> str:
    base: dict[str, Any] = {
        "game": "spectacular-bid", "seat": 0, "rules": {
            "start_points": 150, "bank_s": 120, "delay_s": 10, "min_bid": 15, "bid_step": 5,
            "jockey_discount": 15, "grace_s": 60, "one_device": False},
        "clock": {"banks": [110.0, 105.0], "running": None, "started": None, "delay": None,
                  "deadline": None},
        "awaiting_reveal": None, "result": None, "can_abort": False, "jockey": None,
        "hand_counts": [1, 4], "boneyard_count": 13,
    }
    base.update(view)
    return json.dumps({"type": "state", "version": version, "server_now": 30.0,
                       "match": {"id": "x", "players": ["alice", "bob"], "rated": False,
                                 "one_device": False, "status": "active", "annul_reason": ""},
                       "view": base})


def _playing_script() -> str:
    """Seat 0 to play its last tile, [5|5], on [4|5] (version 10)."""
    return _scripted(
        10, phase="play", hand_no=0, balances=[140, 160], to_act=0,
        board={"tiles": _BOARD, "spinner": "6-6", "ends_sum": 10,
               "places": [{"target": "4-5", "port": "high", "value": 5},
                          {"target": "5-6", "port": "low", "value": 5}]},
        moves=_MOVES, hand=["5-5"], continued=[True, True],
        hands=[{"hand": 0, "end": None, "jockey": None, "opener": 1, "winner": None,
                "sums": None, "settlement": None}],
        legal=[{"seat": 0, "type": "play", "tile": "5-5", "target": "4-5", "port": "high"},
               {"seat": 0, "type": "play", "tile": "5-5", "target": "5-6", "port": "low"}])


def _settled_script() -> str:
    """The next deal (version 12), with the settled first hand and its final placement."""
    return _scripted(
        12, phase="continue", hand_no=1, balances=[155, 145], to_act=None,
        board={"tiles": [], "spinner": None, "ends_sum": 0, "places": []}, moves=[],
        hand=["0-1", "0-2", "1-3", "2-2", "3-6", "4-4", "0-6"], continued=[False, False],
        hand_counts=[7, 7], boneyard_count=14, grace_deadline=90.0,
        hands=[{"hand": 0, "end": "domino", "jockey": None, "opener": 1, "winner": 0,
                "sums": None, "settlement": None,
                "hands": [[], ["0-0", "1-1", "2-3", "3-4"]],
                "board": {"tiles": _FINAL, "spinner": "6-6", "ends_sum": 15,
                          "places": [{"target": "5-5", "port": "line_b", "value": 5},
                                     {"target": "5-6", "port": "low", "value": 5}]},
                "moves": [*_MOVES, _LAST]},
               {"hand": 1, "end": None, "jockey": 0, "opener": None, "winner": None,
                "sums": None, "settlement": None}],
        legal=[{"seat": 0, "type": "continue"}])


def _start_a_casual_match(live_stack: Any, alice: Player, bob: Player) -> str:
    """Both sign up and leave the lobby; alice's seek, bob's accept: the match URL."""
    alice.sign_up()
    bob.sign_up()
    for pl in (alice, bob):
        pl.page.goto(live_stack.url + "/rules/")  # away from the lobby's auto-open
    _status, made = alice.api("POST", "/api/seeks", {"opponent": "bob", "rated": False})
    assert made.get("ok"), made
    _status, accepted = bob.api("POST", f"/api/seeks/{made['seek']}/accept")
    assert accepted.get("ok"), accepted
    return str(accepted["match"]["url"])


def _check_the_settlement_panel(alice: Player) -> None:
    """The "+15" toast, the winner, the final board with the last tile, the labels."""
    page = alice.page
    toast = page.locator("#settlement-toasts .toast", has_text="+15")
    toast.wait_for(state="visible", timeout=2500)
    # Read before the screenshot: the toast goes after 2.6 s, a slow screenshot outlasts it.
    assert "alice" in toast.inner_text()
    alice.shot("settlement-toast", full=False)
    panel = alice.testid("settlement")
    assert panel.get_attribute("data-winner") == "0"
    assert "alice played out" in alice.testid("settlement-text").inner_text()
    assert page.locator("[data-testid=settlement-board] [data-tile]").count() == len(_FINAL)
    assert page.locator("[data-testid=settlement-board] .domino-last").get_attribute(
        "data-tile") == "5-5"
    last = alice.testid("settlement-last").inner_text()
    assert "[5|5]" in last and "+15" in last, last
    assert alice.testid("settlement-points").inner_text() == "+15"
    # The board's screen-reader labels come from the page's translated strings.
    label = page.locator("[data-testid=settlement-board]").get_attribute("aria-label")
    assert label == "Board: 5 tiles, ends count 15", label


def _check_the_russian_labels(live_stack: Any, alice: Player) -> None:
    """In Russian the labels are Russian (the page's translated strings)."""
    page = alice.page
    alice.context.add_cookies([{"name": "django_language", "value": "ru",
                                "url": live_stack.url}])
    page.reload()
    page.wait_for_function("() => window.tablePage && window.tablePage.version === 10"
                           " && window.tablePage.boardReady")
    label = page.locator("#board").get_attribute("aria-label")
    assert label == "Стол: костей — 4, сумма концов 10", label
    assert page.locator('#hand [data-tile="5-5"]').get_attribute("aria-label") == "кость 5-5"
    page.click('#hand [data-tile="5-5"]')
    place = page.locator('#board .fives-place-active[data-target="4-5"]')
    assert place.get_attribute("aria-label") == (
        "сыграть к кости 4-5, старший конец (подходит 5)"), place.get_attribute("aria-label")


def test_settlement_shows_the_final_placement(live_stack: Any, browser: Any) -> None:
    """The last placement of a hand arrives with the next deal: the settlement panel shows
    it (final board, last move, a "+15" toast), scripted over a routed websocket."""
    alice = Player(browser, live_stack.url, "alice")
    bob = Player(browser, live_stack.url, "bob")
    try:
        match_url = _start_a_casual_match(live_stack, alice, bob)
        sockets: list[Any] = []
        playing = _playing_script()
        settled = _settled_script()

        def handler(ws: Any) -> None:
            sockets.append(ws)
            # The page's heartbeat: a scripted server answers it like the real one.
            ws.on_message(lambda message: ws.send('{"type": "pong"}')
                          if '"ping"' in message else None)
            ws.send(playing)

        page = alice.page
        page.route_web_socket("**/ws/matches/**", handler)
        page.goto(live_stack.url + match_url)
        # The board mounted too: it follows every state from here (the toasts need both).
        page.wait_for_function("() => window.tablePage && window.tablePage.version === 10"
                               " && window.tablePage.boardReady")
        assert not alice.testid("settlement").is_visible()
        sockets[-1].send(settled)
        _check_the_settlement_panel(alice)
        _check_the_russian_labels(live_stack, alice)
        assert not alice.errors, alice.errors
    finally:
        alice.context.close()
        bob.context.close()
