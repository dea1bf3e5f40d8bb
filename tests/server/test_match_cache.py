"""The writer's optimistic path (games/play/match_cache.py): a move applied to this process's
copy of the match and written only if nobody wrote since.

These tests run outside a test transaction (as the web processes do), so that commits
happen and the copies are kept. Every case checks the log against the cached state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Match, MatchEvent
from games.play import match_cache, services
from games.play.services import do_command, do_create_match
from games.play.store import load_engine
from games.spectacular_bid.bot import choose
from tests.server.test_services import assert_log_reproduces, fresh, pick

pytestmark = pytest.mark.django_db(transaction=True)
DEALS_SEED = "match-cache"  # reproducible deals (tests/server/conftest.py)


@pytest.fixture
def players() -> tuple[User, User]:
    return User.objects.create_user("carol"), User.objects.create_user("dave")


@pytest.fixture
def locked_reads(monkeypatch) -> Iterator[list[Any]]:
    """Every locked read of the writer (the path the copy saves)."""
    calls: list[Any] = []
    original = services._locked

    def counted(match_id: Any) -> Match:
        calls.append(match_id)
        return original(match_id)

    monkeypatch.setattr(services, "_locked", counted)
    match_cache.clear()
    yield calls
    match_cache.clear()


def acting(match: Match) -> tuple[int, dict[str, Any]]:
    engine = load_engine(fresh(match))
    for seat in (0, 1):
        action = choose(engine.view(seat))
        if action is not None:
            return seat, action
    raise AssertionError("nobody may act")


def move(match: Match, users: tuple[User, User], version: Any = "now") -> services.CommandResult:
    seat, action = acting(match)
    data: dict[str, Any] = {"action": action}
    if version == "now":
        data["version"] = fresh(match).version
    elif version is not None:
        data["version"] = version
    return do_command(match.pk, users[seat], data)


def start(match: Match, users: tuple[User, User]) -> None:
    for seat in (0, 1):
        result = do_command(match.pk, users[seat], {"action": {"seat": seat, "type": "continue"}})
        assert result.ok, result


def test_moves_after_the_first_need_no_locked_read(players, locked_reads) -> None:
    match = do_create_match(*players, rated=False)
    start(match, players)
    for _ in range(10):
        before = fresh(match).version
        result = move(match, players)
        assert result.ok, result
        assert result.version > before
    assert locked_reads == []  # creation left a copy; every move used it
    assert_log_reproduces(match)


def test_a_copy_someone_moved_past_is_not_written(players, locked_reads) -> None:
    """Another process wrote since this copy: the conditional write fails, and the same
    command is done the locked way, once."""
    match = do_create_match(*players, rated=False)
    start(match, players)
    stale = match_cache.take(match.pk)
    assert stale is not None
    assert move(match, players).ok  # no copy here: the locked way (as another process)
    assert len(locked_reads) == 1
    match_cache.take(match.pk)
    match_cache.keep(*stale)  # this process still holds the older copy
    version = fresh(match).version
    seat, action = acting(match)
    # The version the client saw is current; this process's copy is behind it: only the
    # row's version can tell.
    result = do_command(match.pk, players[seat], {"action": action, "version": version})
    assert result.ok, result
    assert len(locked_reads) == 2
    assert fresh(match).version > version
    seqs = list(MatchEvent.objects.filter(match=match).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))  # nothing written twice or skipped
    assert_log_reproduces(match)


def test_a_row_changed_without_a_new_version_is_not_written_over(players,
                                                                 locked_reads) -> None:
    """Staff set a status by hand (no new version): the copy's write fails on the status,
    and the locked way answers from the row."""
    match = do_create_match(*players, rated=False)
    start(match, players)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    before = fresh(match)
    result = move(match, players)
    assert (result.ok, result.code) == (False, "over")
    after = fresh(match)
    assert (after.version, bytes(after.state)) == (before.version, bytes(before.state))
    assert len(locked_reads) == 1


def test_a_client_ahead_of_the_copy_is_served_from_the_database(players, locked_reads) -> None:
    match = do_create_match(*players, rated=False)
    start(match, players)
    stale = match_cache.take(match.pk)
    assert stale is not None
    assert move(match, players).ok
    match_cache.take(match.pk)
    match_cache.keep(*stale)
    calls = len(locked_reads)
    assert move(match, players).ok  # the client's version is past the copy's
    assert len(locked_reads) == calls + 1
    assert_log_reproduces(match)


def test_a_refused_command_changes_nothing_and_is_answered_the_locked_way(players,
                                                                          locked_reads) -> None:
    match = do_create_match(*players, rated=False)
    start(match, players)
    seat, _action = acting(match)
    before = fresh(match)
    result = do_command(match.pk, players[seat],
                        {"action": {"seat": seat, "type": "bid", "amount": 10_000},
                         "version": before.version})
    assert (result.ok, result.code) == (False, "illegal")
    stale = do_command(match.pk, players[seat], {"action": _action, "version": 0})
    assert (stale.ok, stale.code) == (False, "stale")
    after = fresh(match)
    assert (after.version, bytes(after.state)) == (before.version, bytes(before.state))
    assert len(locked_reads) == 2
    assert move(match, players).ok  # and the match goes on
    assert_log_reproduces(match)


def test_a_match_ends_the_locked_way(players, locked_reads) -> None:
    match = do_create_match(*players, rated=True)
    start(match, players)
    seat, _ = acting(match)
    result = do_command(match.pk, players[seat], {"action": {"seat": seat, "type": "resign"}})
    assert result.ok, result
    m = fresh(match)
    assert (m.status, m.winner, m.reason) == (Match.Status.FINISHED, 1 - seat, "resign")
    assert m.rating_seq is not None  # the rating was applied with the result
    assert len(locked_reads) == 1
    assert match_cache.take(match.pk) is None  # a finished match leaves no copy
    assert_log_reproduces(match)


def test_copies_are_bounded(players, monkeypatch) -> None:
    monkeypatch.setattr(match_cache, "MATCH_CACHE_SIZE", 2)
    match_cache.clear()
    matches = [do_create_match(*players, rated=False) for _ in range(3)]
    assert match_cache.take(matches[0].pk) is None  # the oldest went first
    assert match_cache.take(matches[1].pk) is not None
    assert match_cache.take(matches[2].pk) is not None


def test_a_copy_left_unused_goes(players, monkeypatch) -> None:
    """A copy nobody uses (a match created here whose sockets went to another process)
    is dropped once it has been idle for MATCH_CACHE_IDLE_S; one in use stays."""
    clock = [1000.0]
    monkeypatch.setattr(match_cache.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(match_cache, "MATCH_CACHE_IDLE_S", 120)
    match_cache.clear()
    idle = do_create_match(*players, rated=False)
    clock[0] += 60
    busy = do_create_match(*players, rated=False)
    clock[0] += 61  # idle: 121 s unused; busy: 61 s
    match_cache.keep(*match_cache.take(busy.pk))  # a command on busy puts its copy back
    assert match_cache.take(idle.pk) is None
    assert match_cache.take(busy.pk) is not None


@pytest.mark.parametrize("seed", [5])
def test_a_whole_match_mixing_both_paths_replays(players, settings, seed) -> None:
    """Random moves, with the copy now and then lost or gone stale: the log always
    reproduces the match, and the invariants hold after every move."""
    settings.TEST_DEALS_SEED = f"cache-{seed}"
    rng = random.Random(seed)
    match_cache.clear()
    match = do_create_match(*players, rated=True)
    stale: Any = None
    for _ in range(600):  # a dozen hands or so
        current = fresh(match)
        assert sum(current.scores) == 300 and min(current.scores) >= 0
        if current.status != Match.Status.ACTIVE:
            break
        roll = rng.random()
        if roll < 0.1:
            match_cache.drop(match.pk)
        elif roll < 0.2:
            stale = match_cache.take(match.pk) or stale
        elif roll < 0.3 and stale is not None:
            match_cache.take(match.pk)
            match_cache.keep(*stale)
        engine = load_engine(current)
        seat = next(s for s in rng.sample([0, 1], 2) if engine.view(s)["legal"])
        action = pick(engine.view(seat)["legal"], rng)
        data: dict[str, Any] = {"action": action, "version": current.version}
        result = do_command(match.pk, players[seat], data)
        assert result.ok, (action, result)
    assert load_engine(fresh(match)).view(0)["hands_played"] > 3
    assert_log_reproduces(match)


def test_a_grace_period_gets_no_task_and_the_sweep_ends_it(players, monkeypatch,
                                                           settings) -> None:
    """Deadline tasks are for running clocks; the end of a Continue grace period (which
    the players nearly always end first) is the beat sweep's, at its exact time."""
    from games import tasks

    scheduled: list[float] = []
    monkeypatch.setattr("games.play.services.schedule_deadline",
                        lambda match_id, deadline: scheduled.append(deadline))
    match = do_create_match(*players, rated=False, rules={"grace_s": 30})
    created = fresh(match)
    assert created.deadline_at == pytest.approx(created.started_wall + 30)
    assert scheduled == []  # only the sweep looks at the grace end
    assert tasks.sweep_overdue() == 0
    monkeypatch.setattr(tasks.time, "time", lambda: created.started_wall + 31)
    assert tasks.sweep_overdue() == 1
    engine = load_engine(fresh(match))
    assert engine.clock.started_us == 30_000_000  # the clock started at the grace end
    assert scheduled == [pytest.approx(fresh(match).deadline_at)]  # a task for the clock


def test_a_started_clock_gets_its_task(players, monkeypatch) -> None:

    scheduled: list[float] = []
    monkeypatch.setattr("games.play.services.schedule_deadline",
                        lambda match_id, deadline: scheduled.append(deadline))
    match = do_create_match(*players, rated=False)
    start(match, players)
    assert scheduled == [pytest.approx(fresh(match).deadline_at)]
