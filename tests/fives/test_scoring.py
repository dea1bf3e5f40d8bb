"""Scoring during play: the source's worked examples a-d, the cross on and off, bonuses."""

from __future__ import annotations

import pytest

from games.fives.rules import Rules
from games.fives.scoring import (
    fish_winner,
    hand_bonus,
    lot_leader,
    placement_points,
    ranks_by_score,
    round_to_five,
)
from games.fives.state import FivesState

from .helpers import places, play, start, tiles

CROSS = Rules(cross=True)

# The source's examples: A leads and plays 3-5, 5-4, 2-5; B plays 5-0, 0-2, 2-2, 3-3.
A_HAND = "5-5 3-5 4-5 2-5 1-1 1-2 1-3"
B_HAND = "0-5 0-2 2-2 3-3 1-4 1-5 1-6"
EXAMPLE_MOVES = [
    "5-5",  # a
    "0-5>5-5:line_a",  # b
    "3-5>5-5:line_b",  # c
    "0-2>0-5:low",
    "4-5>5-5:branch_a",  # d: four moves later
    "2-2>0-2:high",
    "2-5>2-2:line_b",
    "3-3>3-5:low",
]


@pytest.fixture
def game() -> FivesState:
    return start(A_HAND, B_HAND, rules=CROSS)


class TestSourceExamples:
    def test_a_lead_5_5_scores_10(self, game: FivesState) -> None:
        assert play(game, "5-5") == [10]
        assert game.scores == [10, 0]
        assert game.board.spinner >= 0  # the first double is the cross
        # Its two long sides take tiles first.
        assert places(game) == {"5-5:line_a", "5-5:line_b"}

    def test_b_5_0_scores_0_plus_5_plus_5(self, game: FivesState) -> None:
        assert play(game, *EXAMPLE_MOVES[:2]) == [10, 10]
        assert game.board.ends_sum == 10
        # The settled rule (as Spectacular Bid's spinner): the short sides open only once
        # both long sides are occupied, so the source's "three sides of 5" are the free
        # long side now and the two short sides later.
        assert places(game) == {"5-5:line_b", "0-5:low"}

    def test_c_short_sides_do_not_count(self, game: FivesState) -> None:
        assert play(game, *EXAMPLE_MOVES[:3]) == [10, 10, 0]
        assert game.board.ends_sum == 3  # 3 + 0: the cross's unplayed sides count nothing
        assert play(game, EXAMPLE_MOVES[3]) == [5]  # 0-2 on the 0: 3 + 2
        assert places(game) == {"5-5:branch_a", "5-5:branch_b", "3-5:low", "0-2:high"}
        assert game.scores == [10, 15]

    def test_d_four_ends_make_15(self, game: FivesState) -> None:
        points = play(game, *EXAMPLE_MOVES)
        assert points == [10, 10, 0, 5, 0, 0, 0, 15]  # 4 + 5 + 3 + 3
        assert game.board.ends_sum == 15
        # Four open ends: the cross's bottom, 3-3, the 4 and the 5; the doubles 2-2 and
        # 3-3 are ordinary (no side places of their own).
        assert places(game) == {"5-5:branch_b", "3-3:line_b", "4-5:low", "2-5:high"}
        assert game.scores == [10, 30]


class TestCrossOff:
    def test_double_led_alone_counts_both_halves(self) -> None:
        game = start(A_HAND, B_HAND)
        assert play(game, "5-5") == [10]
        assert game.board.spinner < 0
        # One side joined: still an open end worth both halves.
        assert play(game, "0-5>5-5:line_a") == [10]
        # Both sides joined: 0.
        assert play(game, "3-5>5-5:line_b") == [0]
        assert game.board.ends_sum == 3
        assert places(game) == {"0-5:low", "3-5:low"}  # never any side places

    def test_every_double_is_ordinary(self) -> None:
        game = start("3-6 2-2 0-1 0-2 0-3 0-4 0-5", "6-6 1-2 1-3 1-4 1-5 1-6 0-6")
        assert play(game, "3-6", "6-6>3-6:high") == [0, 15]  # 3 + 12
        play(game, "0-3>3-6:low")
        play(game, "0-6>6-6:line_b")
        assert places(game) == {"0-3:low", "0-6:low"}

    def test_double_at_an_end_counts_both_halves(self) -> None:
        game = start("1-6 0-1 0-2 0-3 0-4 0-5 2-3", "6-6 1-2 1-3 1-4 1-5 2-2 0-6")
        assert play(game, "1-6", "6-6>1-6:high") == [0, 0]  # 1 + 12 = 13
        assert game.board.ends_sum == 13


class TestCrossOn:
    def test_a_later_double_is_the_cross(self) -> None:
        game = start("3-6 2-2 0-1 0-2 0-3 0-4 0-5", "6-6 1-2 1-3 1-4 1-5 1-6 0-6",
                     rules=CROSS)
        assert play(game, "3-6", "6-6>3-6:high") == [0, 15]
        assert places(game) == {"3-6:low", "6-6:line_b"}
        play(game, "0-3>3-6:low", "0-6>6-6:line_b")
        # Both long sides taken: now the short sides open; they count once played.
        assert "6-6:branch_a" in places(game) and "6-6:branch_b" in places(game)
        assert game.board.ends_sum == 0
        assert play(game, "0-2>0-3:low") == [0]  # 2 + 0
        assert play(game, "1-6>6-6:branch_a") == [0]  # 2 + 0 + 1 = 3

    def test_later_doubles_are_ordinary(self) -> None:
        game = start("5-5 0-1 0-2 0-3 0-4 1-1 2-3", "0-5 1-5 1-2 1-3 1-4 1-6 2-2",
                     rules=CROSS)
        play(game, "5-5", "0-5>5-5:line_a", "0-1>0-5:low", "1-5>5-5:line_b", "1-1>0-1:high")
        assert "1-1:branch_a" not in places(game)
        assert "1-1:line_b" in places(game)


class TestArithmetic:
    @pytest.mark.parametrize(("points", "rounded"), [
        (0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (7, 5), (8, 10), (17, 15), (18, 20),
        (22, 20), (23, 25),
    ])
    def test_round_to_five(self, points: int, rounded: int) -> None:
        assert round_to_five(points) == rounded

    def test_bonus_is_rounded_then_divided_by_five(self) -> None:
        assert hand_bonus([0, 23], 0, full_record=False) == 5  # 23 -> 25 -> 5
        assert hand_bonus([0, 23], 0, full_record=True) == 25
        assert hand_bonus([0, 3], 0, full_record=False) == 1  # 3 -> 5 -> 1
        assert hand_bonus([0, 2], 0, full_record=True) == 0
        # Four players: the other hands are summed first, then rounded.
        assert hand_bonus([4, 0, 6, 7], 1, full_record=True) == 15  # 17 -> 15
        assert hand_bonus([4, 0, 6, 7], 1, full_record=False) == 3

    def test_placement_points(self) -> None:
        assert [placement_points(s) for s in (0, 3, 5, 10, 12, 15, 20)] == [0, 0, 5, 10, 0, 15, 20]

    def test_fish_winner_and_tie(self) -> None:
        assert fish_winner([4, 18]) == 0
        assert fish_winner([9, 9]) is None
        assert fish_winner([10, 3, 3, 12]) is None
        assert fish_winner([10, 3, 4, 12]) == 1

    def test_lot_order(self) -> None:
        assert lot_leader(tiles("1-2 0-3")) == 1  # equal sums: the lower smaller half
        assert lot_leader(tiles("2-5 0-1 3-3 1-6")) == 1
        assert lot_leader(tiles("6-6 0-0")) == 1

    def test_ranks(self) -> None:
        assert ranks_by_score([10, 30, 20, 30]) == [4, 1, 3, 1]
        assert ranks_by_score([10, 30, 20, 30], last=1) == [3, 4, 2, 1]
        assert ranks_by_score([50, 0], last=0) == [2, 1]
