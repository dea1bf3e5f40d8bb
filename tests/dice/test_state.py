"""The game as a state machine: turns, order, rounds, results, time, resign, chance."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dice import actions as A
from games.dice.plugin import GAME, ChanceError
from games.dice.rules import Rules
from games.dice.state import DECIDE, ORDER, OVER, REROLL, ROLL, DiceGame
from games.engine.protocol import Illegal

from .helpers import S, act, improve, play, roll, snapshot


def two_players(first_die: tuple[int, int] = (4, 6), rules: Rules | None = None) -> DiceGame:
    game = GAME.new_state(rules or Rules(), 2)
    roll(game, [first_die[0]])
    roll(game, [first_die[1]])
    return game


def turn(game: DiceGame, dice: list[int], keep: list[int] | None = None,
         rerolled: list[int] | None = None, now_us: int = 0) -> int:
    """Play the turn due: returns the recorded score."""
    roll(game, dice, now_us)
    seat = game.to_act()
    assert seat is not None
    if keep is None:
        act(game, seat, A.STAND, now_us)
    else:
        act(game, seat, improve(keep), now_us)
        assert game.needs_chance() and game.phase == REROLL
        roll(game, rerolled or [], now_us)
    recorded = game.turns[-1].recorded
    assert recorded is not None
    return recorded


def test_a_turn_of_the_source() -> None:
    game = two_players()
    assert game.current == 1 and game.phase == ROLL and game.needs_chance()
    roll(game, [5, 4, 4, 6, 2], 1 * S)
    assert game.to_act() == 1 and game.phase == DECIDE and not game.needs_chance()
    view = game.view(1)
    assert view["table"]["score"] == 16 and view["table"]["stand_records"] == 16
    assert view["table"]["fallback"] == 8
    assert len(view["legal"]) == 1 + 23  # stand and every distinct keep of 4 4 2 5 6
    act(game, 1, improve([4, 4]), 6 * S)
    assert game.needs_chance() and game.to_act() is None
    roll(game, [1, 4, 6], 6 * S)
    assert game.turns[-1].recorded == 36 and game.turns[-1].second == 36
    assert game.current == 0
    assert turn(game, [1, 1, 1, 6, 6]) == 33
    assert game.rounds[0].winner == 1 and game.round_wins == [0, 1]
    assert game.totals == [33, 36]


def test_the_source_game() -> None:
    game = two_players()  # seat 1 ("you") first
    assert turn(game, [5, 4, 4, 6, 2], [4, 4], [1, 4, 6]) == 36
    assert turn(game, [1, 1, 1, 6, 6]) == 33
    assert turn(game, [1, 2, 3, 5, 6], [], [2, 2, 4, 5, 5]) == 28
    assert turn(game, [1, 1, 1, 5, 5]) == 29
    assert (game.totals, game.round_wins) == ([62, 64], [1, 1])
    assert turn(game, [1, 2, 3, 4, 4]) == 40
    assert turn(game, [2, 2, 4, 5, 6], [5, 6], [1, 2, 6]) == 24
    assert (game.totals, game.round_wins) == ([86, 104], [1, 2])
    assert turn(game, [1, 2, 3, 5, 5]) == 20
    assert turn(game, [2, 2, 2, 5, 5]) == 38
    assert (game.totals, game.round_wins) == ([124, 124], [2, 2])
    assert turn(game, [3, 3, 3, 3, 1]) == 48
    assert game.result is None
    assert turn(game, [6, 6, 6, 6, 2]) == 96
    assert game.phase == OVER and game.standing is not None
    assert (game.standing.points_winner, game.standing.rounds_winner) == (0, 0)
    assert game.standing.absolute and game.result is not None and game.result.winner == 0
    assert GAME.ranks(game) == [1, 2] and GAME.scores(game) == [220, 172]


def test_a_failed_improvement_falls_back() -> None:
    game = two_players()
    assert turn(game, [1, 1, 1, 6, 6], [1, 1, 1], [2, 3]) == 15
    assert turn(game, [1, 2, 3, 5, 6], [], [1, 2, 4, 5, 6]) == 6  # nothing -> highest die


def test_order_ties_roll_again_and_play_goes_in_seat_order() -> None:
    game = GAME.new_state(Rules(), 4)
    for die in (5, 6, 3, 6):
        roll(game, [die])
    assert game.phase == ORDER and game.order_waiting == [1, 3]
    with pytest.raises(ChanceError):
        GAME.apply_chance(game, {"type": "order", "seat": 0, "die": 6}, 0)
    roll(game, [2])
    roll(game, [2])
    assert game.order_waiting == [1, 3]
    roll(game, [1])
    roll(game, [4])
    assert game.first_seat == 3 and game.current == 3
    seats = []
    for _ in range(4):
        seats.append(game.current)
        turn(game, [1, 2, 3, 5, 6])
    assert seats == [3, 0, 1, 2]
    assert game.rounds[0].winner is None  # a four-way tie wins nobody the round
    assert game.round_no == 1 and game.current == 3


def test_round_tie_for_the_highest_wins_nobody() -> None:
    game = GAME.new_state(Rules(), 3)
    for die in (6, 1, 2):
        roll(game, [die])
    turn(game, [4, 4, 1, 2, 6])
    turn(game, [4, 4, 1, 2, 6])
    turn(game, [1, 1, 2, 3, 6])
    assert game.rounds[0].winner is None and game.round_wins == [0, 0, 0]


def test_points_and_rounds_can_go_to_different_players() -> None:
    game = two_players((6, 1), Rules(rounds=3))
    for first, second in [(40, 16), (40, 16), (8, 100)]:
        dice = {40: [1, 2, 3, 4, 4], 16: [4, 4, 1, 2, 6], 8: [2, 2, 1, 3, 6],
                100: [2, 3, 4, 5, 6]}
        turn(game, dice[first])
        turn(game, dice[second])
    assert game.totals == [88, 132] and game.round_wins == [2, 1]
    assert game.standing is not None
    assert (game.standing.points_winner, game.standing.rounds_winner) == (1, 0)
    assert not game.standing.absolute
    assert game.result is not None and game.result.winner == 1  # rated on points
    assert GAME.ranks(game) == [2, 1]


def test_equal_totals_are_a_draw_on_points() -> None:
    game = two_players((6, 1), Rules(rounds=1))
    turn(game, [4, 4, 1, 2, 6])
    turn(game, [4, 4, 1, 2, 6])
    assert game.standing is not None and game.standing.points_winner is None
    assert game.result is not None and game.result.winner is None
    assert GAME.ranks(game) == [1, 1]


def test_quick_version_counts_rounds_only() -> None:
    game = two_players((6, 1), Rules(rounds=3, quick=True))
    for dice in ([2, 3, 4, 5, 6], [4, 4, 1, 2, 6], [4, 4, 1, 2, 5], [1, 1, 2, 3, 6],
                 [4, 4, 1, 2, 5], [1, 1, 2, 3, 6]):
        turn(game, dice)
    view = game.view(None)
    assert view["totals"] is None and view["round_wins"] == [3, 0]
    assert game.standing is not None and game.standing.points_winner is None
    assert game.standing.rounds_winner == 0 and not game.standing.absolute
    assert game.result is not None and game.result.winner == 0
    assert GAME.scores(game) == [3, 0] and GAME.ranks(game) == [1, 2]


def test_solo_needs_no_order_and_has_no_winners() -> None:
    game = GAME.new_state(Rules(), 1)
    assert game.phase == ROLL and game.current == 0 and game.order_rolls == []
    for _ in range(5):
        turn(game, [1, 2, 3, 4, 4])
    assert game.totals == [200] and game.round_wins == [0]
    assert game.standing is not None and game.standing.reason == "finished"
    assert (game.standing.points_winner, game.standing.rounds_winner) == (None, None)
    assert GAME.ranks(game) == [1]


def test_out_of_time_stands_with_what_is_on_the_table() -> None:
    game = two_players()
    roll(game, [4, 4, 1, 2, 6], 10 * S)
    assert game.next_deadline_us() == 40 * S
    assert game.advance(40 * S - 1) == []
    steps = game.advance(41 * S)
    assert [(s.seat, s.action, s.now_us, s.forced, s.points) for s in steps] == [
        (1, A.STAND, 40 * S, True, 16)]
    assert game.turns[-1].forced and game.turns[-1].recorded == 16
    assert game.result is None and game.current == 0 and game.next_deadline_us() is None


def test_a_decision_at_the_deadline_is_late() -> None:
    game = two_players()
    roll(game, [4, 4, 1, 2, 6], 0)
    refused = game.apply(1, improve([4, 4]), 30 * S)
    assert isinstance(refused, Illegal)  # judged after the stand: seat 0 rolls next
    assert game.turns[-1].forced and game.current == 0
    roll(game, [1, 1, 2, 3, 6], 31 * S)
    assert game.apply(0, A.STAND, 31 * S + 30 * S - 1).applied  # type: ignore[union-attr]


def test_a_forced_stand_may_end_the_game() -> None:
    game = GAME.new_state(Rules(rounds=1), 1)
    roll(game, [2, 2, 1, 3, 6], 0)
    out = game.apply(0, A.STAND, 60 * S)
    assert not isinstance(out, Illegal) and not out.applied
    assert [s.forced for s in out.steps] == [True]
    assert game.standing is not None and game.standing.reason == "finished"


def test_resign_with_two_players_gives_both_results_to_the_other() -> None:
    game = two_players()
    turn(game, [2, 3, 4, 5, 6])
    act(game, 1, A.RESIGN)  # not in turn: seat 0 rolls next
    assert game.standing is not None and game.standing.reason == "resign"
    assert (game.standing.points_winner, game.standing.rounds_winner) == (0, 0)
    assert game.standing.absolute and GAME.ranks(game) == [1, 2]
    assert isinstance(game.apply(0, A.STAND, 0), Illegal)


def test_resign_in_turn_with_three_players_skips_the_seat() -> None:
    game = GAME.new_state(Rules(rounds=3), 3)
    for die in (6, 2, 1):
        roll(game, [die])
    turn(game, [2, 3, 4, 5, 6])  # seat 0: 100, the best of the round
    roll(game, [1, 1, 2, 3, 6])
    act(game, 0, A.RESIGN)  # out of turn
    act(game, 1, A.RESIGN)  # in turn: the turn is abandoned
    assert game.standing is not None and game.standing.points_winner == 2


def test_a_resigned_player_wins_nothing_and_ranks_last() -> None:
    game = GAME.new_state(Rules(rounds=1), 3)
    for die in (6, 2, 1):
        roll(game, [die])
    turn(game, [2, 3, 4, 5, 6])
    act(game, 0, A.RESIGN)
    assert game.result is None and game.current == 1
    turn(game, [4, 4, 1, 2, 6])
    turn(game, [1, 1, 2, 3, 6])
    assert game.rounds[0].winner == 1  # seat 0's 100 does not count
    assert game.standing is not None
    assert (game.standing.points_winner, game.standing.rounds_winner) == (1, 1)
    assert GAME.ranks(game) == [3, 1, 2]
    assert isinstance(game.apply(0, A.RESIGN, 0), Illegal)


def test_resign_while_the_order_is_rolled() -> None:
    game = GAME.new_state(Rules(), 3)
    roll(game, [6])
    roll(game, [6])
    act(game, 0, A.RESIGN)  # a tied player leaves before seat 2 rolls
    roll(game, [3])
    assert game.first_seat == 1 and game.current == 1


def test_solo_resign() -> None:
    game = GAME.new_state(Rules(), 1)
    act(game, 0, A.RESIGN)
    assert game.standing is not None and game.standing.reason == "resign"
    assert game.standing.points_winner is None and GAME.ranks(game) == [1]


def test_annul() -> None:
    game = two_players()
    steps = game.annul(5 * S)
    assert [s.action for s in steps] == [A.ANNUL]
    assert game.result is not None and game.result.reason == "annulled"
    assert GAME.ranks(game) is None
    finished, _ = play(1, 2, Rules(rounds=1))
    assert finished.annul(0) == [] and GAME.ranks(finished) is None


def test_illegal_decisions() -> None:
    game = GAME.new_state(Rules(), 2)
    reasons = {}
    reasons["during order"] = game.apply(0, A.STAND, 0)
    roll(game, [6])
    roll(game, [1])
    reasons["before the roll"] = game.apply(0, A.STAND, 0)
    roll(game, [4, 4, 1, 2, 6])
    reasons["out of turn"] = game.apply(1, A.STAND, 0)
    reasons["not on the table"] = game.apply(0, improve([4, 4, 4]), 0)
    reasons["no such seat"] = game.apply(2, A.STAND, 0)
    reasons["not an action"] = game.apply(0, 12345, 0)
    act(game, 0, A.STAND)
    reasons["improve after stand"] = game.apply(0, improve([4, 4]), 0)
    for why, out in reasons.items():
        assert isinstance(out, Illegal), why
    assert "turn" in reasons["out of turn"].reason  # type: ignore[union-attr]
    assert "part of the roll" in reasons["not on the table"].reason  # type: ignore[union-attr]


def test_chance_is_due_only_when_dice_are() -> None:
    game = GAME.new_state(Rules(), 2)
    rng = random.Random(0)
    assert GAME.sample_chance(game, rng)["type"] == "order"
    roll(game, [6])
    roll(game, [1])
    payload = GAME.sample_chance(game, rng)
    assert payload["type"] == "roll" and payload["seat"] == 0 and len(payload["dice"]) == 5
    GAME.apply_chance(game, payload, 0)
    with pytest.raises(ChanceError):
        GAME.sample_chance(game, rng)  # a decision is due
    with pytest.raises(ChanceError):
        GAME.apply_chance(game, {"type": "roll", "seat": 0, "dice": [1, 2, 3, 4, 5]}, 0)
    act(game, 0, improve(sorted(payload["dice"])[:2]))
    again = GAME.sample_chance(game, rng)
    assert again["type"] == "reroll" and len(again["dice"]) == 3
    with pytest.raises(ChanceError):
        GAME.apply_chance(game, {"type": "reroll", "seat": 0, "dice": [1, 2]}, 0)
    with pytest.raises(ChanceError):
        GAME.apply_chance(game, {"type": "reroll", "seat": 0, "dice": [1, 2, 9]}, 0)


@settings(derandomize=True, max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(1, 6), cut=st.integers(0, 60),
       seat=st.integers(-1, 6), code=st.one_of(
           st.sampled_from([A.STAND, A.RESIGN, 0, 3, A.EVENT_BASE, A.ANNUL]),
           st.lists(st.integers(1, 6), max_size=5).map(A.improve_code)))
def test_illegal_actions_change_nothing(seed: int, seats: int, cut: int, seat: int,
                                        code: int) -> None:
    rng = random.Random(seed)
    game = GAME.new_state(Rules(rounds=3), seats)
    for _ in range(cut):  # a random position
        if game.result is not None:
            break
        if game.needs_chance():
            GAME.apply_chance(game, GAME.sample_chance(game, rng), 0)
        else:
            mover = game.to_act()
            assert mover is not None
            act(game, mover, rng.choice(game.legal_actions(mover)))
    before = snapshot(game)
    out = game.apply(seat, code, 0)
    if isinstance(out, Illegal):
        assert snapshot(game) == before
    else:
        assert code in (A.STAND, A.RESIGN) or A.is_improve(code)


@settings(derandomize=True, max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(1, 6))
def test_random_games_end_with_consistent_sheets(seed: int, seats: int) -> None:
    game, _ = play(seed, seats, Rules(rounds=3), resign=0.03)
    assert game.phase == OVER and game.result is not None
    for seat in range(seats):
        assert game.totals[seat] == sum(t.recorded or 0 for t in game.turns if t.seat == seat)
    assert sum(game.round_wins) <= len(game.rounds)
    ranks = GAME.ranks(game)
    assert ranks is not None and min(ranks) == 1


def test_equal_totals_share_a_rank() -> None:
    game = GAME.new_state(Rules(rounds=1), 3)
    for die in (6, 2, 1):
        roll(game, [die])
    turn(game, [4, 4, 1, 2, 6])
    turn(game, [1, 1, 2, 3, 6])
    turn(game, [4, 4, 1, 2, 6])
    assert GAME.ranks(game) == [1, 3, 1] and GAME.scores(game) == [16, 4, 16]


def test_the_view_shows_the_sheet_by_round() -> None:
    game = two_players()
    turn(game, [5, 4, 4, 6, 2], [4, 4], [1, 4, 6])
    roll(game, [1, 1, 1, 6, 6], 7 * S)
    view = GAME.view(game, 0)
    assert view["to_act"] == 0 and view["current"] == 0 and view["phase"] == "decide"
    assert view["table"] == {"seat": 0, "dice": [1, 1, 1, 6, 6], "combination": "full_house",
                             "combination_dice": [1, 1, 1, 6, 6], "score": 33,
                             "stand_records": 33, "fallback": 15, "keep": None}
    assert view["clock"] == {"decision_s": 30, "deadline": 37.0}
    sheet = view["sheet"]
    assert sheet[0]["scores"] == [None, 36] and not sheet[0]["over"]
    assert sheet[0]["turns"][0]["keep"] == [4, 4] and sheet[0]["turns"][0]["second"] == 36
    assert view["order"]["rolls"] == [[{"seat": 0, "die": 4}, {"seat": 1, "die": 6}]]
    assert GAME.view(game, 1)["legal"] == [] and view["legal"][0] == {"seat": 0, "type": "stand"}
    assert GAME.view(game, None)["legal"] == []
