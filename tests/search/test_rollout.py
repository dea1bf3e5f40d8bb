"""A hand played out fast (``GameState.hand_rollout``) is the hand the protocol plays.

From random positions of the domino games, with the same seed, the shortcut and the
protocol's playout (``drive.play_out`` with the shared policy, stopped at the end of the
hand) must reach the same scores and agree on whether the game ended; with a low target
(Fives) or low balances (Spectacular Bid) many hands end the game, so both ends are
exercised. The search's ``simulate`` must then give the rewards the protocol's way gives.
"""

from __future__ import annotations

import copy
import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.search.drive import Horizon, hands_begun, play_out
from games.search.playout import GreedyPolicy
from games.search.reward import rewards, simulate

from .positions import random_position

DOMINO_TABLES = [("spectacular-bid", 2), ("fives", 2), ("fives", 4)]


def _position(game: str, seats: int, seed: int, decisions: int, low: bool,
              variant: int) -> object:
    plugin = registry.game(game)
    rules = None
    if game == "fives":
        rules = {"cross": bool(variant & 1), "full_record": bool(variant & 2)}
    state = random_position(plugin, seats, seed, decisions, rules).state
    if low and game == "fives":
        state.rules = dataclasses.replace(state.rules, target=max(state.scores) + 10)
    elif low:
        state.balances = [min(b, 10 + 5 * variant) for b in state.balances]
    return state


@settings(max_examples=150, deadline=None)
@given(table=st.sampled_from(DOMINO_TABLES), seed=st.integers(0, 10**6),
       decisions=st.integers(0, 40), low=st.booleans(), variant=st.integers(0, 3),
       explore=st.sampled_from([0.0, 0.2, 1.0]), play_seed=st.integers(0, 10**6))
def test_the_shortcut_plays_the_protocols_hand(table: tuple[str, int], seed: int,
                                               decisions: int, low: bool, variant: int,
                                               explore: float, play_seed: int) -> None:
    game, seats = table
    plugin = registry.game(game)
    state = _position(game, seats, seed, decisions, low, variant)
    if state.result is not None:  # type: ignore[attr-defined]
        return
    before = copy.deepcopy(state)
    fast = state.hand_rollout(random.Random(play_seed), explore)  # type: ignore[attr-defined]
    assert plugin.view(state, None) == plugin.view(before, None)  # the state is unchanged
    if state.phase != "play":  # type: ignore[attr-defined]
        assert fast is None  # Spectacular Bid's auction: the protocol's way
        return
    assert fast is not None
    slow = copy.deepcopy(state)
    play_out(plugin, slow, random.Random(play_seed), Horizon(slow, hands=1),
             GreedyPolicy(plugin, explore))
    assert fast.scores == plugin.scores(slow)
    assert fast.over == (slow.result is not None)


@settings(max_examples=40, deadline=None)
@given(table=st.sampled_from(DOMINO_TABLES), seed=st.integers(0, 10**6),
       decisions=st.integers(0, 40), low=st.booleans(), play_seed=st.integers(0, 10**6))
def test_simulate_rewards_as_the_protocol_does(table: tuple[str, int], seed: int,
                                               decisions: int, low: bool,
                                               play_seed: int) -> None:
    game, seats = table
    plugin = registry.game(game)
    state = _position(game, seats, seed, decisions, low, 0)
    if state.result is not None:  # type: ignore[attr-defined]
        return
    start = plugin.scores(state)  # type: ignore[arg-type]
    horizon = Horizon(state, hands=1)  # type: ignore[arg-type]
    assert horizon.limit == hands_begun(state) + 1  # type: ignore[arg-type]
    fast = simulate(plugin, copy.deepcopy(state), random.Random(play_seed), horizon,
                    GreedyPolicy(plugin), start)
    slow = copy.deepcopy(state)
    play_out(plugin, slow, random.Random(play_seed), horizon, GreedyPolicy(plugin))
    assert fast == rewards(plugin, slow, start)


def test_no_shortcut_between_hands_or_past_the_hand() -> None:
    plugin = registry.game("fives")
    state = plugin.new_state(plugin.parse_rules(None, 2), 2)
    assert state.hand_rollout(random.Random(0), 0.2) is None  # a deal is due
    dice = registry.game("dice")
    table = dice.new_state(dice.parse_rules(None, 2), 2)
    assert table.hand_rollout(random.Random(0), 0.2) is None  # no shortcut in that game
