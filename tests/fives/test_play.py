"""Play: leads, drawing and the bazaar's last tile, domino, fish, the target, resign."""

from __future__ import annotations

import pickle

import pytest

from games.engine.protocol import Illegal, Outcome, Result
from games.fives import actions as A
from games.fives.rules import Rules
from games.fives.state import DEAL, DOMINO, FISH, GAME_OVER, OVER, PLAY, DealError, FivesState

from .helpers import apply_ok, code, make_deal, move_name, play, random_game, start, tiles

# A two-player domino (cross off): A (seat 0) builds to the right, B to the left.
A_CHAIN = "0-1 1-2 2-3 3-4 4-5 5-6 6-6"
B_CHAIN = "0-2 2-4 4-6 0-6 0-5 3-5 1-3"
CHAIN_MOVES = [
    "0-1", "0-2>0-1:low", "1-2>0-1:high", "2-4>0-2:high", "2-3>1-2:high", "4-6>2-4:high",
    "3-4>2-3:high", "0-6>4-6:high", "4-5>3-4:high", "0-5>0-6:low", "5-6>4-5:high",
    "3-5>0-5:high", "6-6>5-6:high",
]
CHAIN_POINTS = [0, 0, 0, 0, 0, 0, 10, 0, 5, 10, 0, 0, 15]

# A four-player fish: all seven 0-tiles on the board with 0 at both ends. Seat 1
# places the blocking tile; seat 2 holds the fewest pips.
FISH_MOVES = [
    "0-0", "0-2>0-0:line_a", "0-3>0-0:line_b", "1-2>0-2:high", "3-4>0-3:high",
    "0-1>1-2:low", "0-4>3-4:high", "0-5>0-4:low", "5-6>0-5:high", "0-6>5-6:high",
]
FISH_POINTS = [0, 0, 5, 0, 5, 0, 0, 5, 0, 0]
FISH_HANDS = (
    "0-0 3-4 5-6 4-5 3-5 2-6 2-5",  # 32 pips left
    "0-2 0-1 0-6 6-6 5-5 4-6 3-6",  # 41
    "0-3 0-4 1-1 1-3 1-4 2-2 1-5",  # 21
    "1-2 0-5 1-6 2-3 2-4 3-3 4-4",  # 32
)
TIED_FISH_HANDS = (
    "0-0 3-4 5-6 2-4 3-5 3-6 4-4",  # 31
    "0-2 0-1 0-6 4-5 4-6 5-5 6-6",  # 41
    "0-3 0-4 1-1 1-4 1-6 3-3 2-5",  # 27
    "1-2 0-5 1-3 2-2 2-3 1-5 2-6",  # 27
)


def snapshot(state: FivesState) -> bytes:
    return pickle.dumps(state)


class TestLeads:
    def test_lowest_lot_leads_the_first_hand(self) -> None:
        game = start(*FISH_HANDS, lots="2-5 0-1 3-3 1-6")
        assert game.to_act() == 1
        assert game.hands_summary[0].leader == 1

    def test_equal_sums_the_lower_smaller_half(self) -> None:
        assert start(A_CHAIN, B_CHAIN, lots="1-2 0-3").to_act() == 1
        assert start(A_CHAIN, B_CHAIN, lots="0-3 1-2").to_act() == 0

    def test_without_lots_seat_0_leads(self) -> None:
        assert start(A_CHAIN, B_CHAIN).to_act() == 0

    def test_lots_must_be_distinct_and_one_per_seat(self) -> None:
        deal = make_deal(A_CHAIN, B_CHAIN)
        with pytest.raises(DealError):
            FivesState(Rules(), 2).deal(deal, 0, lots=tiles("1-2 1-2"))
        with pytest.raises(DealError):
            FivesState(Rules(), 2).deal(deal, 0, lots=tiles("1-2 1-3 1-4"))

    def test_any_tile_may_lead(self) -> None:
        game = start(A_CHAIN, B_CHAIN)
        assert sorted(move_name(c) for c in game.legal_actions(0)) == sorted(A_CHAIN.split())
        assert game.legal_actions(1) == []
        assert play(game, "2-3") == [5]  # a non-double lead scores too

    def test_the_winner_leads_the_next_hand(self) -> None:
        game = start(B_CHAIN, A_CHAIN, lots="6-6 0-0")  # seat 1 leads and plays out
        play(game, *CHAIN_MOVES)
        assert game.hands_summary[0].winner == 1
        game.deal(make_deal(A_CHAIN, B_CHAIN), 0)
        assert game.to_act() == 1

    def test_after_a_fish_the_blocker_leads(self) -> None:
        game = start(*FISH_HANDS)
        play(game, *FISH_MOVES)
        summary = game.hands_summary[0]
        assert (summary.end, summary.winner) == (FISH, 2)  # seat 2 wins the fish...
        game.deal(make_deal(*FISH_HANDS), 0)
        assert game.to_act() == 1  # ...but seat 1 placed the blocking tile

    def test_hand_transitions_in_random_games(self) -> None:
        """Over many random games: a domino's winner or a fish's blocker leads next."""
        seen = {"domino by a non-leader": 0, "fish blocked by a non-winner": 0}
        for seed in range(60):
            for seats in (2, 4):
                played = random_game(seed, seats, Rules(target=100))
                summaries = played.state.hands_summary
                blockers = [None] * len(summaries)
                # The blocker is the last placer of the hand: read it from the record.
                from games.fives.plugin import GAME

                doc = GAME.export_record(played.players, played.state.rules, played.log)
                for h, hand in enumerate(doc["hands"]):
                    plays = [a for a in hand["actions"] if a["type"] == "play"]
                    blockers[h] = plays[-1]["seat"] if plays else None
                for h in range(1, len(summaries)):
                    before = summaries[h - 1]
                    if before.end == DOMINO:
                        assert summaries[h].leader == before.winner
                        if before.winner != before.leader:
                            seen["domino by a non-leader"] += 1
                    else:
                        assert before.end == FISH
                        assert summaries[h].leader == blockers[h - 1]
                        if before.winner != blockers[h - 1]:
                            seen["fish blocked by a non-winner"] += 1
        assert all(seen.values()), seen


class TestDrawing:
    def setup_game(self) -> FivesState:
        # B holds no 0; the first 13 bazaar tiles have no 0 either; 0-6 is the last.
        a_hand = "0-0 0-1 0-2 0-3 0-4 0-5 5-6"
        b_hand = "1-1 1-2 1-3 1-4 1-5 1-6 2-2"
        bazaar = "2-3 2-4 2-5 2-6 3-3 3-4 3-5 3-6 4-4 4-5 4-6 5-5 6-6 0-6"
        return start(a_hand, b_hand, bazaar=bazaar)

    def test_draw_until_the_last_tile_then_pass(self) -> None:
        game = self.setup_game()
        play(game, "0-0")
        for drawn in range(13):
            assert game.legal_actions(1) == [A.DRAW], drawn
            apply_ok(game, 1, "draw")
        # The last tile of the bazaar is never drawn: seat 1 passed, seat 0 is to act.
        assert game.bazaar_left() == 1 and game.drawable() == 0
        assert game.hand_masks[1].bit_count() == 20
        assert not game.hand_masks[1] >> tiles("0-6")[0] & 1
        assert game.to_act() == 0
        assert [move_name(m.action) for m in game.moves[-2:]] == ["draw", "pass"]
        assert game.moves[-1].forced

    def test_no_draw_while_holding_a_playable_tile(self) -> None:
        game = self.setup_game()
        play(game, "0-0", *["draw"] * 13, "0-1>0-0:line_a")
        play(game, "1-1>0-1:high")
        play(game, "0-2>0-0:line_b")
        assert game.to_act() == 1  # it holds 2-x tiles now
        before = snapshot(game)
        outcome = game.apply(1, A.DRAW, 0)
        assert isinstance(outcome, Illegal)
        assert "playable" in outcome.reason
        assert snapshot(game) == before

    def test_drawn_playable_tile_must_be_played(self) -> None:
        a_hand = "0-0 0-1 0-2 0-3 0-4 0-5 5-6"
        b_hand = "1-1 1-2 1-3 1-4 1-5 1-6 2-2"
        game = start(a_hand, b_hand, bazaar="2-3 0-6")
        play(game, "0-0", "draw")
        assert game.drawn_tile < 0  # 2-3 does not fit: the same turn goes on
        play(game, "draw")
        assert game.view(1)["must_play"] == "0-6"
        assert {move_name(c) for c in game.legal_actions(1)} == {
            "0-6>0-0:line_a", "0-6>0-0:line_b"}
        refused = game.apply(1, A.DRAW, 0)
        assert isinstance(refused, Illegal) and "drew" in refused.reason

    def test_four_players_have_no_bazaar(self) -> None:
        game = start(*FISH_HANDS)
        assert game.bazaar_left() == 0 and game.drawable() == 0


class TestDomino:
    def test_bonus_is_the_other_hands_rounded_and_divided(self) -> None:
        game = start(A_CHAIN, B_CHAIN)
        assert play(game, *CHAIN_MOVES) == CHAIN_POINTS
        summary = game.hands_summary[0]
        assert (summary.end, summary.winner, summary.pips, summary.bonus) == (
            DOMINO, 0, (0, 4), 1)  # 4 -> 5 -> 1
        assert game.scores == [31, 10]
        assert game.phase == DEAL and game.needs_chance()
        # The last placement's step carries the scores after the bonus.
        assert game.moves[-1].points == 15 and game.moves[-1].scores == (31, 10)

    def test_full_record_keeps_the_rounded_sum(self) -> None:
        game = start(A_CHAIN, B_CHAIN, rules=Rules(full_record=True))
        play(game, *CHAIN_MOVES)
        assert game.hands_summary[0].bonus == 5
        assert game.scores == [35, 10]


class TestFish:
    def test_fewest_pips_scores_the_others(self) -> None:
        game = start(*FISH_HANDS)
        assert play(game, *FISH_MOVES) == FISH_POINTS
        summary = game.hands_summary[0]
        assert summary.end == FISH
        assert summary.pips == (32, 41, 21, 32)
        assert summary.winner == 2
        assert summary.bonus == 21  # 105 -> 105 / 5
        assert game.scores == [5, 0, 26, 5]
        passes = [m for m in game.moves if m.action == A.PASS]
        assert [m.seat for m in passes] == [2, 3, 0, 1] and all(m.forced for m in passes)

    def test_full_record_fish(self) -> None:
        game = start(*FISH_HANDS, rules=Rules(full_record=True))
        play(game, *FISH_MOVES)
        assert game.hands_summary[0].bonus == 105

    def test_a_tie_for_fewest_scores_nothing(self) -> None:
        game = start(*TIED_FISH_HANDS)
        play(game, *FISH_MOVES)
        summary = game.hands_summary[0]
        assert (summary.end, summary.winner, summary.bonus) == (FISH, None, 0)
        assert summary.pips == (31, 41, 27, 27)
        assert game.scores == [5, 0, 5, 5]
        game.deal(make_deal(*FISH_HANDS), 0)
        assert game.to_act() == 1  # the blocker leads, even with no winner


class TestTarget:
    def test_a_placement_reaching_the_target_ends_the_game_mid_hand(self) -> None:
        game = start(A_CHAIN, B_CHAIN, rules=Rules(target=100))
        game.scores = [95, 0]
        play(game, "2-3")  # 5 -> 100
        summary = game.hands_summary[0]
        assert game.result == Result(0, "target") and game.ranks == [1, 2]
        assert (summary.end, summary.winner, summary.bonus) == (GAME_OVER, None, 0)
        assert summary.pips == (43, 41)
        assert game.phase == OVER and game.to_act() is None and not game.needs_chance()
        assert game.next_deadline_us() is None

    def test_the_last_tile_reaching_the_target_scores_no_bonus(self) -> None:
        game = start(A_CHAIN, B_CHAIN, rules=Rules(target=100))
        game.scores = [75, 0]
        play(game, *CHAIN_MOVES)
        summary = game.hands_summary[0]
        assert game.scores == [105, 10]
        assert (summary.end, summary.winner, summary.bonus, summary.pips) == (
            GAME_OVER, None, 0, (0, 4))
        assert game.result == Result(0, "target")

    def test_the_bonus_reaching_the_target(self) -> None:
        game = start(A_CHAIN, B_CHAIN, rules=Rules(target=100))
        game.scores = [69, 0]
        play(game, *CHAIN_MOVES)
        summary = game.hands_summary[0]
        assert game.scores == [100, 10]
        assert (summary.end, summary.winner, summary.bonus) == (DOMINO, 0, 1)
        assert game.result == Result(0, "target") and game.ranks == [1, 2]

    def test_four_players_rank_by_score(self) -> None:
        game = start(*FISH_HANDS, rules=Rules(target=100))
        game.scores = [40, 40, 75, 10]
        play(game, *FISH_MOVES)  # seat 2 takes 5 + 21 = 101
        assert game.result == Result(2, "target")
        assert game.ranks == [2, 3, 1, 4]
        assert game.scores == [45, 40, 101, 15]


class TestResign:
    def test_any_seat_at_any_time_ranks_last(self) -> None:
        game = start(*FISH_HANDS)
        play(game, *FISH_MOVES[:5])  # scores 5, 0, 5, 0; seat 1 to act
        apply_ok(game, 3, "resign")  # not seat 3's turn
        assert game.result == Result(None, "resign")  # seats 0 and 2 share the lead
        assert game.ranks == [1, 3, 1, 4]
        assert game.hands_summary[0].end == GAME_OVER
        assert game.clock.running is None

    def test_four_players_a_sole_leader_wins(self) -> None:
        game = start(*FISH_HANDS)
        play(game, *FISH_MOVES[:5])
        apply_ok(game, 2, "resign")
        assert game.result == Result(0, "resign") and game.ranks == [1, 2, 4, 2]

    def test_two_players_the_other_wins_whatever_the_score(self) -> None:
        game = start(A_CHAIN, B_CHAIN)
        play(game, *CHAIN_MOVES)  # seat 0 leads 31-10
        apply_ok(game, 0, "resign")  # between hands
        assert game.result == Result(1, "resign") and game.ranks == [2, 1]
        assert game.hands_summary[0].end == DOMINO

    def test_nothing_after_the_end(self) -> None:
        game = start(A_CHAIN, B_CHAIN)
        apply_ok(game, 1, "resign")
        assert isinstance(game.apply(0, A.RESIGN, 0), Illegal)
        assert isinstance(game.apply(0, code("0-1"), 0), Illegal)
        assert game.legal_actions(0) == []


class TestIllegal:
    @pytest.mark.parametrize(("seat", "move", "reason"), [
        (1, "2-4>0-2:high", "not your turn"),
        (0, "1-3>0-1:low", "do not hold"),
        (0, "3-4>0-1:high", "does not match"),
        (0, "1-2>6-6:line_b", "not open"),
        (0, "1-2", "name the tile"),
        (0, "pass", "never chosen"),
        (0, "draw", "playable"),
        (5, "1-2>0-1:high", "no such seat"),
        (-1, "resign", "no such seat"),
    ])
    def test_refused_and_unchanged(self, seat: int, move: str, reason: str) -> None:
        game = start(A_CHAIN, B_CHAIN)
        play(game, "0-1", "0-2>0-1:low")
        before = snapshot(game)
        outcome = game.apply(seat, code(move), 0)
        assert isinstance(outcome, Illegal), outcome
        assert reason in outcome.reason
        assert snapshot(game) == before

    @pytest.mark.parametrize("action", [-1, A.EVENT_BASE, A.FLAG, 9000, 27 << 8 | 6])
    def test_unknown_codes(self, action: int) -> None:
        game = start(A_CHAIN, B_CHAIN)
        before = snapshot(game)
        assert isinstance(game.apply(0, action, 0), Illegal)
        assert snapshot(game) == before

    def test_a_lead_names_no_target(self) -> None:
        game = start(A_CHAIN, B_CHAIN)
        before = snapshot(game)
        assert isinstance(game.apply(0, A.play_code(tiles("0-1")[0], 3, 0), 0), Illegal)
        assert snapshot(game) == before

    def test_between_hands_only_resign(self) -> None:
        game = start(A_CHAIN, B_CHAIN)
        play(game, *CHAIN_MOVES)
        before = snapshot(game)
        outcome = game.apply(1, code("1-3"), 0)
        assert isinstance(outcome, Illegal) and "not been dealt" in outcome.reason
        assert snapshot(game) == before
        assert game.legal_actions(0) == game.legal_actions(1) == []

    def test_a_deal_only_when_due(self) -> None:
        game = start(A_CHAIN, B_CHAIN)
        with pytest.raises(DealError):
            game.deal(make_deal(A_CHAIN, B_CHAIN), 0)
        assert game.phase == PLAY


def test_annul() -> None:
    game = start(A_CHAIN, B_CHAIN)
    steps = game.annul(5)
    assert [s.action for s in steps] == [A.ANNUL]
    assert game.result == Result(None, "annulled") and game.ranks is None
    finished = start(A_CHAIN, B_CHAIN)
    apply_ok(finished, 0, "resign")
    assert finished.annul(9) == [] and finished.result == Result(None, "annulled")
    assert finished.ranks is None


def test_outcome_type() -> None:
    game = start(A_CHAIN, B_CHAIN)
    assert isinstance(game.apply(0, code("0-1"), 0), Outcome)
