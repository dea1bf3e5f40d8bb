"""Spectacular Bid, spec §1-§8, one rule at a time, through the Match's public API.

Positions are built from chosen deals (see helpers.py); a few whole hands were found
once by a search and are kept as fixed scripts.
"""

from __future__ import annotations

import json

import pytest

from games.dominoes.points import round_to_five
from games.dominoes.tiles import tile_from_name
from games.engine.protocol import Illegal, Outcome, Result
from games.spectacular_bid import actions as A
from games.spectacular_bid.rules import Rules
from games.spectacular_bid.state import Deal, DealError, Match

from .helpers import (
    DOMINO_BY_0,
    DOMINO_BY_0_SCRIPT,
    PLAIN_DEAL,
    after_domino,
    apply_ok,
    auction,
    code,
    legal_moves,
    make_deal,
    play,
    refused,
    start,
    start_next,
    tiles,
    us,
)

# The record example's deal: seat 0 holds [6|6], so it opens by hierarchy.
SIX_SIX = make_deal("6-6 1-4 2-3 0-5 3-3 1-1 2-6", "5-5 0-1 4-4 3-6 0-2 1-5 4-6")
ALL_NAMES = [f"{lo}-{hi}" for lo in range(7) for hi in range(lo, 7)]


def forced_steps(outcome: Outcome) -> list[tuple[int | None, str]]:
    return [(s.seat, A.action_type(s.action)) for s in outcome.steps if s.forced]


# ---------------------------------------------------------------------------------- §1


class TestPoints:
    def test_start_balances(self) -> None:
        match = Match()
        assert match.balances == [150, 150]
        assert sum(match.balances) == 300

    def test_a_score_moves_points_from_the_opponent(self) -> None:
        match = start(SIX_SIX)
        outcome = apply_ok(match, 1, "3-6>6-6:line_a")  # 12 + 3 = 15
        assert outcome.steps[-1].points == 15
        assert match.balances == [135, 165]

    def test_payment_capped_by_the_payers_balance_and_loss_at_zero_mid_hand(self) -> None:
        match = start(SIX_SIX, Rules(start_points=10))
        outcome = apply_ok(match, 1, "3-6>6-6:line_a")  # a 15-point gain against 10
        assert outcome.steps[-1].points == 10
        assert match.balances == [0, 20]
        assert match.result == Result(1, "points")
        assert match.hands_summary[0].end == "match_over"
        assert match.to_act() is None
        assert match.legal_actions(0) == match.legal_actions(1) == []
        assert refused(match, 0, "2-6>6-6:line_b") == "the match is over"

    def test_the_forced_opening_can_end_the_match(self) -> None:
        deal = make_deal("5-5 0-1 0-2 0-3 0-4 1-2 1-3", "0-0 1-1 2-2 3-3 4-4 2-3 2-4")
        match = start(deal, Rules(start_points=5))
        assert match.balances == [10, 0]
        assert match.result == Result(0, "points")


# ---------------------------------------------------------------------------------- §2


class TestDeal:
    def test_a_deal_is_seven_seven_and_fourteen_distinct_tiles(self) -> None:
        hands = (tiles("0-0 0-1 0-2 0-3 0-4 0-5 0-6"), tiles("1-1 1-2 1-3 1-4 1-5 1-6 2-2"))
        boneyard = [t for t in range(28) if t not in {*hands[0], *hands[1]}]
        Deal.checked(hands, boneyard)
        with pytest.raises(DealError):
            Deal.checked((hands[0][:6], [*hands[1], hands[0][6]]), boneyard)
        with pytest.raises(DealError):
            Deal.checked(hands, boneyard[:13])
        with pytest.raises(DealError):
            Deal.checked(hands, [*boneyard[:13], hands[0][0]])
        with pytest.raises(DealError):
            Deal.checked(hands, [*boneyard[:13], 28])

    def test_a_deal_is_due_only_between_hands(self) -> None:
        match = Match()
        assert match.needs_chance()
        match.deal(PLAIN_DEAL)
        assert not match.needs_chance()
        with pytest.raises(DealError):
            match.deal(PLAIN_DEAL)

    def test_views_show_only_the_seats_own_tiles(self) -> None:
        match = start(SIX_SIX)
        own = {0: set(["6-6", "1-4", "2-3", "0-5", "3-3", "1-1", "2-6"]) - {"6-6"},
               1: set(["5-5", "0-1", "4-4", "3-6", "0-2", "1-5", "4-6"])}
        boneyard = {name for name in ALL_NAMES if name not in own[0] | own[1] | {"6-6"}}
        for seat in (0, 1, None):
            text = json.dumps(match.view(seat))
            visible = own[seat] if seat is not None else set()
            for name in (own[0] | own[1] | boneyard) - visible:
                assert f'"{name}"' not in text, f"{name} leaks to {seat}"
            for name in visible:
                assert f'"{name}"' in text
        assert match.view(0)["hand"] == sorted(own[0], key=tile_from_name)


class TestHierarchyOpening:
    def test_highest_double_opens_and_is_forced(self) -> None:
        match = Match()
        match.deal(make_deal("4-4 0-1 0-2 0-3 0-4 1-2 1-3", "5-5 1-1 2-3 2-4 3-4 1-4 0-5"))
        apply_ok(match, 1, "continue", us(1))
        outcome = apply_ok(match, 0, "continue", us(2))
        assert forced_steps(outcome) == [(1, "play")]
        assert outcome.steps[-1].action == A.opening_code(tile_from_name("5-5"))
        assert outcome.steps[-1].points == 10  # the opening double scores (spec §9)
        assert match.balances == [140, 160]
        assert match.to_act() == 0
        assert match.hands_summary[0].opener == 1
        # The forced opening took no clock time: seat 0's fresh decision starts now.
        assert match.clock.running == 0 and match.clock.started_us == us(2)

    def test_a_double_in_the_boneyard_does_not_count(self) -> None:
        # [6|6] lies in the boneyard: the highest double held is [0|0].
        match = start(make_deal("0-0 1-2 1-3 1-4 2-3 2-4 3-4", "5-6 4-6 3-6 4-5 3-5 2-6 2-5"))
        assert match.board.links[0].tile == tile_from_name("0-0")
        assert match.to_act() == 1

    def test_no_double_highest_sum(self) -> None:
        match = start(make_deal("0-1 0-2 0-3 1-2 1-3 2-3 5-6", "0-4 0-5 0-6 1-4 1-5 2-4 4-6"))
        assert match.board.links[0].tile == tile_from_name("5-6")
        assert match.hands_summary[0].opener == 0

    @pytest.mark.parametrize("seat_of_one_six", [0, 1])
    def test_equal_sums_larger_half_wins(self, seat_of_one_six: int) -> None:
        # Only sums up to 7 in the hands, no doubles: [1|6] and [2|5] tie on 7.
        low = ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4", "1-5", "2-3", "2-4"]
        one_six = " ".join(["1-6", *low[:6]])
        two_five = " ".join(["2-5", *low[6:]])
        hands = (one_six, two_five) if seat_of_one_six == 0 else (two_five, one_six)
        match = start(make_deal(*hands, boneyard="3-4"))
        assert match.board.links[0].tile == tile_from_name("1-6")
        assert match.hands_summary[0].opener == seat_of_one_six
        assert match.to_act() == 1 - seat_of_one_six


# ---------------------------------------------------------------------------------- §3-4


class TestPlacementThroughTheMatch:
    def test_branches_of_the_spinner_only_after_both_lines(self) -> None:
        match = start(SIX_SIX)
        assert legal_moves(match, 1) == {
            "3-6>6-6:line_a", "3-6>6-6:line_b", "4-6>6-6:line_a", "4-6>6-6:line_b"}
        play(match, "3-6>6-6:line_a 2-6>6-6:line_b")
        assert legal_moves(match, 1) == {
            "4-6>6-6:branch_a", "4-6>6-6:branch_b", "0-2>2-6:low"}

    def test_turn_passes_after_a_double_and_after_a_score(self) -> None:
        match = start(SIX_SIX)
        assert match.to_act() == 1
        play(match, "3-6>6-6:line_a")  # scores 15
        assert match.to_act() == 0
        play(match, "3-3>3-6:low")  # a double
        assert match.to_act() == 1

    def test_sums_that_are_no_multiple_of_five_score_nothing(self) -> None:
        match = start(SIX_SIX)
        play(match, "4-6>6-6:line_a")  # 12 + 4 = 16
        play(match, "1-4>4-6:low")  # 12 + 1 = 13
        play(match, "1-5>1-4:low")  # 12 + 5 = 17
        play(match, "2-6>6-6:line_b")  # 5 + 2 = 7
        play(match, "5-5>1-5:high")  # 10 + 2 = 12
        play(match, "2-3>2-6:low")  # 10 + 3 = 13
        assert match.board.ends_sum == 13
        assert match.balances == [150, 150]


# ---------------------------------------------------------------------------------- §5


# Seat 0 holds [6|6] and nothing else with a six is in seat 1's hand.
NO_SIX_FOR_1 = make_deal(
    "6-6 0-0 0-1 0-2 0-3 0-4 0-5",
    "1-1 1-2 1-3 1-4 1-5 2-2 2-3",
    boneyard="2-4 2-5 4-6 3-6",
)


class TestTurn:
    def test_may_not_draw_holding_a_playable_tile(self) -> None:
        match = start(SIX_SIX)
        assert "draw" not in legal_moves(match, 1)
        assert refused(match, 1, "draw") == "you hold a playable tile, so you may not draw"

    def test_draw_until_playable_then_play_the_drawn_tile_at_once(self) -> None:
        match = start(NO_SIX_FOR_1)
        assert legal_moves(match, 1) == {"draw"}
        play(match, "draw")  # [2|4]: not playable, the turn goes on
        assert match.to_act() == 1 and legal_moves(match, 1) == {"draw"}
        play(match, "draw draw")  # [2|5], then [4|6]: playable
        assert legal_moves(match, 1) == {"4-6>6-6:line_a", "4-6>6-6:line_b"}
        assert refused(match, 1, "draw") == "play the tile you drew"
        assert refused(match, 1, "2-4>6-6:line_a") == "you must play the tile you drew"
        assert refused(match, 1, "1-2>6-6:line_a") == "you must play the tile you drew"
        assert match.view(1)["must_play"] == "4-6"
        assert "must_play" not in match.view(0)
        play(match, "4-6>6-6:line_b")
        assert match.to_act() == 0
        assert match.hands_summary[0].end is None
        assert match.view(0)["boneyard_count"] == 11

    def test_drawing_on_an_empty_board_is_refused(self) -> None:
        match = auction(0)
        play(match, "decline")
        assert refused(match, 0, "draw") == "open the hand with a tile"

    def test_pass_is_never_chosen(self) -> None:
        match = start(NO_SIX_FOR_1)
        reason = refused(match, 1, "pass")
        assert reason.startswith("a pass is never chosen")

    def test_forced_pass_after_the_last_draw(self) -> None:
        # Seat 0 holds all seven sixes: seat 1 draws the whole boneyard in vain.
        deal = make_deal("6-6 0-6 1-6 2-6 3-6 4-6 5-6", "0-0 0-1 0-2 0-3 0-4 0-5 1-1")
        match = start(deal)
        for _ in range(13):
            play(match, "draw")
        assert match.to_act() == 1
        outcome = apply_ok(match, 1, "draw", us(3))
        assert [A.action_type(s.action) for s in outcome.steps] == ["draw", "pass"]
        assert forced_steps(outcome) == [(1, "pass")]
        assert match.to_act() == 0
        assert match.clock.running == 0 and match.clock.started_us == us(3)
        assert match.clock.banks_us == [us(120), us(120)]
        assert match.view(0)["boneyard_count"] == 0
        # The next turn of seat 1 has tiles to play and nothing to draw.
        play(match, "0-6>6-6:line_a")
        assert "draw" not in legal_moves(match, 1)
        assert refused(match, 1, "draw") == "you hold a playable tile, so you may not draw"

    def test_forced_pass_at_the_start_of_a_turn(self) -> None:
        # Found by a search: after seat 0's [2|3], seat 1 can neither play nor draw.
        deal = make_deal(
            "2-2 1-5 3-3 1-2 3-4 0-2 2-3",
            "2-5 4-6 6-6 4-4 3-6 1-6 2-6",
            "2-4 4-5 0-3 0-4 0-1 3-5 1-1 1-3 1-4 5-6 0-0 0-6 0-5 5-5",
        )
        match = start(deal)
        play(match, "draw draw draw draw draw draw draw draw draw draw 5-6>6-6:line_b"
                    " 2-5>5-6:low 2-2>2-5:low 2-6>6-6:line_a 1-2>2-2:line_b 1-6>6-6:branch_b"
                    " 1-3>1-6:low 3-6>6-6:branch_a 3-3>3-6:low draw draw draw draw")
        seat = match.to_act()
        assert seat is not None
        outcome = apply_ok(match, seat, "2-3>3-3:line_b", us(1))
        assert forced_steps(outcome) == [(1 - seat, "pass")]
        assert outcome.steps[-1].now_us == us(1)
        assert match.to_act() == seat  # the hand goes on
        assert match.hands_summary[0].end is None
        assert match.clock.running == seat and match.clock.started_us == us(1)

    def test_playing_out_makes_the_jockey_and_the_next_hand_opens_by_auction(self) -> None:
        match = start(DOMINO_BY_0)
        play(match, DOMINO_BY_0_SCRIPT)
        summary = match.hands_summary[0]
        assert summary.end == "domino"
        assert match.result is None
        assert match.needs_chance() and match.to_act() is None
        assert match.balances == [150, 150]  # no bonus for the tiles left (spec §5)
        match.deal(PLAIN_DEAL)
        assert match.jockey == 0
        apply_ok(match, 0, "continue")
        apply_ok(match, 1, "continue")
        assert match.phase == "auction"
        assert match.to_act() == 1  # the non-jockey speaks first
        assert match.board.is_empty
        assert match.hands_summary[1].jockey == 0


# Blocked hands found by a search: (deal, moves, sums, settlement, lower seat).
BLOCKED = {
    "4 and 18 -> 20": (
        make_deal("5-5 2-3 5-6 1-6 1-3 1-1 0-0", "3-3 0-3 1-5 6-6 0-4 3-5 0-2",
                  "4-5 2-2 2-5 4-4 1-2 1-4 3-4 0-6 4-6 0-1 3-6 0-5 2-6 2-4"),
        "1-6>6-6:line_b 1-5>1-6:low 5-6>1-5:high draw draw draw draw draw draw draw draw"
        " 0-6>5-6:high 0-0>0-6:low 0-4>0-0:line_b draw 4-6>6-6:line_a 4-4>4-6:low draw draw"
        " 3-6>6-6:branch_a 1-4>4-4:line_b 1-1>1-4:low 3-5>3-6:low 0-1>1-1:line_b"
        " 4-5>3-5:high draw 0-5>0-1:low 3-4>4-5:low 2-3>3-4:low 2-5>2-3:low 5-5>0-5:high"
        " draw 2-6>6-6:branch_b draw 2-4>2-6:low",
        (4, 18), 20, 0,
    ),
    "17 -> 15": (
        make_deal("2-2 5-6 3-4 5-5 0-4 4-5 0-5", "0-2 1-2 1-1 1-3 0-3 0-0 0-6",
                  "3-3 2-5 3-5 6-6 3-6 2-6 1-4 1-5 1-6 4-4 4-6 2-4 2-3 0-1"),
        "draw draw 2-5>5-5:line_b 0-5>5-5:line_a 0-6>0-5:low 5-6>5-5:branch_b 0-2>2-5:low"
        " 4-5>5-5:branch_a 0-3>0-2:low 3-4>4-5:low 3-3>3-4:low draw 3-5>0-3:high"
        " 1-3>3-3:line_b draw 6-6>0-6:high 1-1>1-3:low draw 3-6>6-6:line_b 1-2>1-1:line_b"
        " 2-2>1-2:high draw 2-6>5-6:high draw draw 1-5>3-5:high draw 1-6>1-5:low draw draw"
        " 4-6>1-6:high draw 2-4>4-6:low draw 2-3>2-4:low draw",
        (17, 1), 15, 1,
    ),
    "3 and 13 -> 15": (
        make_deal("6-6 1-5 4-5 1-2 4-4 0-5 1-1", "0-4 3-5 1-3 1-6 5-5 2-4 1-4",
                  "3-6 0-6 0-2 0-0 0-3 2-5 0-1 3-4 4-6 2-3 3-3 5-6 2-6 2-2"),
        "1-6>6-6:line_b 1-2>1-6:low 2-4>1-2:high 4-5>2-4:high 5-5>4-5:high 1-5>5-5:line_b"
        " 1-4>1-5:low 4-4>1-4:high 0-4>4-4:line_b 0-5>0-4:low 3-5>0-5:high draw 3-6>3-5:low"
        " draw 0-6>3-6:high draw 0-2>0-6:low draw draw draw 2-5>0-2:high draw draw draw"
        " 4-6>6-6:line_a draw draw draw 5-6>6-6:branch_a 3-4>4-6:low 2-3>3-4:low draw"
        " 2-6>6-6:branch_b draw 2-2>2-3:low",
        (3, 13), 15, 0,
    ),
    "6 and 6 -> 0": (
        make_deal("2-4 0-2 1-4 6-6 4-4 1-6 4-6", "0-4 2-5 3-3 0-3 5-5 3-4 1-2",
                  "0-1 0-5 1-5 2-6 3-6 1-3 2-2 5-6 2-3 0-6 1-1 3-5 0-0 4-5"),
        "draw draw draw draw 2-6>6-6:line_b 1-6>6-6:line_a 1-5>1-6:low 4-6>6-6:branch_a"
        " 2-5>2-6:low 2-4>4-6:low 1-2>2-4:low 1-4>1-2:low 3-4>1-4:high draw 3-6>3-4:low"
        " 5-5>1-5:high draw draw draw 5-6>2-5:high 0-5>5-5:line_b 0-2>0-5:low draw"
        " 2-3>0-2:high 1-3>2-3:high 0-1>1-3:low draw 0-6>5-6:high 0-3>0-6:low draw draw"
        " 3-5>0-3:high 0-4>0-1:low 4-4>0-4:high draw draw 4-5>4-4:line_b",
        (6, 6), 0, None,
    ),
    "0 and 2 -> 0": (
        make_deal("1-6 2-6 1-5 0-4 0-2 5-5 0-3", "1-1 3-3 4-4 4-5 2-4 0-6 0-1",
                  "1-3 3-4 1-2 6-6 2-5 0-0 1-4 2-2 0-5 3-5 5-6 3-6 2-3 4-6"),
        "4-5>5-5:line_b 1-5>5-5:line_a 2-4>4-5:low 1-6>1-5:low 0-6>1-6:high 2-6>2-4:low"
        " 0-1>0-6:low draw 1-3>0-1:high 3-3>1-3:high 0-3>3-3:line_b draw draw draw"
        " 6-6>2-6:high 0-4>0-3:low 3-4>0-4:high draw 2-5>5-5:branch_b 1-2>2-5:low draw draw"
        " 1-4>1-2:low 4-4>1-4:high draw draw 0-5>5-5:branch_a draw 3-5>3-4:low 0-2>0-5:low"
        " draw 5-6>3-5:high 2-2>0-2:high draw 3-6>6-6:line_b draw 2-3>3-6:low draw"
        " 4-6>5-6:high",
        (0, 2), 0, 0,
    ),
}


class TestBlockedHand:
    """Spec §5. The rounding example 3 -> 5 cannot come from a blocked hand: a lower
    total of 0-2 against 3 would leave an odd number of free ends of some value (the
    held non-doubles would have to pair up every value they show, and the smallest such
    set, [0|1] [0|2] [1|2], already totals 6). It is checked on the rounding itself.
    """

    @pytest.mark.parametrize("name", list(BLOCKED))
    def test_settlement(self, name: str) -> None:
        deal, script, sums, settlement, lower = BLOCKED[name]
        match = start(deal)
        moves = script.split()
        play(match, " ".join(moves[:-1]))
        before = list(match.balances)
        seat = match.to_act()
        assert seat is not None
        outcome = apply_ok(match, seat, moves[-1], us(7))
        summary = match.hands_summary[0]
        assert summary.end == "blocked"
        assert summary.sums == sums
        assert summary.settlement == settlement
        # Both players passed in succession; the passes were the server's.
        passes = [s for s in outcome.steps if s.action == A.PASS]
        assert len(passes) == 2 and all(s.forced for s in passes)
        assert {s.seat for s in passes} == {0, 1}
        # The settlement moved exactly that much, to the lower hand, after the last play.
        scored = outcome.steps[0].points
        after_play = list(before)
        after_play[seat] += scored
        after_play[1 - seat] -= scored
        expected = list(after_play)
        if lower is not None:
            expected[lower] += settlement
            expected[1 - lower] -= settlement
        assert match.balances == expected
        assert match.clock.running is None
        # The next hand opens by hierarchy: there is no jockey.
        start_next(match, SIX_SIX, us(8))
        assert match.jockey is None and match.phase == "play"
        assert match.board.links[0].tile == tile_from_name("6-6")

    @pytest.mark.parametrize(
        ("total", "rounded"), [(17, 15), (18, 20), (3, 5), (2, 0), (0, 0), (4, 5), (13, 15),
                               (22, 20), (5, 5), (10, 10), (23, 25)]
    )
    def test_rounding_to_the_nearest_five(self, total: int, rounded: int) -> None:
        assert round_to_five(total) == rounded


# ---------------------------------------------------------------------------------- §6


def bids(match: Match, seat: int) -> list[int]:
    return sorted(a - A.BID for a in match.legal_actions(seat) if A.is_bid(a))


class TestAuction:
    def test_non_jockey_speaks_first_and_may_decline_or_bid(self) -> None:
        match = auction(0)
        assert match.to_act() == 1
        assert match.legal_actions(0) == []
        assert "decline" in legal_moves(match, 1) and "accept" not in legal_moves(match, 1)
        assert bids(match, 1) == list(range(15, 151, 5))
        assert refused(match, 0, "decline") == "it is not your turn"

    def test_decline_the_jockey_opens_free_with_any_tile(self) -> None:
        match = auction(0)
        play(match, "decline")
        assert match.balances == [150, 150]
        assert match.phase == "play" and match.to_act() == 0
        assert legal_moves(match, 0) == set(["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"])
        assert refused(match, 0, "0-5>0-0:line_a") == (
            "the board is empty: the opening tile takes no target")
        play(match, "0-5")
        assert match.balances == [155, 145]  # the opening scores like any placement
        assert match.hands_summary[1].opener == 0

    def test_lowest_bid_and_multiples_of_five(self) -> None:
        match = auction(0)
        assert refused(match, 1, "bid10") == "the lowest bid is 15"
        assert refused(match, 1, "bid17") == "bids are multiples of 5"
        assert refused(match, 1, "accept") == "there is no bid to accept"
        play(match, "bid15")
        assert match.to_act() == 0

    def test_raise_by_at_least_five(self) -> None:
        match = auction(0)
        play(match, "bid15")
        assert legal_moves(match, 0) >= {"accept", "bid20"}
        assert "decline" not in legal_moves(match, 0)
        assert refused(match, 0, "decline") == "you face a bid: accept it or raise"
        assert refused(match, 0, "bid15") == "a raise must be at least 20"
        assert refused(match, 0, "bid22") == "bids are multiples of 5"
        assert refused(match, 0, "0-0") == "the opening is being auctioned: bid, accept or decline"

    def test_accept_pays_the_bid_and_the_bidder_opens(self) -> None:
        match = auction(0)
        play(match, "bid15")
        outcome = apply_ok(match, 0, "accept")
        assert outcome.steps[-1].points == 15
        assert match.balances == [165, 135]
        assert match.phase == "play" and match.to_act() == 1
        assert match.hands_summary[1].opener == 1
        assert len(legal_moves(match, 1)) == 7

    def test_spec_example_jockey_pays_the_discounted_raise(self) -> None:
        match = auction(0)
        play(match, "bid15 bid20")  # non-jockey bids 15, the jockey raises to 20
        outcome = apply_ok(match, 1, "accept")
        assert outcome.steps[-1].points == 5  # 20 - 15
        assert match.balances == [145, 155]
        assert match.to_act() == 0 and match.hands_summary[1].opener == 0

    def test_raises_alternate(self) -> None:
        match = auction(1)
        play(match, "bid15 bid20 bid25 bid40 bid45")
        assert match.to_act() == 1
        assert match.auction.bid == 45 and match.auction.bidder == 0
        play(match, "accept")
        assert match.balances == [105, 195]  # the non-jockey pays its whole bid
        assert match.to_act() == 0

    def test_jockeys_accepted_raise_never_pays_below_zero(self) -> None:
        match = auction(0, Rules(jockey_discount=30))
        play(match, "bid15 bid20")
        outcome = apply_ok(match, 1, "accept")
        assert outcome.steps[-1].points == 0
        assert match.balances == [150, 150]

    def test_discount_only_for_the_jockeys_own_bid(self) -> None:
        match = auction(0)
        play(match, "bid15 bid20 bid25")
        play(match, "accept")  # the non-jockey's 25 is paid in full
        assert match.balances == [175, 125]

    def test_non_jockey_under_fifteen_must_decline(self) -> None:
        match = auction(0, Rules(start_points=10))
        assert legal_moves(match, 1) == {"decline"}
        assert refused(match, 1, "bid15") == "you cannot afford that bid"

    def test_jockey_may_bid_up_to_balance_plus_discount(self) -> None:
        match = auction(0, Rules(start_points=20))
        assert bids(match, 1) == [15, 20]
        play(match, "bid15")
        assert bids(match, 0) == [20, 25, 30, 35]  # net 5 .. 20
        assert refused(match, 0, "bid40") == "you cannot afford that bid"

    def test_facing_a_bid_that_cannot_be_raised_only_accept(self) -> None:
        match = auction(0, Rules(start_points=20))
        play(match, "bid15 bid20")
        assert legal_moves(match, 1) == {"accept"}
        assert refused(match, 1, "bid25") == "you cannot afford that bid"

    def test_jockey_facing_an_unaffordable_raise(self) -> None:
        match = auction(0, Rules(start_points=20, jockey_discount=0))
        play(match, "bid20")
        assert legal_moves(match, 0) == {"accept"}

    def test_paying_the_whole_balance_loses_before_the_opening(self) -> None:
        match = auction(0, Rules(start_points=20))
        play(match, "bid20")
        outcome = apply_ok(match, 0, "accept", us(4))
        assert outcome.steps[-1].points == 20
        assert match.balances == [40, 0]
        assert match.result == Result(0, "points")
        assert match.board.is_empty and match.to_act() is None
        assert match.hands_summary[1].end == "match_over"

    def test_jockey_paying_its_whole_balance_loses(self) -> None:
        match = auction(0, Rules(start_points=20))
        play(match, "bid20 bid35")  # net 20 for the jockey
        assert legal_moves(match, 1) == {"accept"}
        play(match, "accept")
        assert match.balances == [0, 40]
        assert match.result == Result(1, "points")

    def test_winning_the_opening_creates_no_points(self) -> None:
        match = auction(1)
        play(match, "bid15 accept")
        assert sum(match.balances) == 300


# ---------------------------------------------------------------------------------- §7


class TestClock:
    def test_deciding_within_the_delay_costs_nothing(self) -> None:
        match = start(SIX_SIX, now_us=us(1))
        apply_ok(match, 1, "3-6>6-6:line_a", us(9))
        assert match.clock.banks_us == [us(120), us(120)]

    def test_thirteen_seconds_cost_three_of_bank(self) -> None:
        match = start(SIX_SIX, now_us=us(1))
        apply_ok(match, 1, "3-6>6-6:line_a", us(14))
        assert match.clock.banks_us == [us(120), us(117)]
        # The next decision gets a fresh delay, not a fresh bank.
        apply_ok(match, 0, "3-3>3-6:low", us(22))
        apply_ok(match, 1, "4-6>6-6:line_b", us(33))
        assert match.clock.banks_us == [us(120), us(116)]

    def test_remaining_delay_and_bank(self) -> None:
        match = start(SIX_SIX, now_us=us(1))
        assert match.clock.remaining(1, us(5)) == (us(6), us(120))
        assert match.clock.remaining(1, us(20)) == (0, us(111))
        assert match.clock.remaining(0, us(20)) == (0, us(120))

    def test_draws_within_a_turn_do_not_restart_the_delay(self) -> None:
        match = start(NO_SIX_FOR_1)
        apply_ok(match, 1, "draw", us(4))
        apply_ok(match, 1, "draw", us(8))
        apply_ok(match, 1, "draw", us(12))
        assert match.clock.running == 1 and match.clock.started_us == 0
        apply_ok(match, 1, "4-6>6-6:line_a", us(15))
        assert match.clock.banks_us == [us(120), us(115)]

    def test_raise_switches_the_clock(self) -> None:
        match = auction(0)
        assert match.clock.running == 1 and match.clock.started_us == 0
        apply_ok(match, 1, "bid15", us(3))
        assert match.clock.running == 0 and match.clock.started_us == us(3)
        apply_ok(match, 0, "bid20", us(16))
        assert match.clock.running == 1 and match.clock.started_us == us(16)
        assert match.clock.banks_us == [us(117), us(120)]
        apply_ok(match, 1, "bid25", us(40))
        assert match.clock.banks_us == [us(117), us(106)]

    def test_accept_starts_the_openers_clock(self) -> None:
        match = auction(0)
        play(match, "bid15 bid20")
        apply_ok(match, 1, "accept", us(5))
        assert match.clock.running == 0 and match.clock.started_us == us(5)
        apply_ok(match, 0, "0-1", us(14))
        assert match.clock.banks_us == [us(120), us(120)]

    def test_decline_starts_the_openers_clock(self) -> None:
        match = auction(1)
        apply_ok(match, 0, "decline", us(2))
        assert match.clock.running == 1 and match.clock.started_us == us(2)
        apply_ok(match, 1, "1-1", us(13))
        assert match.clock.banks_us == [us(120), us(119)]

    def test_clocks_stopped_until_both_continue(self) -> None:
        match = Match()
        match.deal(SIX_SIX)
        assert match.clock.running is None
        apply_ok(match, 0, "continue", us(30))
        assert match.clock.running is None and match.phase == "continue"
        assert refused(match, 0, "continue", us(31)) == "you have already pressed Continue"
        assert refused(match, 1, "3-6>6-6:line_a", us(31)) == (
            "the hand starts when both players have pressed Continue")
        assert match.advance(us(59)) == []
        apply_ok(match, 1, "continue", us(45))
        # The forced opening happened at 45 s; seat 1's clock runs from there.
        assert match.clock.running == 1 and match.clock.started_us == us(45)
        apply_ok(match, 1, "3-6>6-6:line_a", us(56))
        assert match.clock.banks_us == [us(120), us(119)]

    def test_clocks_stopped_between_hands(self) -> None:
        match = after_domino(0, now_us=us(5))
        assert match.clock.running is None
        match.deal(PLAIN_DEAL)
        apply_ok(match, 1, "continue", us(20))
        apply_ok(match, 0, "continue", us(50))
        assert match.clock.banks_us == [us(120), us(120)]
        assert match.clock.running == 1 and match.clock.started_us == us(50)

    def test_grace_deadline_starts_the_hand(self) -> None:
        match = after_domino(0, now_us=us(5))
        assert match.view(None)["clock"]["deadline"] is None
        match.deal(PLAIN_DEAL)
        assert match.next_deadline_us() == us(65)
        apply_ok(match, 1, "continue", us(6))
        assert match.advance(us(65) - 1) == []
        steps = match.advance(us(100))
        # The Continue nobody pressed counts as pressed, at the grace deadline.
        assert [(s.seat, s.action, s.now_us, s.forced) for s in steps] == [
            (0, A.CONTINUE, us(65), True)]
        assert match.phase == "auction"
        assert match.clock.running == 1 and match.clock.started_us == us(65)

    def test_grace_deadline_of_the_first_hand_plays_the_forced_opening(self) -> None:
        match = Match()
        match.deal(SIX_SIX)
        steps = match.advance(us(60))
        assert [(s.seat, s.action, s.now_us, s.forced) for s in steps] == [
            (0, A.CONTINUE, us(60), True),
            (1, A.CONTINUE, us(60), True),
            (0, A.opening_code(tile_from_name("6-6")), us(60), True),
        ]
        assert match.to_act() == 1 and match.clock.started_us == us(60)

    def test_a_command_at_the_deadline_instant_loses_on_time(self) -> None:
        match = start(SIX_SIX, now_us=us(1))
        deadline = us(1 + 10 + 120)
        assert match.next_deadline_us() == deadline
        outcome = match.apply(1, code("3-6>6-6:line_a"), deadline)
        assert isinstance(outcome, Outcome) and not outcome.applied
        assert [(s.seat, s.action, s.now_us) for s in outcome.steps] == [(1, A.FLAG, deadline)]
        assert match.result == Result(0, "time")
        assert match.clock.banks_us == [us(120), 0]
        assert len(match.board.links) == 1  # the placement was not applied
        assert match.balances == [150, 150]

    def test_a_command_just_before_the_deadline_counts(self) -> None:
        match = start(SIX_SIX, now_us=us(1))
        apply_ok(match, 1, "3-6>6-6:line_a", us(131) - 1)
        assert match.clock.banks_us == [us(120), 1]
        assert match.result is None

    def test_advance_flags_a_silent_player(self) -> None:
        match = start(SIX_SIX, now_us=us(1))
        play(match, "3-6>6-6:line_a", us(2))
        assert match.next_deadline_us() == us(132)
        assert match.advance(us(132) - 1) == []
        steps = match.advance(us(500))
        assert [(s.seat, s.action, s.now_us) for s in steps] == [(0, A.FLAG, us(132))]
        assert match.result == Result(1, "time")
        assert match.clock.banks_us == [0, us(120)]
        assert match.next_deadline_us() is None
        assert match.hands_summary[0].end == "match_over"

    def test_opponent_command_after_the_deadline_does_not_count_either(self) -> None:
        match = start(SIX_SIX, now_us=0)
        outcome = match.apply(0, A.RESIGN, us(200))
        assert isinstance(outcome, Outcome) and not outcome.applied
        assert match.result == Result(0, "time")

    def test_one_device_clock_waits_until_reveal(self) -> None:
        match = start(SIX_SIX, Rules(one_device=True), now_us=us(1))
        assert match.to_act() == 1 and match.awaiting_reveal == 1
        assert match.clock.running is None and match.next_deadline_us() is None
        assert match.legal_actions(1) == [A.REVEAL]
        assert match.legal_actions(0) == []
        assert refused(match, 1, "3-6>6-6:line_a", us(2)) == "reveal your tiles first"
        assert refused(match, 0, "reveal", us(2)) == "it is not your turn"
        assert match.advance(us(1000)) == []
        apply_ok(match, 1, "reveal", us(1000))
        assert match.awaiting_reveal is None
        assert match.clock.running == 1 and match.clock.started_us == us(1000)
        assert refused(match, 1, "reveal", us(1001)) == "there is nothing to reveal now"
        apply_ok(match, 1, "3-6>6-6:line_a", us(1009))
        # The device is passed to seat 0: its clock waits for its reveal.
        assert match.awaiting_reveal == 0 and match.clock.running is None
        apply_ok(match, 0, "reveal", us(1500))
        apply_ok(match, 0, "3-3>3-6:low", us(1513))
        assert match.clock.banks_us == [us(117), us(120)]

    def test_one_device_auction_waits_for_reveals(self) -> None:
        match = auction(0, Rules(one_device=True))
        assert match.awaiting_reveal == 1 and legal_moves(match, 1) == {"reveal"}
        play(match, "reveal bid15")
        assert match.awaiting_reveal == 0 and match.clock.running is None
        play(match, "reveal accept")
        assert match.awaiting_reveal == 1  # seat 1 opens: the device goes back


# ---------------------------------------------------------------------------------- §8


class TestMatchEnd:
    def test_resign_loses(self) -> None:
        match = start(SIX_SIX)
        apply_ok(match, 0, "resign", us(3))  # not even seat 0's turn
        assert match.result == Result(1, "resign")
        assert match.clock.running is None
        assert match.hands_summary[0].end == "match_over"

    def test_resign_between_hands(self) -> None:
        match = after_domino(1)
        apply_ok(match, 1, "resign")
        assert match.result == Result(0, "resign")
        assert not match.needs_chance()

    def test_abort_before_the_first_decision(self) -> None:
        match = start(SIX_SIX)  # the forced opening is no decision
        assert match.view(0)["can_abort"]
        apply_ok(match, 1, "abort")
        assert match.result == Result(None, "abort")
        assert match.balances == [150, 150]

    def test_abort_while_waiting_for_start(self) -> None:
        match = Match()
        match.deal(SIX_SIX)
        apply_ok(match, 0, "abort")
        assert match.result == Result(None, "abort")

    @pytest.mark.parametrize("first", ["3-6>6-6:line_a"])
    def test_no_abort_after_the_first_decision(self, first: str) -> None:
        match = start(SIX_SIX)
        play(match, first)
        assert not match.view(0)["can_abort"]
        for seat in (0, 1):
            assert refused(match, seat, "abort") == (
                "a match can be aborted only before its first decision")

    def test_a_draw_is_a_decision(self) -> None:
        match = start(NO_SIX_FOR_1)
        play(match, "draw")
        assert refused(match, 0, "abort") == "a match can be aborted only before its first decision"

    def test_annulled(self) -> None:
        match = start(SIX_SIX)
        steps = match.annul(us(10))
        assert [s.action for s in steps] == [A.ANNUL]
        assert match.result == Result(None, "annulled")
        assert match.annul(us(11)) == []

    def test_an_illegal_command_changes_nothing(self) -> None:
        match = start(SIX_SIX)
        before = [json.dumps(match.view(s)) for s in (0, 1, None)]
        for seat, move in [(0, "3-3>6-6:line_a"), (1, "1-5>6-6:line_a"), (1, "draw"),
                           (1, "bid15"), (1, "accept"), (1, "continue"), (1, "reveal"),
                           (1, "0-1"), (1, "3-6>6-6:branch_a"), (1, "5-5>6-6:line_a")]:
            assert isinstance(refused(match, seat, move, us(1)), str)
        assert [json.dumps(match.view(s)) for s in (0, 1, None)] == before

    def test_refusals_come_with_reasons(self) -> None:
        match = start(SIX_SIX)
        assert refused(match, 0, "3-3>6-6:line_a") == "it is not your turn"
        assert refused(match, 1, "1-4>6-6:line_a") == "you do not hold that tile"
        assert refused(match, 1, "0-1>6-6:line_a") == "the tile does not match that place"
        assert refused(match, 1, "3-6>6-6:branch_a") == "that place is not open"
        assert refused(match, 1, "3-6") == "name the tile and port to attach to"
        assert refused(match, 1, "bid15") == "there is no auction now"
        assert refused(match, 2, "3-6>6-6:line_a") == "there is no such seat"

    @pytest.mark.parametrize("bad", [-1, -8192, 10**9, A.EVENT_BASE, A.FLAG, A.ANNUL, A.BID - 1])
    def test_codes_that_are_no_action_are_refused(self, bad: int) -> None:
        match = start(SIX_SIX)
        outcome = match.apply(1, bad, us(1))
        assert isinstance(outcome, Illegal)
        match = auction(0)
        outcome = match.apply(1, bad, us(1))
        assert isinstance(outcome, Illegal)
