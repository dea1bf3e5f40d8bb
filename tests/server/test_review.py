"""The game review on the server: a finished domino match asks for its review after the
commit, the task stores it with its progress, GET /api/matches/<id>/review answers it
(404 for a game without reviews, 409 while the match runs), and the task is idempotent."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games import tasks
from games.models import Match, MatchReview
from games.play import review
from games.play.services import do_command, do_create_match
from games.play.store import load_engine, plugin_of
from tests.factories import make_match

pytestmark = pytest.mark.django_db
DEALS_SEED = "review"


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The review tasks sent (their match ids), instead of sending them: the tests run
    each one themselves, in this process, as the worker would."""
    ids: list[str] = []

    def send_task(name: str, args: list[Any], **options: Any) -> None:
        if name == review.REVIEW_TASK:  # (the clocks' deadline tasks are not run here)
            ids.append(args[0])

    monkeypatch.setattr(review.current_app, "send_task", send_task)
    return ids


def users(*names: str) -> list[User]:
    return [User.objects.create_user(name) for name in names]


def play_out(match: Match, seat_users: list[User]) -> Match:
    """Every seat plays the game's own computer player until the match ends."""
    plugin = plugin_of(match)
    rng = random.Random(5)
    for _ in range(2000):
        current = Match.objects.get(pk=match.pk)
        if current.status != Match.Status.ACTIVE:
            return current
        engine = load_engine(current)
        for seat in range(current.seat_count):
            action = plugin.bot_action(plugin.view(engine, seat), rng)
            if action is not None:
                result = do_command(current.pk, seat_users[seat],
                                    {"action": action, "version": current.version})
                assert result.ok, (action, result)
                break
    raise AssertionError("the match did not end")


def test_a_finished_match_is_reviewed_after_the_commit(
        sent: list[str], django_capture_on_commit_callbacks: Any) -> None:
    ann, bob = users("ann", "bob")
    match = do_create_match(ann, bob, game="fives", rated=False, rules={"target": 100})
    api = Client()
    answer = api.get(f"/api/matches/{match.pk}/review")
    assert (answer.status_code, answer.json()["code"]) == (409, "running")
    with django_capture_on_commit_callbacks(execute=True):
        done = play_out(match, [ann, bob])
    assert done.status == Match.Status.FINISHED
    assert sent == [str(match.pk)]  # asked for once, after the commit
    row = MatchReview.objects.get(match=match)
    assert (row.status, row.done, row.total, row.result) == ("queued", 0, None, None)

    queued = api.get(f"/api/matches/{match.pk}/review").json()
    assert (queued["status"], queued["done"], queued["total"]) == ("queued", 0, None)
    assert "decisions" not in queued and sent == [str(match.pk)]  # not asked again

    tasks.review_match(str(match.pk))  # what the worker runs
    row.refresh_from_db()
    assert row.status == "done" and row.finished_at is not None
    assert row.total == row.done == len(row.result["decisions"]) > 0

    data = api.get(f"/api/matches/{match.pk}/review").json()
    assert data["ok"] and data["status"] == "done" and data["game"] == "fives"
    assert data["players"] == ["ann", "bob"]
    assert (data["done"], data["total"]) == (row.total, row.total)
    frames = api.get(f"/api/matches/{match.pk}/frames").json()["frames"]
    for decision in data["decisions"]:
        assert {"seat", "action_index", "hand", "played", "played_points", "best",
                "best_points", "loss", "mistake", "frame"} <= set(decision)
        shown = frames[decision["frame"]]["action"]
        assert all(shown[k] == v for k, v in decision["played"].items())
    assert [s["seat"] for s in data["summary"]] == [0, 1]

    before = row.result
    assert review.run_review(match.pk) is False  # done: the task does nothing again
    row.refresh_from_db()
    assert row.result == before


def test_progress_is_written_as_the_review_goes(
        sent: list[str], django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bob = users("ann", "bob")
    match = do_create_match(ann, bob, game="fives", rated=False, rules={"target": 100})
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, [ann, bob])
    seen: list[tuple[str, int, int | None]] = []
    real = review.review

    def watched(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
        def spy(done: int, total: int) -> None:
            progress(done, total)
            row = MatchReview.objects.get(match=match)
            seen.append((row.status, row.done, row.total))
        return real(*args, progress=spy, **kwargs)

    monkeypatch.setattr(review, "review", watched)
    monkeypatch.setattr(review, "PROGRESS_EVERY_S", 0.0)
    assert review.run_review(match.pk)
    total = seen[-1][2]
    assert total is not None and total > 2
    assert seen[0] == ("running", 0, total)
    assert [done for _, done, _ in seen] == list(range(total + 1))
    assert all(status == "running" for status, _, _ in seen)


def test_a_stale_review_is_asked_for_again_and_a_running_one_is_left_alone(
        sent: list[str]) -> None:
    ann, bob = users("ann", "bob")
    match = make_match(ann, bob, game="fives", status=Match.Status.FINISHED, winner=0)
    data = Client().get(f"/api/matches/{match.pk}/review").json()  # from before reviews
    assert data["status"] == "queued" and sent == [str(match.pk)]
    row = MatchReview.objects.get(match=match)
    row.status, row.started_at = MatchReview.Status.RUNNING, timezone.now()
    row.save()
    assert review.run_review(match.pk) is False  # another worker runs it
    Client().get(f"/api/matches/{match.pk}/review")
    assert len(sent) == 1
    MatchReview.objects.filter(pk=row.pk).update(started_at=timezone.now() - review.STALE * 2)
    data = Client().get(f"/api/matches/{match.pk}/review").json()
    assert data["status"] == "queued" and len(sent) == 2


def test_no_review_where_there_is_none(sent: list[str]) -> None:
    ann, bob = users("ann", "bob")
    dice = make_match(ann, bob, game="dice", status=Match.Status.FINISHED, winner=0)
    aborted = make_match(ann, bob, game="fives", status=Match.Status.ABORTED)
    for match in (dice, aborted):
        answer = Client().get(f"/api/matches/{match.pk}/review")
        assert (answer.status_code, answer.json()["code"]) == (404, "no_review")
    answer = Client().get("/api/matches/00000000-0000-0000-0000-000000000000/review")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    answer = Client().post(f"/api/matches/{dice.pk}/review")
    assert answer.status_code == 405
    assert sent == [] and not MatchReview.objects.exists()
