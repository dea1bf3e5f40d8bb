"""What a simulation is worth to each seat, in [0, 1] (max-n: one reward per seat).

- The match ended within the horizon: by rank, 1 for sole first, 0 for sole last, a tie
  sharing the places it covers (two seats tied first of two: 0.5 each). A win or a loss
  outweighs any points margin.
- Otherwise (the horizon, the end of the hand, was reached first): the seat's points
  gained since the root less the mean gained by the others (for Spectacular Bid a balance
  moved, for Fives points scored, for dice the round's score), squashed into
  [0.1, 0.9] by ``0.5 + 0.4 tanh(margin / scale)``: ``scale`` 30 points, a typical swing
  of one hand in each of the three games. A seat alone at the table scores its own gain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState

MARGIN_SCALE = 30.0
MARGIN_SPAN = 0.4  # a margin never reaches the reward of a win (1) or a loss (0)


def margins(before: Sequence[int], after: Sequence[int]) -> list[float]:
    """Each seat's points gained less the mean of the others' gains."""
    gains = [a - b for a, b in zip(after, before, strict=True)]
    seats = len(gains)
    if seats == 1:
        return [float(gains[0])]
    total = sum(gains)
    return [gain - (total - gain) / (seats - 1) for gain in gains]


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
    after = plugin.scores(state) or [0] * seats
    start = before or [0] * seats
    return [0.5 + MARGIN_SPAN * math.tanh(m / MARGIN_SCALE) for m in margins(start, after)]
