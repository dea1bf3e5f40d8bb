"""The search: legal actions only, the clearly best move found, budgets obeyed.

Best moves, one per game (each decisive, so that no budget or luck can argue with it):
- Fives: every seat needs 5 points for the target; a play that scores wins the game at
  once, any other lets an opponent score first (a random position with both kinds of
  play).
- Spectacular Bid: the opponent holds 5 points; a scoring placement takes them and wins.
- Dice: a large straight 2-3-4-5-6 on the table (100): standing is best, since no
  second attempt can score more and a fallback records only the plain sum.
"""

from __future__ import annotations

import itertools
import random

import pytest

from games import registry
from games.dice import actions as DA
from games.engine.plugin import GamePlugin
from games.search import choose, evaluate
from games.search.budget import Budget
from games.search.candidates import bid_amount, payment
from games.search.ismcts import search
from games.search.playout import immediate_points

from .positions import random_position

CASES = [(plugin, seats) for plugin in registry.all_games() for seats in plugin.seat_counts]


def ids(value: object) -> str:
    return str(getattr(value, "key", value))


@pytest.mark.parametrize(("plugin", "seats"), CASES, ids=ids)
def test_only_legal_actions(plugin: GamePlugin, seats: int) -> None:
    for seed in range(6):
        state = random_position(plugin, seats, seed, seed * 7).state
        seat = state.to_act()
        if state.result is not None or seat is None:
            continue
        legal = state.legal_actions(seat)
        rng = random.Random(seed)
        assert choose(plugin, state, seat, rng, iterations=12) in legal
        assert set(evaluate(plugin, state, seat, rng, iterations=12)) <= set(legal)


def test_a_deadline_on_the_callers_clock_stops_the_search() -> None:
    plugin = registry.game("fives")
    state = random_position(plugin, 2, 4, 3).state
    seat = state.to_act()
    assert seat is not None
    ticks = itertools.count()
    stats = evaluate(plugin, state, seat, random.Random(1), deadline=5.0,
                     now=lambda: float(next(ticks)))
    # now() is read as the search begins (0) and after each iteration (1, 2, 3): at 3 the
    # two iterations kept in reserve (of 1 each) would reach the deadline.
    assert sum(s.visits for s in stats.values()) == 3


def test_the_same_seed_gives_the_same_choice() -> None:
    plugin = registry.game("spectacular-bid")
    state = random_position(plugin, 2, 9, 5).state
    seat = state.to_act()
    assert seat is not None
    picks = {choose(plugin, state, seat, random.Random(7), iterations=30) for _ in range(3)}
    assert len(picks) == 1


def scoring_split(plugin: GamePlugin, seats: int) -> tuple[object, int, set[int], set[int]]:
    """A random position whose seat to act has both scoring and non-scoring plays."""
    for seed in range(500):
        state = random_position(plugin, seats, seed, seed % 30).state
        seat = state.to_act()
        if state.result is not None or seat is None:
            continue
        points = {a: immediate_points(plugin, state, a) for a in state.legal_actions(seat)}
        if any(p is None for p in points.values()):
            continue
        scoring = {a for a, p in points.items() if p is not None and p[0] > 0}
        if scoring and len(scoring) < len(points):
            return state, seat, scoring, set(points) - scoring
    raise AssertionError("no such position found")


@pytest.mark.parametrize("seats", [2, 4])
def test_fives_takes_the_play_that_reaches_the_target(seats: int) -> None:
    plugin = registry.game("fives")
    state, seat, scoring, _ = scoring_split(plugin, seats)
    state.scores = [state.rules.target - 5] * seats  # type: ignore[attr-defined]
    assert choose(plugin, state, seat, random.Random(2), iterations=60) in scoring


def test_spectacular_bid_takes_the_play_that_wins_the_match() -> None:
    plugin = registry.game("spectacular-bid")
    state, seat, scoring, _ = scoring_split(plugin, 2)
    state.balances = [295, 5] if seat == 0 else [5, 295]  # type: ignore[attr-defined]
    assert choose(plugin, state, seat, random.Random(2), iterations=60) in scoring


def test_dice_stands_on_a_large_straight() -> None:
    plugin = registry.game("dice")
    for seats in (1, 3):
        state = plugin.new_state(plugin.parse_rules(None, seats), seats)
        for seat in range(seats):  # the order: seat 0 rolls highest
            if state.needs_chance() and seats > 1:
                plugin.apply_chance(state, {"type": "order", "seat": seat,
                                            "die": 6 if seat == 0 else 1}, 0)
        plugin.apply_chance(state, {"type": "roll", "seat": 0, "dice": [2, 3, 4, 5, 6]}, 0)
        assert state.to_act() == 0
        assert choose(plugin, state, 0, random.Random(3), iterations=300) == DA.STAND


def auction_position(balance: int) -> tuple[object, int]:
    """A Spectacular Bid auction where the non-jockey (to act) holds ``balance``."""
    plugin = registry.game("spectacular-bid")
    for seed in range(400):
        state = random_position(plugin, 2, seed, 200).state
        if getattr(state, "phase", "") == "auction":
            seat = state.to_act()
            assert seat is not None
            state.balances[seat] = balance  # type: ignore[attr-defined]
            state.balances[1 - seat] = 300 - balance  # type: ignore[attr-defined]
            return state, seat
    raise AssertionError("no auction reached")


@pytest.mark.parametrize("balance", [20, 25, 60])
def test_the_auction_never_bids_the_whole_balance(balance: int) -> None:
    plugin = registry.game("spectacular-bid")
    state, seat = auction_position(balance)
    for seed in range(3):
        action = choose(plugin, state, seat, random.Random(seed), iterations=80)
        assert action in state.legal_actions(seat)
        amount = bid_amount(plugin, action)
        assert amount is None or payment(state, seat, amount) < balance


DOMINO_CASES = [("fives", 2), ("fives", 4), ("spectacular-bid", 2)]


@pytest.mark.parametrize(("key", "seats"), DOMINO_CASES)
def test_a_hand_is_searched_in_rounds_of_every_root_action(key: str, seats: int) -> None:
    """In a hand under way the root's actions are tried in rounds over the same worlds:
    equal visits, give or take one, whatever the luck of the deals."""
    plugin = registry.game(key)
    checked = 0
    for seed in range(200):
        state = random_position(plugin, seats, seed, 6 + seed % 10).state
        seat = state.to_act()
        if state.result is None and seat is not None and state.hand_walk() is not None \
                and len(state.legal_actions(seat)) > 2:
            stats = evaluate(plugin, state, seat, random.Random(seed), iterations=40)
            visits = [entry.visits for entry in stats.values()]
            assert set(stats) == set(state.legal_actions(seat))
            assert sum(visits) == 40 and max(visits) - min(visits) <= 1
            checked += 1
            if checked == 5:
                return
    raise AssertionError(f"only {checked} positions in a hand with three choices found")


def test_a_single_legal_play_is_searched_too() -> None:
    """A seat with one legal action (say, a tile it drew that fits only once): the
    search still runs; no round of one."""
    plugin = registry.game("fives")
    for seed in range(50):
        state = random_position(plugin, 2, seed, 4).state
        rng = random.Random(seed)
        while state.result is None and (seat := state.to_act()) is not None:
            legal = state.legal_actions(seat)
            if len(legal) == 1 and state.hand_walk() is not None:
                root = search(plugin, state, seat, rng, Budget(iterations=5))
                assert root.visits == 5
                return
            state.apply(seat, rng.choice(legal), 0)
    raise AssertionError("no position with a single legal action found")
