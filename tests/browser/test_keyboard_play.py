"""Every hosted game played by keyboard alone, in Debian's chromium, against the live stack.

After the page has loaded, the test only presses keys (``page.keyboard``): no click, no
``.focus()``. The first Tabs bring the focus to the board; from then on the focus must
never fall to the page's body (a watcher in the page samples it every 40 ms), and the
boards bring it to the next thing to do themselves:

- Spectacular Bid against the computer: Start, the first hand to its end (arrow keys among
  the tiles, Enter, arrows among the places, Enter; Draw when nothing fits), the
  settlement with the focus on Continue, then Resign by its key and its confirmation, and
  the focus on Rematch.
- Fives against the computer: the first hand to its end, Escape from the places back to
  the hand once.
- Five dice alone: a whole game, dice kept with arrows and Space, R re-rolls, S stands;
  the "Keys" help opened with "?".

Each game's live region (#table-announce) reads out the computer's moves. Then, without
the keyboard: Fives' "Draw automatically when nothing fits" (off by default, remembered,
one draw command a state), and scripted states (a routed websocket) for what a real game
reaches only by chance: a Spectacular Bid tile that fits one place only is played with one
tap, and a new hand clears the last hand's toasts (Spectacular Bid and Fives).

Screenshots: test-artifacts/keys-*.png (and keys-failure-*.png when something goes wrong).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.conftest import Player, is_csp_complaint, playing
from tests.browser.test_fives_table import Computer

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

STEP_MS = 20_000
TURN_MS = 60_000

# In the page from its start: the live region's words, and each moment the focus sat on
# the body once the test has armed the watcher (window.__watchFocus).
WATCHERS = """
window.__said = []; window.__bodyFocus = []; window.__watchFocus = false;
setInterval(() => {
  if (window.__watchFocus && document.activeElement === document.body) {
    window.__bodyFocus.push(window.tablePage ? window.tablePage.version : -1);
  }
}, 40);
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("table-announce");
  if (!region) return;
  new MutationObserver(() => {
    const text = region.textContent.trim();
    if (text) window.__said.push(text);
  }).observe(region, {childList: true, characterData: true, subtree: true});
});
"""

FOCUSED = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  return {tag: a.tagName, testid: a.getAttribute("data-testid"), tile: a.getAttribute("data-tile"),
          target: a.getAttribute("data-target"), port: a.getAttribute("data-port"),
          index: a.getAttribute("data-index"), id: a.id,
          inBoard: !!a.closest("#board-root"), inResult: !!a.closest("#table-result")};
}"""

# The page is at this seat's turn (or the match is over), with no command waiting.
MY_TURN = """() => {
  const p = window.tablePage;
  if (!p || !p.state || !p.boardReady) return false;
  if (p.state.match.status !== "active") return true;
  const v = p.state.view;
  return !p.pending && v && v.to_act === v.seat && v.legal.length > 0;
}"""


class Person(Player):
    shot_prefix = "keys-"

    def __init__(self, browser: Any, base: str, user: User) -> None:
        super().__init__(browser, base, user.username, timeout_ms=STEP_MS)
        self.context.add_init_script(WATCHERS)
        self.log_in(user)
        self.keys = self.page.keyboard

    def console_problem(self, message: Any) -> str | None:
        text = str(message.text)
        if is_csp_complaint(text) or (message.type == "error" and "WebSocket" not in text):
            return f"console on {self.page.url}: {text}"
        return None

    def start_against_the_computer(self, stack: Any, live: Any, game: str, seats: int) -> str:
        self.go("/rules/")  # a page with the CSRF cookie, away from the lobby's auto-open
        status, body = self.api("POST", "/api/matches/computer", {"game": game, "seats": seats})
        assert status == 201, body
        match_id = str(body["match"]["id"])
        if seats > 1:
            stack.callback(Computer(live.urls[-1], match_id).stop)
        self.go(f"/matches/{match_id}/")
        self.page.wait_for_function(
            "() => window.tablePage && window.tablePage.state && window.tablePage.boardReady")
        return match_id

    @property
    def view(self) -> dict[str, Any]:
        state = self.state
        return dict(state.get("view") or state["views"][0])

    @property
    def active(self) -> bool:
        return bool(self.state["match"]["status"] == "active")

    def focused(self) -> dict[str, Any]:
        """What has the focus; never the page's body."""
        found = self.page.evaluate(FOCUSED)
        assert found is not None, f"{self.name}: the focus fell to the page's body"
        return dict(found)

    def tab_in(self, selector: str) -> int:
        """Tab from the top of the page until the focus is in ``selector``; the Tabs it took.
        From then on the focus is watched."""
        for tabs in range(1, 61):
            self.keys.press("Tab")
            if self.page.evaluate("(s) => !!document.activeElement.closest(s)", selector):
                self.page.evaluate("() => { window.__watchFocus = true; }")
                return tabs
        raise AssertionError(f"{self.name}: 60 Tabs did not reach {selector}")

    def body_focus(self) -> list[int]:
        return list(self.page.evaluate("() => window.__bodyFocus"))

    def said(self) -> list[str]:
        return list(self.page.evaluate("() => window.__said"))

    def wait_turn(self, timeout_ms: int = TURN_MS) -> dict[str, Any] | None:
        self.page.wait_for_function(MY_TURN, timeout=timeout_ms)
        return self.view if self.active else None

    def press_until(self, key: str, done: Callable[[dict[str, Any]], bool], most: int = 12) -> None:
        """``key`` until the focused element is the one wanted."""
        for _ in range(most):
            if done(self.focused()):
                return
            self.keys.press(key)
        assert done(self.focused()), (self.name, key, self.focused())

    def check_focus_kept(self) -> None:
        assert self.body_focus() == [], f"{self.name}: the focus fell to the body at versions " \
            f"{sorted(set(self.body_focus()))}"


def _plays_by_tile(view: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    by_tile: dict[str, list[dict[str, Any]]] = {}
    for a in view["legal"]:
        if a["type"] == "play":
            by_tile.setdefault(a["tile"], []).append(a)
    return by_tile


def _wait_after(pl: Person, before: int) -> None:
    pl.page.wait_for_function(f"() => window.tablePage.version > {before}")


# ------------------------------------------------------------------ a domino move by keys

class DominoKeys:
    """One move on a domino board by keys alone; what it did is counted."""

    def __init__(self, pl: Person, opening_takes_two: bool) -> None:
        self.pl = pl
        self.opening_takes_two = opening_takes_two  # Spectacular Bid: pick, then open
        self.counts = {"one_tap": 0, "placed": 0, "draw": 0, "opened": 0, "escape": 0}

    def move(self, view: dict[str, Any]) -> None:
        pl = self.pl
        before = pl.version
        by_tile = _plays_by_tile(view)
        if not by_tile:
            assert [a["type"] for a in view["legal"]] == ["draw"], view["legal"]
            # The only thing to do: the focus is on Draw already.
            pl.page.wait_for_function("() => document.activeElement.dataset.testid === 'draw'")
            pl.keys.press("Enter")
            self.counts["draw"] += 1
        else:
            tile = view.get("must_play") or max(by_tile, key=lambda t: len(by_tile[t]))
            self.to_tile(tile, set(by_tile))
            plays = by_tile[tile]
            pl.keys.press("Enter")
            if len(plays) == 1 and plays[0].get("target") is None and self.opening_takes_two:
                self.open()
            elif len(plays) == 1:
                self.counts["one_tap"] += 1  # played by its Enter alone
            else:
                self.place(tile, plays)
        _wait_after(pl, before)
        pl.focused()

    def to_tile(self, tile: str, playable: set[str]) -> None:
        pl = self.pl
        # The focus comes back to the hand by itself.
        pl.page.wait_for_function(
            "() => document.activeElement.closest('[data-testid=hand] [data-tile]')")
        assert pl.focused()["tile"] in playable, (pl.focused(), playable)
        pl.press_until("ArrowRight", lambda f: f["tile"] == tile)

    def open(self) -> None:
        """An opening: Enter picked the tile and its place on the board has the focus;
        Enter there opens."""
        pl = self.pl
        pl.page.wait_for_function("() => document.activeElement.hasAttribute('data-port')")
        pl.keys.press("Enter")
        self.counts["opened"] += 1

    def place(self, tile: str, plays: list[dict[str, Any]]) -> None:
        """Enter picked the tile: its first place has the focus; the last place is chosen."""
        pl = self.pl
        pl.page.wait_for_function("() => document.activeElement.hasAttribute('data-port')")
        if not self.counts["escape"]:
            # Escape goes back to the hand, onto the tile; Enter picks it again.
            pl.keys.press("Escape")
            assert pl.focused()["tile"] == tile, pl.focused()
            pl.keys.press("Enter")
            pl.page.wait_for_function("() => document.activeElement.hasAttribute('data-port')")
            self.counts["escape"] += 1
        choice = plays[-1]
        pl.press_until("ArrowRight", lambda f: (f["target"], f["port"])
                       == (choice["target"], choice["port"]))
        pl.keys.press("Enter")
        self.counts["placed"] += 1


# ------------------------------------------------------------------ Spectacular Bid

def _sb_auction(pl: Person, view: dict[str, Any]) -> None:
    kinds = {a["type"] for a in view["legal"]}
    before = pl.version
    pl.page.wait_for_function("() => document.activeElement.closest('[data-testid=auction]')")
    pl.keys.press("a" if "accept" in kinds else "e" if "decline" in kinds else "b")
    if pl.testid("confirm").is_visible():  # an all-in bid asks first: Tab to Yes
        pl.keys.press("Tab")
        pl.keys.press("Enter")
    _wait_after(pl, before)


def _sb_first_hand(pl: Person, keys: DominoKeys) -> None:
    """Start, then the first hand to its settlement."""
    deadline = time.monotonic() + 240
    while pl.active and time.monotonic() < deadline:
        view = pl.view
        kinds = {a["type"] for a in view["legal"]} if view["to_act"] == view["seat"] else set()
        if view["phase"] == "continue" and view["hand_no"] >= 1:
            return
        if view["phase"] in ("continue", "deal") and "continue" in {
                a["type"] for a in view["legal"]}:
            before = pl.version
            pl.page.wait_for_function(
                "() => document.activeElement.dataset.testid === 'continue'")
            pl.keys.press("Enter")
            _wait_after(pl, before)
        elif view["phase"] == "auction" and kinds:
            _sb_auction(pl, view)
        elif view["phase"] == "play" and kinds and not pl.page.evaluate(
                "() => window.tablePage.pending"):
            keys.move(view)
        else:
            pl.page.wait_for_timeout(100)
        pl.focused()
    assert not pl.active or pl.view["hand_no"] >= 1, "the first hand did not end in time"


def _play_spectacular_bid(pl: Person, stack: Any, live: Any) -> None:
    pl.start_against_the_computer(stack, live, "spectacular-bid", 2)
    pl.testid("continue").wait_for()
    pl.tab_in("[data-testid=continue]")
    keys = DominoKeys(pl, opening_takes_two=True)
    _sb_first_hand(pl, keys)
    assert keys.counts["placed"] + keys.counts["one_tap"] + keys.counts["opened"] > 0, keys.counts
    if pl.active:
        # The settlement: the focus is on Continue, the next thing to do.
        pl.testid("settlement").wait_for()
        pl.page.wait_for_function("() => document.activeElement.dataset.testid === 'continue'")
        pl.shot("sb-settlement", full=False)
        # Resign by its key, confirmed: then the focus is on Rematch.
        pl.keys.press("q")
        pl.testid("confirm").wait_for()
        pl.keys.press("Tab")
        pl.keys.press("Enter")
    pl.testid("result").wait_for()
    pl.page.wait_for_function("() => document.activeElement.dataset.testid === 'rematch'")
    said = " ".join(pl.said())
    assert "computer" in said.lower() and ("played" in said or "drew" in said), pl.said()[-5:]
    pl.check_focus_kept()


# ------------------------------------------------------------------ Fives

def _play_fives(pl: Person, stack: Any, live: Any) -> None:
    pl.start_against_the_computer(stack, live, "fives", 2)
    assert pl.testid("autodraw").is_checked() is False  # off by default
    view = pl.wait_turn()
    assert view is not None
    pl.tab_in("[data-testid=hand]")
    keys = DominoKeys(pl, opening_takes_two=False)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        view = pl.wait_turn()
        if view is None or view["hand_no"] >= 1:
            break
        keys.move(view)
    assert keys.counts["escape"] == 1 or keys.counts["placed"] == 0, keys.counts
    assert sum(keys.counts.values()) >= 3, keys.counts
    pl.shot("fives", full=False)
    said = " ".join(pl.said())
    assert "computer" in said.lower() and ("played" in said or "led" in said), pl.said()[-5:]
    assert "Your turn." in said, pl.said()[-5:]
    pl.check_focus_kept()


# ------------------------------------------------------------------ five dice

DIE = "() => document.activeElement.closest('#dice-row .die') && !document.activeElement.disabled"


def _dice_decision(pl: Person, round_no: int) -> None:
    pl.page.wait_for_function(
        """() => { const p = window.tablePage, v = p.state && p.state.view;
            return v && !p.pending && v.legal.length > 0 && v.table
                && !document.getElementById('dice-actions').hidden; }""")
    pl.page.wait_for_function(DIE)  # the focus is back on the dice
    assert pl.focused()["index"] is not None
    before = pl.version
    if round_no == 0:
        # "?": the keys of the page, Re-roll and Stand among them; Escape closes it.
        pl.keys.press("?")
        help_text = pl.testid("keys-help").inner_text()
        assert "Re-roll" in help_text and "Stand" in help_text, help_text
        pl.shot("dice-help", full=False)
        pl.keys.press("Escape")
        pl.page.wait_for_function(DIE)
    if round_no in (0, 3):
        # Keep the first and the third die (the last one in round 3), re-roll the others.
        keep = [0, 2] if round_no == 0 else [4]
        for index in keep:
            pl.press_until("ArrowRight", lambda f, i=index: f["index"] == str(i))
            pl.keys.press("Space")
            assert pl.testid(f"die-{index}").get_attribute("aria-pressed") == "true"
        pl.keys.press("r")
    elif round_no == 2:
        pl.keys.press("r")  # all five again
    else:
        assert pl.testid("dice-stand").get_attribute("aria-keyshortcuts") == "s"
        pl.keys.press("s")
    _wait_after(pl, before)


def _play_dice(pl: Person, stack: Any, live: Any) -> None:
    pl.start_against_the_computer(stack, live, "dice", 1)
    pl.page.wait_for_function("() => !document.querySelector('[data-testid=die-0]').disabled")
    pl.tab_in("#dice-row")
    for round_no in range(5):
        _dice_decision(pl, round_no)
    pl.page.wait_for_function("() => window.tablePage.state.match.status !== 'active'")
    pl.testid("dice-outcome").wait_for()
    # Over: the focus is on the result's first button (Rematch).
    pl.page.wait_for_function("() => document.activeElement.dataset.testid === 'rematch'")
    assert len(pl.view["sheet"]) == 5
    pl.shot("dice", full=False)
    pl.check_focus_kept()


KEYBOARD_GAMES = {"spectacular-bid": _play_spectacular_bid, "fives": _play_fives,
                  "dice": _play_dice}


def _hosted_keys() -> list[str]:
    from games import registry

    return [plugin.key for plugin in registry.hosted_games()]


@pytest.mark.parametrize("game", _hosted_keys())
def test_every_game_by_keyboard_alone(live_stack: Any, browser: Any, game: str) -> None:
    assert game in KEYBOARD_GAMES, f"no keyboard game for {game}"
    user = User.objects.create_user(f"keys{game[:8]}", password="pw-keys-4421")
    pl = Person(browser, live_stack.url, user)
    with playing(pl, failure=f"failure-{game}") as stack:
        KEYBOARD_GAMES[game](pl, stack, live_stack)
        pl.collect()
        pl.check_clean()


# ------------------------------------------------------------------ Fives: auto-draw

def _draw_commands(frames: list[str]) -> list[int]:
    """The versions of the draw commands sent."""
    found = []
    for frame in frames:
        data = json.loads(frame)
        if data.get("type") == "command" and data["action"]["type"] == "draw":
            found.append(int(data["version"]))
    return found


def _click_a_move(pl: Person, view: dict[str, Any]) -> None:
    by_tile = _plays_by_tile(view)
    tile = view.get("must_play") or next(iter(by_tile))
    plays = by_tile[tile]
    before = pl.version
    if not view.get("must_play"):
        pl.page.click(f'[data-testid=hand] [data-tile="{tile}"]')
    if len(plays) > 1 or view.get("must_play"):
        pl.page.click(f'[data-testid=board] .fives-place-active[data-target="{plays[0]["target"]}"]'
                      f'[data-port="{plays[0]["port"]}"]')
    _wait_after(pl, before)


def test_fives_draws_by_itself_when_asked(live_stack: Any, browser: Any) -> None:
    user = User.objects.create_user("keysautodraw", password="pw-keys-4421")
    pl = Person(browser, live_stack.url, user)
    frames: list[str] = []
    pl.page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode())))
    with playing(pl, failure="failure-autodraw") as stack:
        pl.start_against_the_computer(stack, live_stack, "fives", 2)
        toggle = pl.testid("autodraw")
        pl.wait_turn()
        assert not toggle.is_checked()
        toggle.check()
        pl.page.reload()  # remembered
        pl.page.wait_for_function("() => window.tablePage && window.tablePage.boardReady")
        assert pl.testid("autodraw").is_checked()
        auto = 0
        for _ in range(60):
            view = pl.wait_turn()
            if view is None:
                break
            if [a["type"] for a in view["legal"]] == ["draw"]:
                before = pl.version
                _wait_after(pl, before)  # nobody pressed Draw
                auto += 1
                if auto >= 2:
                    break
                continue
            _click_a_move(pl, view)
        assert auto, "nothing was drawn by itself in 60 moves"
        drawn = _draw_commands(frames)
        assert len(drawn) >= auto and len(drawn) == len(set(drawn)), drawn
        pl.collect()
        pl.check_clean()


# ------------------------------------------------------------------ scripted states

def _message(version: int, view: dict[str, Any]) -> str:
    return json.dumps({"type": "state", "version": version, "server_now": 6.0,
                       "match": {"id": "x", "players": ["keys", "computer"], "rated": False,
                                 "one_device": False, "status": "active", "annul_reason": ""},
                       "view": view})


def _scripted_page(pl: Person, first: str) -> tuple[list[Any], list[dict[str, Any]]]:
    """The match page on a routed websocket that sends ``first``: the sockets, what came."""
    sockets: list[Any] = []
    sent: list[dict[str, Any]] = []

    def handler(ws: Any) -> None:
        sockets.append(ws)

        def on_message(message: str) -> None:
            data = json.loads(message)
            sent.append(data)
            if data.get("type") == "ping":
                ws.send(json.dumps({"type": "pong"}))

        ws.on_message(on_message)
        ws.send(first)

    pl.page.route_web_socket("**/ws/matches/**", handler)
    return sockets, sent


_SB_RULES = {"start_points": 150, "bank_s": 120, "delay_s": 10, "min_bid": 15, "bid_step": 5,
             "jockey_discount": 15, "grace_s": 60, "one_device": False}
_SB_CLOCK = {"banks": [120.0, 100.0], "running": None, "started": None, "delay": None,
             "deadline": None}
_OPENING = {"tile": "6-6", "target": None, "port": None, "own_port": None}
_SIXES = [{"target": "6-6", "port": "line_a", "value": 6},
          {"target": "6-6", "port": "line_b", "value": 6}]


def _sb_view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": "spectacular-bid", "seat": 0, "phase": "play", "hand_no": 0, "rules": _SB_RULES,
        "balances": [150, 150], "clock": _SB_CLOCK, "to_act": 1, "awaiting_reveal": None,
        "result": None, "can_abort": False, "jockey": None,
        "board": {"tiles": [_OPENING], "spinner": "6-6", "ends_sum": 12, "places": _SIXES},
        "moves": [{"seat": 0, "type": "play", "tile": "6-6", "points": 0, "forced": True}],
        "hand_counts": [6, 7], "boneyard_count": 14, "continued": [True, True],
        "hand": ["0-5", "1-1", "1-4", "2-3", "2-6", "4-4"],
        "hands": [{"hand": 0, "end": None, "jockey": None, "opener": 0, "sums": None,
                   "settlement": None}],
        "legal": [],
    }
    view.update(changes)
    return view


def _sb_script() -> list[str]:
    """The computer scores 10 with [4|6]; a tile of mine fits one place only; a new hand."""
    board = {"tiles": [_OPENING, {"tile": "4-6", "target": "6-6", "port": "line_a",
                                  "own_port": "high"}],
             "spinner": "6-6", "ends_sum": 10,
             "places": [{"target": "4-6", "port": "low", "value": 4},
                        {"target": "6-6", "port": "line_b", "value": 6}]}
    moves = [{"seat": 0, "type": "play", "tile": "6-6", "points": 0, "forced": True},
             {"seat": 1, "type": "play", "tile": "4-6", "target": "6-6", "port": "line_a",
              "points": 10}]
    scored = _sb_view(board=board, moves=moves, to_act=0, balances=[150, 160],
                      hand_counts=[6, 6],
                      legal=[{"seat": 0, "type": "play", "tile": "2-6", "target": "6-6",
                              "port": "line_b"},
                             {"seat": 0, "type": "play", "tile": "1-4", "target": "4-6",
                              "port": "low"},
                             {"seat": 0, "type": "play", "tile": "4-4", "target": "4-6",
                              "port": "low"}])
    settled = _sb_view(
        phase="continue", hand_no=1, to_act=None, balances=[170, 130],
        board={"tiles": [], "spinner": None, "ends_sum": 0, "places": []}, moves=[],
        hand=["0-1", "0-2", "1-3", "2-2", "3-6", "4-4", "0-6"], hand_counts=[7, 7],
        continued=[False, False], grace_deadline=90.0,
        hands=[{"hand": 0, "end": "domino", "jockey": None, "opener": 0, "winner": 0,
                "sums": None, "settlement": 20, "hands": [[], ["0-0", "1-1"]],
                "board": board, "moves": moves},
               {"hand": 1, "end": None, "jockey": 0, "opener": None, "winner": None,
                "sums": None, "settlement": None}],
        legal=[{"seat": 0, "type": "continue"}])
    return [_message(10, _sb_view()), _message(11, scored), _message(12, settled)]


def _fives_view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": "fives", "seat": 0, "seats": 2, "phase": "play", "hand_no": 0,
        "rules": {"target": 100, "cross": True, "full_record": False},
        "board": {"tiles": [_OPENING], "cross": "6-6", "ends_sum": 12, "places": _SIXES},
        "moves": [{"seat": 0, "type": "play", "tile": "6-6", "points": 0}],
        "to_act": 1, "hand": ["0-5", "1-1", "1-4", "2-3", "2-6", "4-4"],
        "hand_counts": [6, 7], "bazaar_count": 14, "scores": [0, 0], "result": None,
        "hands": [{"hand": 0, "end": None}], "legal": [],
    }
    view.update(changes)
    return view


def _fives_script() -> list[str]:
    board = {"tiles": [_OPENING, {"tile": "4-6", "target": "6-6", "port": "line_a",
                                  "own_port": "high"}],
             "cross": "6-6", "ends_sum": 10,
             "places": [{"target": "4-6", "port": "low", "value": 4},
                        {"target": "6-6", "port": "line_b", "value": 6}]}
    moves = [{"seat": 0, "type": "play", "tile": "6-6", "points": 0},
             {"seat": 1, "type": "play", "tile": "4-6", "target": "6-6", "port": "line_a",
              "points": 10}]
    scored = _fives_view(board=board, moves=moves, to_act=1, scores=[0, 10], hand_counts=[6, 6])
    lead = [{"seat": 0, "type": "play", "tile": t, "target": None, "port": None}
            for t in ("0-1", "2-2", "3-6")]
    new_hand = _fives_view(
        hand_no=1, board={"tiles": [], "cross": None, "ends_sum": 0, "places": []}, moves=[],
        to_act=0, hand=["0-1", "2-2", "3-6"], hand_counts=[7, 7], scores=[0, 30],
        hands=[{"hand": 0, "end": "domino", "winner": 1, "bonus": 20, "pips": [22, 0],
                "hands": [["0-5", "1-1", "1-4", "2-3", "2-6", "4-4"], []]},
               {"hand": 1, "end": None}],
        legal=lead)
    return [_message(10, _fives_view()), _message(11, scored), _message(12, new_hand)]


def _toasts_after_a_new_hand(pl: Person, match_id: str, script: list[str], toasts: str,
                             between: Callable[[list[dict[str, Any]]], None]) -> None:
    sockets, sent = _scripted_page(pl, script[0])
    pl.go(f"/matches/{match_id}/")
    pl.page.wait_for_function("() => window.tablePage && window.tablePage.version === 10"
                              " && window.tablePage.boardReady")
    sockets[-1].send(script[1])
    pl.wait_version(10)
    pl.page.locator(f"{toasts} > *").first.wait_for()  # "+10" over the board
    said = pl.page.locator("#table-announce")
    pl.page.wait_for_function("() => document.getElementById('table-announce').textContent")
    assert "[4|6]" in said.inner_text() or "4|6" in said.inner_text(), said.inner_text()
    between(sent)
    sockets[-1].send(script[2])
    pl.wait_version(11)
    count = pl.page.locator(f"{toasts} > *").count()
    assert count == 0, f"{count} toast(s) of the last hand over the next hand's board"


def _one_tap(pl: Person) -> Callable[[list[dict[str, Any]]], None]:
    def check(sent: list[dict[str, Any]]) -> None:
        # [1|4] fits one place only ([4|4] fits the same one): one tap plays it.
        pl.page.click('#hand [data-tile="1-4"]')
        pl.page.wait_for_function("() => window.tablePage.pending", timeout=3000)
        command = next(m for m in sent if m.get("type") == "command")
        assert command["action"] == {"seat": 0, "type": "play", "tile": "1-4",
                                     "target": "4-6", "port": "low"}, command
    return check


def test_one_tap_and_toasts_of_a_new_hand(live_stack: Any, browser: Any) -> None:
    user = User.objects.create_user("keys", password="pw-keys-4421")
    for game, script, toasts in (("spectacular-bid", _sb_script(), "#toasts"),
                                 ("fives", _fives_script(), ".fives-toasts")):
        pl = Person(browser, live_stack.url, user)
        with playing(pl, failure=f"failure-scripted-{game}"):
            pl.go("/rules/")
            status, body = pl.api("POST", "/api/matches/computer", {"game": game, "seats": 2})
            assert status == 201, body
            between = _one_tap(pl) if game == "spectacular-bid" else (lambda sent: None)
            _toasts_after_a_new_hand(pl, str(body["match"]["id"]), script, toasts, between)
            pl.shot(f"scripted-{game}-new-hand", full=False)
