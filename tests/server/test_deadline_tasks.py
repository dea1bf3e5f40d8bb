"""One pending deadline task per match: when a move sends a new one, and when it does not."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from games.play import deadlines as tasks


@pytest.fixture
def sent(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The deadline tasks sent (their ETAs as wall times), instead of sending them."""
    etas: list[float] = []

    def send_task(name: str, args: tuple[Any, ...], eta: Any, **options: Any) -> None:
        assert name == "games.tasks.check_deadline"
        etas.append(eta.timestamp())

    monkeypatch.setattr(tasks.current_app, "send_task", send_task)
    tasks._known_pending.clear()
    return etas


def test_a_later_deadline_sends_nothing_while_a_task_is_pending(sent: list[float]) -> None:
    match_id = str(uuid.uuid4())
    now = time.time()
    tasks.schedule_deadline(match_id, now + 10)
    tasks.schedule_deadline(match_id, now + 12)  # the pending task re-arms when it fires
    assert len(sent) == 1 and sent[0] == pytest.approx(now + 10, abs=0.01)


def test_the_process_remembers_a_pending_task_without_asking_redis(
        sent: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    match_id = str(uuid.uuid4())
    now = time.time()
    tasks.schedule_deadline(match_id, now + 10)

    def no_redis() -> None:
        raise AssertionError("Redis was asked although this process knew the pending task")

    monkeypatch.setattr("games.live.heartbeat.redis_client", no_redis)
    tasks.schedule_deadline(match_id, now + 11)
    assert len(sent) == 1


def test_an_earlier_deadline_sends_a_new_task(sent: list[float]) -> None:
    match_id = str(uuid.uuid4())
    now = time.time()
    tasks.schedule_deadline(match_id, now + 10)
    tasks.schedule_deadline(match_id, now + 4)
    assert [round(eta - now) for eta in sent] == [10, 4]


def test_another_process_learns_the_pending_task_from_redis(sent: list[float]) -> None:
    match_id = str(uuid.uuid4())
    now = time.time()
    tasks.schedule_deadline(match_id, now + 10)
    tasks._known_pending.clear()  # as if the next move reached the other web process
    tasks.schedule_deadline(match_id, now + 11)
    assert len(sent) == 1
    assert tasks._known_pending[match_id] == pytest.approx(now + 10, abs=0.01)


def test_a_fired_task_is_forgotten_so_the_next_move_arms_a_new_one(sent: list[float]) -> None:
    match_id = str(uuid.uuid4())
    now = time.time()
    tasks.schedule_deadline(match_id, now + 10)
    tasks.forget_pending(match_id)  # what the task does first when it runs
    tasks.schedule_deadline(match_id, now + 12)
    assert len(sent) == 2


def test_a_remembered_task_is_not_trusted_just_before_its_time(sent: list[float]) -> None:
    """A task may fire a little early; near its time only Redis (which it clears) is asked."""
    match_id = str(uuid.uuid4())
    now = time.time()
    tasks._known_pending[match_id] = now + tasks.KNOWN_MARGIN_S / 2  # about to fire
    tasks.schedule_deadline(match_id, now + 10)  # Redis knows of no pending task
    assert len(sent) == 1
