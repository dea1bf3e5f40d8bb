"""The game review on a finished Fives match's replay page, in chromium against the live
stack: the match ends, the stack's Celery worker reviews it, and the page's Review section
shows a progress bar, then every decision of the review (the costly mistakes marked); a
row's button shows its position in the replay, and that row is marked; axe finds nothing
serious in the section. Screenshots: test-artifacts/review-fives{,-running}.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.models import Match, MatchReview
from games.play.services import do_create_match
from tests.browser.test_replay_games import Viewer, people, play_out
from tests.browser.test_replay_viewer import off_the_loop
from tests.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.services,
              pytest.mark.django_db(transaction=True)]

REVIEW_WAIT_MS = 90_000  # the worker's review, on a machine busy with other work


def test_the_review_appears_on_the_replay_page(live_stack: Any, browser: Any) -> None:
    import config.celery  # noqa: F401 - the review task goes to the stack's broker

    users = people("rev_ann", "rev_bob")

    def run() -> Match:
        match = do_create_match(*users, game="fives", rated=False, rules={"target": 100})
        # As if a worker had started on it: the end of the match asks for no other.
        MatchReview.objects.create(match=match, status=MatchReview.Status.RUNNING,
                                   started_at=timezone.now(), done=3, total=10)
        return play_out(match, users, 11)

    match = off_the_loop(run)
    assert match.status == Match.Status.FINISHED
    v = Viewer(browser, live_stack.url, users[0])
    v.shot_prefix = "review-"
    try:
        v.open(f"/matches/{match.pk}/replay/")
        v.wait_ready()
        bar = v.page.locator("[data-testid=replay-review-progress]")
        bar.wait_for(state="visible")
        v.page.wait_for_function("() => document.querySelector("
                                 "'[data-testid=replay-review-progress]').value === 3")
        assert bar.evaluate("el => el.max") == 10
        assert "3 of 10" in v.text("replay-review-status")
        section = v.page.locator("[data-testid=replay-review]")
        section.scroll_into_view_if_needed()
        section.screenshot(path=str(ARTIFACTS / "review-fives-running.png"))
        # The worker that had it is gone: the page's next look asks for the review again.
        off_the_loop(lambda: MatchReview.objects.filter(match=match).delete())
        v.page.wait_for_selector("#replay-review[data-ready='1']", timeout=REVIEW_WAIT_MS)
        status, answer = v.api("GET", f"/api/matches/{match.pk}/review")
        assert status == 200 and answer["status"] == "done"
        decisions = answer["decisions"]
        rows = v.page.locator("[data-testid=replay-review-row]")
        assert rows.count() == len(decisions) > 0
        mistakes = [i for i, d in enumerate(decisions) if d["mistake"]]
        assert v.page.locator("[data-testid=replay-review-row][data-mistake='1']").count() \
            == len(mistakes)
        names = ["rev_ann Star", "rev_bob"]
        assert names[decisions[0]["seat"]] in rows.nth(0).inner_text()  # the module's words
        pick = mistakes[-1] if mistakes else len(decisions) - 1
        rows.nth(pick).locator("[data-testid=replay-review-go]").click()
        frame = decisions[pick]["frame"]
        v.page.wait_for_function(
            f"() => document.getElementById('replay').dataset.index === '{frame}'")
        assert "is-current" in str(rows.nth(pick).get_attribute("class"))
        v.shot("fives")
        from axe_playwright_python.sync_playwright import Axe

        found = Axe().run(v.page, context="#replay-review").response["violations"]
        blocking = [(f["id"], [n["target"] for n in f["nodes"][:5]]) for f in found
                    if f.get("impact") in ("serious", "critical")]
        assert not blocking, blocking
        v.collect()
        v.check_clean()
    finally:
        v.close()
