"""What a simulation is worth to each seat, in [0, 1] (max-n: one reward per seat).

- The match ended within the horizon: by rank, 1 for sole first, 0 for sole last, a tie
  sharing the places it covers (two seats tied first of two: 0.5 each). A win or a loss
  outweighs any points margin.
- Otherwise (the horizon, the end of the hand, was reached first): the seat's points
  gained since the root less the most gained by any other seat (for Spectacular Bid a
  balance moved, for Fives points scored, for dice the round's score), squashed into
  [0.1, 0.9] by ``0.5 + 0.4 tanh(margin / scale)``: ``scale`` 30 points, a typical swing
  of one hand in each of the three games. A seat alone at the table scores its own gain.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState, HandRollout

from .drive import Horizon, Policy, hands_begun, play_out
from .playout import GreedyPolicy

MARGIN_SCALE = 30.0
MARGIN_SPAN = 0.4  # a margin never reaches the reward of a win (1) or a loss (0)


def margins(before: Sequence[int], after: Sequence[int]) -> list[float]:
    """Each seat's points gained less the most gained by any other seat.

    Against the best other rather than the others' mean: at four seats a game is won by
    finishing first, so the points given to one opponent are not diluted by the two who
    gained nothing (a 5 scored that sets up the next seat's 15 is a loss, not a draw).
    Duplicate matches of Fives for four at 430 iterations a decision, hard vs easy, 60
    pairs on the same seeds: 0.74 against the mean, 0.79 against the best other. At two
    seats the two are the same."""
    gains = [a - b for a, b in zip(after, before, strict=True)]
    if len(gains) == 1:
        return [float(gains[0])]
    return [gain - max(other for j, other in enumerate(gains) if j != seat)
            for seat, gain in enumerate(gains)]


def by_rank(ranks: Sequence[int]) -> list[float]:
    """1 for sole first ... 0 for sole last; tied seats share the places they cover."""
    seats = len(ranks)
    rewards = []
    for rank in ranks:
        below = sum(1 for other in ranks if other > rank)
        tied = sum(1 for other in ranks if other == rank) - 1
        rewards.append((below + tied / 2) / (seats - 1))
    return rewards


def rewards(plugin: GamePlugin, state: GameState, before: Sequence[int]) -> list[float]:
    """The reward of every seat for a simulation that ended in ``state``."""
    seats = state.num_seats
    if state.result is not None and seats > 1:
        ranks = plugin.ranks(state)
        if ranks is not None:
            return by_rank(ranks)
        return [0.5] * seats
    return by_margin(plugin.scores(state) or [0] * seats, before)


def by_margin(after: Sequence[int], before: Sequence[int]) -> list[float]:
    start = before or [0] * len(after)
    return [0.5 + MARGIN_SPAN * math.tanh(m / MARGIN_SCALE) for m in margins(start, after)]


def ranks_by_score(scores: Sequence[int]) -> list[int]:
    """1 for the highest score; equal scores share a rank."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def play_to_horizon(plugin: GamePlugin, world: GameState, rng: random.Random,
                    horizon: Horizon, policy: Policy) -> HandRollout | None:
    """Play ``world`` to the horizon with ``policy``.

    When the policy is the shared one and the horizon is the end of the hand under way,
    a state that plays hands out itself (``GameState.hand_rollout``) does so and its
    rollout is returned (``world`` is then left as it was): the same policy and rules
    without the protocol's checks, clock and records (tests/search/test_rollout.py holds
    the two ways to the same hands). Otherwise ``world`` is played on; None.
    """
    if isinstance(policy, GreedyPolicy) and horizon.limit == hands_begun(world) + 1:
        rollout = world.hand_rollout(rng, policy.explore)
        if rollout is not None:
            return rollout
    play_out(plugin, world, rng, horizon, policy)
    return None


def simulate(plugin: GamePlugin, world: GameState, rng: random.Random, horizon: Horizon,
             policy: Policy, before: Sequence[int]) -> list[float]:
    """Play ``world`` to the horizon with ``policy`` and return every seat's reward. A
    hand played out by the state that ends the game ranks its seats by score, as both
    domino games do when a hand ends them."""
    rollout = play_to_horizon(plugin, world, rng, horizon, policy)
    if rollout is None:
        return rewards(plugin, world, before)
    return rollout_rewards(rollout.scores, rollout.over, before)


def rollout_rewards(scores: list[int], over: bool, before: Sequence[int]) -> list[float]:
    """The rewards of a hand played out by the state (``hand_rollout``, ``hand_walk``)."""
    if over and len(scores) > 1:
        return by_rank(ranks_by_score(scores))
    return by_margin(scores, before)
