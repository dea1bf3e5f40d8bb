"""What a simulation is worth to each seat (``games/search/reward.py``)."""

from __future__ import annotations

from games.search.reward import by_margin, by_rank, margins


def test_a_margin_is_against_the_best_other_seat() -> None:
    # Seat 0 scored 5 and set up seat 1's 15: a loss of 10, not a gain against the mean.
    assert margins([0, 0, 0, 0], [5, 15, 0, 0]) == [-10, 10, -15, -15]


def test_at_two_seats_the_margin_is_the_difference() -> None:
    assert margins([10, 20], [25, 30]) == [5, -5]


def test_a_seat_alone_scores_its_own_gain() -> None:
    assert margins([3], [10]) == [7.0]


def test_a_margin_reward_stays_between_a_loss_and_a_win() -> None:
    rewards = by_margin([500, 0], [0, 0])
    assert 0.0 < rewards[1] < 0.5 < rewards[0] < 1.0
    assert by_margin([0, 0], [0, 0]) == [0.5, 0.5]


def test_ranks_share_the_places_a_tie_covers() -> None:
    assert by_rank([1, 2]) == [1.0, 0.0]
    assert by_rank([1, 1]) == [0.5, 0.5]
    assert by_rank([1, 2, 2, 4]) == [1.0, 0.5, 0.5, 0.0]
