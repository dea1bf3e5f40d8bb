"""One clock per player for the whole game, no delay; flags; no clock between hands."""

from __future__ import annotations

from games.engine.protocol import Outcome, Result
from games.fives import actions as A
from games.fives.rules import Rules
from games.fives.state import GAME_OVER

from .helpers import apply_ok, code, make_deal, play, start, us
from .test_play import A_CHAIN, B_CHAIN, CHAIN_MOVES, FISH_HANDS, FISH_MOVES

MINUTE = Rules(time_s=60)


def test_each_player_has_one_bank_and_no_delay() -> None:
    game = start(A_CHAIN, B_CHAIN, rules=MINUTE, now_us=us(5))
    assert game.clock.delay_us == 0
    assert game.next_deadline_us() == us(65)  # the leader's clock started with the deal
    apply_ok(game, 0, "0-1", us(15))
    assert game.clock.banks_us == [us(50), us(60)]
    assert game.next_deadline_us() == us(75)
    apply_ok(game, 1, "0-2>0-1:low", us(16))
    assert game.clock.banks_us == [us(50), us(59)]
    assert game.next_deadline_us() == us(66)  # no fresh time for a new turn


def test_draws_are_one_turn_on_one_clock() -> None:
    a_hand = "0-0 0-1 0-2 0-3 0-4 0-5 5-6"
    b_hand = "1-1 1-2 1-3 1-4 1-5 1-6 2-2"
    game = start(a_hand, b_hand, bazaar="2-3 2-4 0-6", rules=MINUTE)
    apply_ok(game, 0, "0-0", 0)
    apply_ok(game, 1, "draw", us(10))
    apply_ok(game, 1, "draw", us(20))
    assert game.clock.running == 1 and game.clock.banks_us[1] == us(60)
    apply_ok(game, 1, "draw", us(30))
    apply_ok(game, 1, "0-6>0-0:line_a", us(31))
    assert game.clock.banks_us == [us(60), us(29)]


def test_forced_passes_take_no_time_and_between_hands_no_clock_runs() -> None:
    game = start(*FISH_HANDS, rules=MINUTE)
    play(game, *FISH_MOVES[:-1], now_us=us(1))
    apply_ok(game, 1, "0-6>5-6:high", us(2))  # the fish: four forced passes at once
    assert game.needs_chance()
    assert game.clock.running is None and game.next_deadline_us() is None
    banks = list(game.clock.banks_us)
    assert game.advance(us(10_000)) == []
    assert game.clock.banks_us == banks and game.result is None
    game.deal(make_deal(*FISH_HANDS), us(10_000))
    assert game.clock.running == 1  # the blocker leads; its clock starts with the deal
    assert game.next_deadline_us() == us(10_000) + banks[1]


def test_a_flag_ranks_last_and_ends_the_game() -> None:
    game = start(A_CHAIN, B_CHAIN, rules=MINUTE)
    play(game, *CHAIN_MOVES[:7])  # seat 0 leads 10-0; seat 1 to act
    steps = game.advance(us(60))
    assert [(s.seat, s.action, s.now_us) for s in steps] == [(1, A.FLAG, us(60))]
    assert game.result == Result(0, "time") and game.ranks == [1, 2]
    assert game.clock.banks_us[1] == 0
    assert game.hands_summary[0].end == GAME_OVER


def test_an_action_at_the_deadline_is_not_applied() -> None:
    game = start(A_CHAIN, B_CHAIN, rules=MINUTE)
    late = game.apply(0, code("0-1"), us(60))
    assert isinstance(late, Outcome) and not late.applied
    assert [s.action for s in late.steps] == [A.FLAG]
    assert game.result == Result(1, "time")
    in_time = start(A_CHAIN, B_CHAIN, rules=MINUTE)
    assert apply_ok(in_time, 0, "0-1", us(60) - 1).applied
    assert in_time.clock.banks_us[0] == 1


def test_a_flag_in_four_players() -> None:
    game = start(*FISH_HANDS, rules=MINUTE)
    play(game, *FISH_MOVES[:3])  # seat 2 scored 5; seat 3 to act
    game.advance(us(120))
    assert game.result == Result(2, "time")
    assert game.ranks == [2, 2, 1, 4]


def test_a_resignation_stops_the_running_clock() -> None:
    game = start(A_CHAIN, B_CHAIN, rules=MINUTE)
    apply_ok(game, 1, "resign", us(12))
    assert game.clock.running is None
    assert game.clock.banks_us == [us(48), us(60)]  # the player to act used 12 s
    assert game.next_deadline_us() is None
