"""The web tier's heartbeat as runs of beats (games/live/heartbeat.py), against a real Redis."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from games.live import heartbeat

GAP = 5.0
T0 = 1_700_000_000.0  # beats in the past: no live web process's run falls among them


@pytest.fixture
def client(redis_url: str, settings: Any, monkeypatch: Any) -> Iterator[Any]:
    settings.OUTAGE_ANNULS = True
    settings.OUTAGE_GAP_S = GAP
    # Keys of this test's own: a live web process elsewhere on this Redis (another test's
    # daphne, a developer's `make run`) keeps beating into the real ones.
    tag = uuid.uuid4().hex
    monkeypatch.setattr(heartbeat, "BEATS_KEY", f"test:{tag}:heartbeat-runs")
    monkeypatch.setattr(heartbeat, "LEGACY_BEATS_KEY", f"test:{tag}:heartbeats")
    redis = heartbeat.redis_client()
    yield redis
    redis.delete(heartbeat.BEATS_KEY, heartbeat.LEGACY_BEATS_KEY)


def beat_every(runs: heartbeat.Runs, start: float, end: float, step: float = 1.0) -> None:
    moment = start
    while moment <= end:
        heartbeat.beat(moment, runs)
        moment += step


def test_steady_beats_are_one_member(client: Any) -> None:
    beat_every(heartbeat.Runs(), T0, T0 + 600)
    assert client.zrange(heartbeat.BEATS_KEY, 0, -1, withscores=True) == [
        (f"{os.getpid()}:{T0:.6f}".encode(), T0 + 600)]
    assert not heartbeat.had_outage(T0 + 10, T0 + 590)


def test_a_stall_longer_than_the_gap_starts_a_new_run_and_is_an_outage(client: Any) -> None:
    runs = heartbeat.Runs()
    beat_every(runs, T0, T0 + 100)
    beat_every(runs, T0 + 100 + GAP + 1, T0 + 200)
    assert client.zcard(heartbeat.BEATS_KEY) == 2
    assert heartbeat.had_outage(T0 + 50, T0 + 150)
    assert not heartbeat.had_outage(T0 + 10, T0 + 90)
    assert not heartbeat.had_outage(T0 + 120, T0 + 190)
    # A clock that ran past the last beat by more than the gap: nobody could answer.
    assert heartbeat.had_outage(T0 + 150, T0 + 200 + GAP + 1)
    assert not heartbeat.had_outage(T0 + 150, T0 + 200 + GAP - 1)


def test_a_pause_within_the_gap_keeps_the_run(client: Any) -> None:
    runs = heartbeat.Runs()
    beat_every(runs, T0, T0 + 100)
    beat_every(runs, T0 + 100 + GAP - 0.5, T0 + 200)
    assert client.zcard(heartbeat.BEATS_KEY) == 1
    assert not heartbeat.had_outage(T0 + 50, T0 + 150)


def test_another_process_covers_a_stall(client: Any) -> None:
    stalled = heartbeat.Runs()
    beat_every(stalled, T0, T0 + 100)
    beat_every(stalled, T0 + 150, T0 + 200)
    for moment in range(int(T0 + 90), int(T0 + 160)):  # a second process, its own member
        client.zadd(heartbeat.BEATS_KEY, {f"other:{T0 + 90:.6f}": float(moment)})
    assert client.zcard(heartbeat.BEATS_KEY) == 3
    assert not heartbeat.had_outage(T0 + 50, T0 + 180)


def test_a_failed_beat_does_not_extend_the_run(client: Any) -> None:
    runs = heartbeat.Runs()
    beat_every(runs, T0, T0 + 10)
    with pytest.MonkeyPatch.context() as down:
        down.setattr(client, "zadd", lambda *a, **k: (_ for _ in ()).throw(OSError("down")))
        with pytest.raises(OSError):
            heartbeat.beat(T0 + 20, runs)
    heartbeat.beat(T0 + 21, runs)
    assert client.zcard(heartbeat.BEATS_KEY) == 2  # the stretch from T0 + 10 is uncovered
    assert heartbeat.had_outage(T0 + 5, T0 + 25)


def test_beats_of_processes_from_before_the_runs_still_count(client: Any) -> None:
    client.zadd(heartbeat.LEGACY_BEATS_KEY,
                {f"{T0 + i:.6f}:1234": T0 + i for i in range(0, 101)})
    beat_every(heartbeat.Runs(), T0 + 100, T0 + 200)
    assert not heartbeat.had_outage(T0 + 10, T0 + 190)
    client.zremrangebyscore(heartbeat.LEGACY_BEATS_KEY, T0 + 40, T0 + 60)
    assert heartbeat.had_outage(T0 + 10, T0 + 190)
    assert client.ttl(heartbeat.LEGACY_BEATS_KEY) > 0  # it goes, once nothing writes it


def test_runs_older_than_kept_are_dropped(client: Any) -> None:
    beat_every(heartbeat.Runs(), T0, T0 + 10)
    beat_every(heartbeat.Runs(), T0 + heartbeat.KEEP_S + 20, T0 + heartbeat.KEEP_S + 30)
    assert client.zcard(heartbeat.BEATS_KEY) == 1
