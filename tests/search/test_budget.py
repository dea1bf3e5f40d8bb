"""A search's budget (``games/search/budget.py``): iterations or a deadline, and shares."""

from __future__ import annotations

import pytest

from games.search.budget import Budget


def test_a_share_of_iterations() -> None:
    assert Budget(iterations=200).share(0.25) == Budget(iterations=50)
    assert Budget(iterations=2).share(0.25).iterations == 1  # one always runs


def test_a_share_of_the_time_left_may_differ_from_the_share_of_iterations() -> None:
    clock = [10.0]
    budget = Budget(deadline=14.0, now=lambda: clock[0])
    assert budget.share(0.5).deadline == pytest.approx(12.0)
    smaller = budget.share(0.25, 0.125)
    assert smaller.deadline == pytest.approx(10.5)
    assert not smaller.spent(1)
    clock[0] = 10.5
    assert smaller.spent(1) and not budget.spent(1)


def test_a_deadline_needs_the_callers_clock() -> None:
    with pytest.raises(ValueError):
        Budget(deadline=1.0)
