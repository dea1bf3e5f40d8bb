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


def test_a_deadline_keeps_room_for_the_iteration_under_way() -> None:
    clock = [0.0]
    budget = Budget(deadline=1.0, now=lambda: clock[0])
    assert not budget.spent(0)  # the search begins at 0
    clock[0] = 0.7  # 7 iterations of 0.1: two more and 1% of 0.7 end by 0.907
    assert not budget.spent(7)
    clock[0] = 0.8  # 8 iterations of 0.1: two more and 1% of 0.8 would pass 1.0
    assert budget.spent(8)
    clock[0] = 0.5
    assert not Budget(deadline=1.0, now=lambda: clock[0]).spent(1)  # no start seen: as before


def test_a_budget_used_twice_keeps_its_first_start() -> None:
    clock = [0.0]
    budget = Budget(deadline=10.0, now=lambda: clock[0])
    budget.spent(0)
    clock[0] = 5.0
    budget.spent(0)
    assert budget.started == 0.0
