"""The board and its counting ends: every worked position of spec §4, and the spinner rules."""

from __future__ import annotations

import pytest

from games.dominoes.board import (
    BRANCH_A,
    BRANCH_B,
    HIGH,
    LINE_A,
    LINE_B,
    LOW,
    PORT_BY_NAME,
    PORT_NAMES,
    Board,
)
from games.dominoes.tiles import tile_from_name, tile_name


def places(board: Board) -> set[str]:
    """The open places as the spec writes them: ``"1-4:high"``."""
    return {f"{tile_name(t)}:{PORT_NAMES[p]}" for t, p, _ in board.places}


def place_values(board: Board) -> dict[str, int]:
    return {f"{tile_name(t)}:{PORT_NAMES[p]}": v for t, p, v in board.places}


def values(text: str) -> dict[str, int]:
    """``"1-4:high=4 1-4:low=1"`` -> each open place and the value it takes."""
    return {place: int(value) for place, value in (item.split("=") for item in text.split())}


def put(board: Board, tile: str, where: str | None = None) -> int:
    """Place ``tile`` at ``"target:port"`` (or as the opening tile); returns the sum.

    Checks on the way that the place was open and that ``sum_after`` predicted the sum.
    """
    code = tile_from_name(tile)
    if where is None:
        assert board.is_empty
        return board.place_opening(code)
    target_name, port_name = where.split(":")
    target, port = tile_from_name(target_name), PORT_BY_NAME[port_name]
    assert where in places(board), f"{where} is not open: {sorted(places(board))}"
    predicted = board.sum_after(code, target, port)
    total = board.place(code, target, port)
    assert total == predicted == board.ends_sum
    return total


def points(total: int) -> int:
    """What a placement scores (spec §4): the sum when it is a positive multiple of 5."""
    return total if total and total % 5 == 0 else 0


class TestWorkedPositions:
    """Spec §4, worked positions 1-8, played one after the other on the same board."""

    @pytest.fixture
    def board(self) -> Board:
        return Board(cross=True)

    def test_1_opening_non_double(self, board: Board) -> None:
        assert put(board, "1-4") == 5
        assert points(board.ends_sum) == 5
        assert place_values(board) == {"1-4:high": 4, "1-4:low": 1}

    def test_2_first_double_becomes_the_spinner(self, board: Board) -> None:
        put(board, "1-4")
        assert put(board, "1-1", "1-4:low") == 6
        assert points(6) == 0
        assert board.spinner == tile_from_name("1-1")
        assert place_values(board) == {"1-1:line_b": 1, "1-4:high": 4}

    def test_3_later_double_is_ordinary(self, board: Board) -> None:
        put(board, "1-4")
        put(board, "1-1", "1-4:low")
        assert put(board, "4-4", "1-4:high") == 10
        assert board.spinner == tile_from_name("1-1")
        assert places(board) == {"1-1:line_b", "4-4:line_b"}

    def test_4_to_8(self, board: Board) -> None:
        put(board, "1-4")
        put(board, "1-1", "1-4:low")
        put(board, "4-4", "1-4:high")
        # 4. [3|4] on 4-4:line_b attaches with its high: 2 + 3.
        assert put(board, "3-4", "4-4:line_b") == 5
        # 5. [1|2] on the spinner's second line: the spinner now counts 0.
        assert put(board, "1-2", "1-1:line_b") == 5
        assert place_values(board) == values("1-1:branch_a=1 1-1:branch_b=1 1-2:high=2 3-4:low=3")
        # 6. A branch: 2 + 5 + 3.
        assert put(board, "1-5", "1-1:branch_a") == 10
        # 7. An ordinary double on a branch, then covered: 2 + 10 + 3, then 0 + 2 + 3.
        assert put(board, "5-5", "1-5:high") == 15
        assert places(board) == {"1-1:branch_b", "1-2:high", "3-4:low", "5-5:line_b"}
        assert put(board, "0-5", "5-5:line_b") == 5
        # 8. The second branch: 0 + 2 + 3 + 3 = 8, no score.
        assert put(board, "1-3", "1-1:branch_b") == 8
        assert points(8) == 0
        assert places(board) == {"0-5:low", "1-2:high", "1-3:high", "3-4:low"}

    def test_attachment_ports(self, board: Board) -> None:
        """A non-double joins with its matching end; a double with its line_a."""
        put(board, "1-4")
        put(board, "1-1", "1-4:low")
        put(board, "4-4", "1-4:high")
        put(board, "3-4", "4-4:line_b")
        joined = {tile_name(link.tile): link for link in board.links}
        assert joined["1-1"].own_port == LINE_A and joined["1-1"].target_port == LOW
        assert joined["4-4"].own_port == LINE_A and joined["4-4"].target_port == HIGH
        assert joined["3-4"].own_port == HIGH and joined["3-4"].target_port == LINE_B
        assert joined["1-4"].own_port == -1  # the opening tile


class TestSeparateOpenings:
    def test_non_double_then_spinner(self) -> None:
        board = Board()
        assert put(board, "3-6") == 9
        assert put(board, "6-6", "3-6:high") == 15
        assert board.spinner == tile_from_name("6-6")
        assert place_values(board) == {"3-6:low": 3, "6-6:line_b": 6}

    def test_double_blank_alone(self) -> None:
        board = Board()
        assert put(board, "0-0") == 0
        assert points(0) == 0
        assert place_values(board) == {"0-0:line_a": 0, "0-0:line_b": 0}

    def test_double_two_alone_counts_four(self) -> None:
        board = Board()
        assert put(board, "2-2") == 4
        assert points(4) == 0

    def test_double_five_alone_counts_ten_not_twenty(self) -> None:
        board = Board()
        assert put(board, "5-5") == 10
        assert points(10) == 10

    def test_lone_opening_double_is_the_spinner(self) -> None:
        board = Board()
        put(board, "4-4")
        assert board.spinner == tile_from_name("4-4")
        assert places(board) == {"4-4:line_a", "4-4:line_b"}


class TestSpinner:
    def test_branches_only_after_both_lines(self) -> None:
        board = Board()
        assert put(board, "6-6") == 12
        assert places(board) == {"6-6:line_a", "6-6:line_b"}
        # One line taken: the spinner still counts 2v, no branch yet.
        assert put(board, "3-6", "6-6:line_a") == 15
        assert places(board) == {"3-6:low", "6-6:line_b"}
        # Both lines taken: the spinner counts 0 and its branches open (counting 0).
        assert put(board, "2-6", "6-6:line_b") == 5
        assert place_values(board) == values("3-6:low=3 2-6:low=2 6-6:branch_a=6 6-6:branch_b=6")
        assert put(board, "4-6", "6-6:branch_b") == 9
        assert put(board, "5-6", "6-6:branch_a") == 14
        assert places(board) == {"3-6:low", "2-6:low", "4-6:low", "5-6:low"}

    def test_spinner_placed_later_opens_branches_after_its_second_line(self) -> None:
        board = Board()
        put(board, "2-3")
        put(board, "3-3", "2-3:high")  # the first double: the spinner, one line taken
        assert board.spinner == tile_from_name("3-3")
        assert places(board) == {"2-3:low", "3-3:line_b"}
        put(board, "1-3", "3-3:line_b")
        assert places(board) == {"2-3:low", "1-3:low", "3-3:branch_a", "3-3:branch_b"}
        assert board.ends_sum == 2 + 1

    def test_ordinary_doubles_never_get_branches(self) -> None:
        board = Board()
        put(board, "6-6")
        put(board, "2-6", "6-6:line_a")
        assert put(board, "2-2", "2-6:low") == 12 + 4
        assert put(board, "1-2", "2-2:line_b") == 12 + 1
        assert places(board) == {"6-6:line_b", "1-2:low"}
        assert board.spinner == tile_from_name("6-6")

    def test_later_double_at_an_end_counts_both_halves(self) -> None:
        board = Board()
        put(board, "0-4")
        assert put(board, "4-4", "0-4:high") == 0 + 8
        assert board.spinner == tile_from_name("4-4")
        assert put(board, "0-0", "0-4:low") == 8  # ordinary double of blanks counts 0
        assert board.spinner == tile_from_name("4-4")
        assert places(board) == {"0-0:line_b", "4-4:line_b"}

    @pytest.mark.parametrize("port", [BRANCH_A, BRANCH_B])
    def test_branch_not_a_place_before_both_lines(self, port: int) -> None:
        board = Board()
        put(board, "5-5")
        put(board, "0-5", "5-5:line_a")
        spinner = tile_from_name("5-5")
        assert board.find_place(spinner, port) is None
        assert not board.has_place(spinner, port, 5)
        assert [p for p in board.places_for(tile_from_name("5-6")) if p[1] == port] == []


class TestNoCross:
    def test_no_spinner_ever(self) -> None:
        board = Board(cross=False)
        assert put(board, "6-6") == 12
        assert board.spinner == -1
        put(board, "3-6", "6-6:line_a")
        assert put(board, "2-6", "6-6:line_b") == 3 + 2  # both lines taken: the double is gone
        assert places(board) == {"3-6:low", "2-6:low"}
        put(board, "3-3", "3-6:low")
        assert board.spinner == -1
        assert places(board) == {"2-6:low", "3-3:line_b"}
        assert board.ends_sum == 2 + 6

    def test_lone_double_without_cross_counts_once(self) -> None:
        board = Board(cross=False)
        assert put(board, "5-5") == 10
        assert places(board) == {"5-5:line_a", "5-5:line_b"}
        assert put(board, "4-5", "5-5:line_a") == 10 + 4
        assert places(board) == {"4-5:low", "5-5:line_b"}

    def test_copy_is_independent(self) -> None:
        board = Board()
        put(board, "5-5")
        clone = board.copy()
        put(clone, "0-5", "5-5:line_a")
        assert places(board) == {"5-5:line_a", "5-5:line_b"}
        assert board.ends_sum == 10 and clone.ends_sum == 10
        assert len(board.links) == 1 and len(clone.links) == 2


def test_line_ports_are_named() -> None:
    assert [PORT_NAMES[p] for p in (HIGH, LOW, LINE_A, LINE_B, BRANCH_A, BRANCH_B)] == [
        "high",
        "low",
        "line_a",
        "line_b",
        "branch_a",
        "branch_b",
    ]
