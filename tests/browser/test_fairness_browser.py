"""The browser's fairness check (static/js/fairness.js) and the seeds on the match page.

In Debian's chromium against the live stack: the derivation reproduces every value of
docs/fairness.md's vectors (Web Crypto); the replay page of a finished seeded match of
every game verifies its deals and rolls; an uploaded record with one deal tile moved or
one die changed is refused with that hand or turn named, and one without seeds is said
to be unverifiable; the match page sends its player's own seed before the first deal,
shows the commitment, and never the server seed while the match runs.
Screenshots: test-artifacts/fair-*.png.
"""

from __future__ import annotations

import copy
import json
import re
import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import registry
from games.models import Match
from games.play.services import do_create_match
from tests.browser.conftest import Player, console_error
from tests.browser.test_replay_viewer import off_the_loop
from tests.fairness.helpers import finished_record
from tests.fairness.test_vectors import vectors

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

PHONE = (390, 844)
DERIVE = """async (vectors) => {
  const F = await import("/static/js/fairness.js");
  const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
  const out = [];
  for (const v of vectors) {
    const key = await F.hmacKey(v.server_seed);
    const message = F.hmacMessage(v.player_seeds, v.match_id, v.event, 0);
    const fresh = () => F.eventStream(key, v.player_seeds, v.match_id, v.event, 8);
    const s1 = await fresh();
    const u32 = Array.from({length: 8}, () => s1.u32());
    const s2 = await fresh();
    const tiles = Array.from({length: 28}, (_, i) => i);
    s2.shuffle(tiles);
    const s3 = await fresh();
    const dice = Array.from({length: 5}, () => s3.randint(1, 6));
    const s4 = await fresh();
    out.push({commitment: await F.commitment(v.server_seed), message_block0: hex(message),
              block0: hex(await crypto.subtle.sign("HMAC", key, message)), u32,
              shuffle_28: tiles, shuffle_28_tiles: tiles.map((t) => F.TILE_NAMES[t]), dice_5: dice,
              sample_4_of_28: s4.sample(Array.from({length: 28}, (_, i) => i), 4)});
  }
  return out;
}"""


class Visitor(Player):
    shot_prefix = "fair-"
    console_problem = staticmethod(console_error)

    def __init__(self, browser: Any, base: str, user: User,
                 viewport: tuple[int, int] = (1280, 900)) -> None:
        super().__init__(browser, base, user.username, viewport=viewport, timeout_ms=20_000)
        self.log_in(user)

    def verify(self) -> tuple[str, str]:
        self.page.wait_for_selector("[data-testid=fairness]:not([hidden])")
        self.testid("fair-verify").click()
        self.page.wait_for_function(
            "() => document.querySelector('[data-testid=fair-result]').dataset.status !== undefined"
            " || /cannot/.test(document.querySelector('[data-testid=fair-result]').textContent)")
        result = self.testid("fair-result")
        return str(result.get_attribute("data-status") or ""), str(result.inner_text())

    def upload(self, path: str, record: Any) -> None:
        self.go(path)
        self.page.evaluate("() => { delete window.replayRecordText; }")
        self.page.set_input_files("[data-testid=replay-upload]", files=[{
            "name": "record.json", "mimeType": "application/json",
            "buffer": json.dumps(record).encode()}])
        self.page.wait_for_function(
            "(f) => window.replayRecordText && JSON.parse(window.replayRecordText).format === f",
            arg=record["format"])


def test_the_browser_derivation_gives_the_documented_vectors(live_stack: Any, browser: Any) -> None:
    user = User.objects.create_user("vectors")
    v = Visitor(browser, live_stack.url, user)
    try:
        v.go("/replay/")
        expected = vectors()
        got = v.page.evaluate(DERIVE, expected)
        for want, have in zip(expected, got, strict=True):
            for key, value in have.items():
                assert value == want[key], (want["match_id"], key)
        v.check_clean()
    finally:
        v.close()


def test_every_games_replay_page_verifies_and_names_a_changed_event(live_stack: Any,
                                                                     browser: Any) -> None:
    user = User.objects.create_user("verifier")
    records = {plugin.key: off_the_loop(finished_record, plugin.key, min(plugin.seat_counts))
               for plugin in registry.all_games()}
    v = Visitor(browser, live_stack.url, user)
    try:
        for game, record in records.items():
            v.go(f"/matches/{record['fairness']['match_id']}/replay/")
            status, text = v.verify()
            assert status == "0", (game, text)
            assert re.search(r"All \d+ deals and rolls match", text), text
            assert record["fairness"]["commitment"] in v.testid("fair-seeds").inner_text()
            v.shot(f"replay-{game}")

            changed = copy.deepcopy(record)
            if changed["format"] == "dice/1":
                roll = next(a for a in changed["actions"] if a["type"] == "roll")
                roll["dice"][0] = roll["dice"][0] % 6 + 1
                named = "turn 1:"
            elif changed["format"] == "hidden-nim/1":  # the test-only game: one deal
                deck = changed["deal"]["deck"]
                deck[0], deck[1] = deck[1], deck[0]
                named = "deal"
            else:
                deal = changed["hands"][0]["deal"]
                deal["hands"][0][0], deal["hands"][1][0] = deal["hands"][1][0], deal["hands"][0][0]
                named = "hand 1"
            v.upload("/replay/", changed)
            status, text = v.verify()
            assert status == "1" and named in text, (game, text)

        plain = {k: val for k, val in records[next(iter(records))].items() if k != "fairness"}
        v.upload("/replay/", plain)
        v.page.wait_for_selector("[data-testid=fairness]:not([hidden])")
        assert "cannot be verified" in v.testid("fair-result").inner_text()
        v.check_clean()
    finally:
        v.close()


def test_the_match_page_sends_its_seed_and_keeps_the_server_seed(live_stack: Any, browser: Any,
                                                                 settings: Any) -> None:
    settings.FAIR_SEED_WAIT_S = 60.0
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    plugin = next(p for p in registry.all_games() if p.board_module)
    match = off_the_loop(lambda: do_create_match(alice, bob, rated=False, game=plugin.key))
    v = Visitor(browser, live_stack.url, alice, viewport=PHONE)
    try:
        v.go(f"/matches/{match.pk}/")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            seeds = Match.objects.get(pk=match.pk).fair_player_seeds
            if seeds[0] is not None:
                break
            time.sleep(0.2)
        assert re.fullmatch(r"[0-9a-f]{32}", seeds[0] or ""), seeds
        assert seeds[1] is None and Match.objects.get(pk=match.pk).chances == 0
        panel = v.testid("fairness-panel")
        panel.wait_for(state="visible")
        panel.locator("summary").click()
        v.page.wait_for_function(
            "(s) => document.querySelector('[data-testid=fairness-panel]').innerText.includes(s)",
            arg=seeds[0])
        assert match.fair_commitment in panel.inner_text()
        assert match.fair_server_seed not in v.page.content()
        panel.scroll_into_view_if_needed()
        v.shot("match-panel-phone", full=False)
        v.check_clean()
    finally:
        v.close()
