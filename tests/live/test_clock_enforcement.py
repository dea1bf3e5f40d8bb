"""The server enforces the clock: nobody needs to be connected, a lost task is caught up."""

from __future__ import annotations

import time

import pytest

from games.models import Match, MatchEvent
from games.play.services import do_command, do_create_match
from games.play.store import load_engine

from .helpers import make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

FAST = {"bank_s": 1, "delay_s": 1, "grace_s": 30}


def start_fast_match() -> tuple[Match, float]:
    """A casual match whose first decision's clock runs out 2 s after both pressed Continue."""
    alice, _ = make_player("alice")
    bob, _ = make_player("bob")
    match = do_create_match(alice, bob, rated=False, rules=FAST)
    assert do_command(match.pk, alice, {"action": {"seat": 0, "type": "continue"}}).ok
    assert do_command(match.pk, bob, {"action": {"seat": 1, "type": "continue"}}).ok
    match.refresh_from_db()
    engine = load_engine(match)
    deadline = match.started_wall + engine.clock.deadline_us() / 1e6
    return match, deadline


def wait_finished(match: Match, timeout: float) -> Match:
    end = time.time() + timeout
    while time.time() < end:
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        time.sleep(0.05)
    raise AssertionError("the match was not decided in time")


def flag_time(match: Match) -> float:
    event = MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.TIME).last()
    assert event is not None
    return event.created_at.timestamp()


def test_a_silent_player_is_flagged_within_a_second(live_stack) -> None:
    match, deadline = start_fast_match()
    decided = wait_finished(match, timeout=10)
    assert decided.reason == "time"
    assert decided.status == Match.Status.FINISHED
    lateness = flag_time(decided) - deadline
    print(f"flag lateness: {lateness * 1000:.0f} ms")
    assert 0 <= lateness < 1.0, lateness


def test_a_killed_worker_with_a_pending_deadline_still_flags(live_stack) -> None:
    match, deadline = start_fast_match()
    time.sleep(0.5)  # the worker has taken the deadline task (it waits for its eta)
    live_stack.kill("worker")  # SIGKILL: the pending task dies with it
    try:
        time.sleep(max(0.0, deadline - time.time()) + 0.5)
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE  # nothing flagged without a worker
    finally:
        live_stack.start_worker()
    live_stack.wait_worker()
    decided = wait_finished(match, timeout=15)
    assert decided.reason == "time"
    assert decided.winner is not None
