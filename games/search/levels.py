"""Computer-player levels, each a pure function ``(plugin, state, seat, rng, budget) -> code``.

- ``easy``: a greedy on a determinized copy: the action whose immediate consequences
  (to the next decision, chance averaged over a few draws) gain the most points over the
  others. A bid is valued as if accepted, with its payment less what its best opening
  scores at once, so it bids only when the opening would score at least the bid.
- ``medium``: determinized flat Monte Carlo: a quarter of the iterations, or an eighth of
  the time (its simulations walk no tree and cost about half of the tree's, so that is
  again about a quarter of hard's: a quarter of the time was nearly half), spread evenly over
  the root's actions (chosen by mean reward, the points at once weighing in as in the
  tree's progressive bias), each simulation in a freshly dealt world played out by the
  shared policy.
- ``hard``: SO-ISMCTS (``ismcts``) with the whole budget, its worlds weighed by what the
  opponents' placements say of their hands (``belief``; medium's worlds are not).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState

from .budget import Budget
from .candidates import bid_amount, considered
from .drive import Horizon, apply_legal, to_decision
from .ismcts import choose, prior
from .playout import greedy_policy
from .reward import margins, simulate
from .worlds import Dealer, determinize

Level = Callable[[GamePlugin, GameState, int, random.Random, Budget], int]

CHANCE_SAMPLES = 6  # draws averaged when an action's consequence is a roll
MEDIUM_SHARE = 0.25  # of the iterations
MEDIUM_TIME_SHARE = 0.125  # of the time


def _settle(plugin: GamePlugin, world: GameState, rng: random.Random) -> None:
    """Resolve what follows an action up to the next decision (chance, forced moves)."""
    to_decision(plugin, world, rng, Horizon(world, hands=1))


def _margin(plugin: GamePlugin, world: GameState, seat: int, before: list[int]) -> float:
    after = plugin.scores(world)
    return margins(before, after)[seat] if after and before else 0.0


def _accept_code(plugin: GamePlugin, world: GameState, seat: int) -> int | None:
    for code in world.legal_actions(seat):
        if plugin.action_to_dict(seat, code).get("type") == "accept":
            return code
    return None


def _bid_value(plugin: GamePlugin, world: GameState, seat: int, action: int,
               rng: random.Random, before: list[int]) -> float:
    """A bid as if accepted: its payment, then the best opening's score at once."""
    apply_legal(world, seat, action)
    other = world.to_act()
    accept = None if other is None else _accept_code(plugin, world, other)
    if other is None or accept is None:
        return _margin(plugin, world, seat, before)
    apply_legal(world, other, accept)
    _settle(plugin, world, rng)
    if world.to_act() != seat:
        return _margin(plugin, world, seat, before)
    return max(_gain(plugin, world, seat, code, rng, before, bids=False)
               for code in world.legal_actions(seat))


def _gain(plugin: GamePlugin, world: GameState, seat: int, action: int, rng: random.Random,
          before: list[int], bids: bool = True) -> float:
    """The seat's margin gained by ``action`` and what follows it up to the next decision."""
    if bids and bid_amount(plugin, action) is not None:
        return _bid_value(plugin, copy.deepcopy(world), seat, action, rng, before)
    total = 0.0
    for sample in range(CHANCE_SAMPLES):
        trial = copy.deepcopy(world)
        apply_legal(trial, seat, action)
        chance = trial.needs_chance()
        _settle(plugin, trial, rng)
        total += _margin(plugin, trial, seat, before)
        if not chance:
            return total / (sample + 1)
    return total / CHANCE_SAMPLES


def easy(plugin: GamePlugin, state: GameState, seat: int, rng: random.Random,
         budget: Budget) -> int:
    legal = considered(plugin, state, seat, state.legal_actions(seat))
    if len(legal) == 1:
        return legal[0]
    world = determinize(plugin, state, seat, rng)
    before = plugin.scores(state)
    gains = {code: _gain(plugin, world, seat, code, rng, before) for code in legal}
    top = max(gains.values())
    best = [code for code in legal if gains[code] >= top - 1e-9]
    priced = [code for code in best if bid_amount(plugin, code) is not None]
    if priced:  # an opening worth its bid is bought, at the lowest price
        return min(priced, key=lambda code: bid_amount(plugin, code) or 0)
    return best[rng.randrange(len(best))]


def medium(plugin: GamePlugin, state: GameState, seat: int, rng: random.Random,
           budget: Budget) -> int:
    legal = considered(plugin, state, seat, state.legal_actions(seat))
    if len(legal) == 1:
        return legal[0]
    share = budget.share(MEDIUM_SHARE, MEDIUM_TIME_SHARE)
    horizon = Horizon(state)
    before = plugin.scores(state)
    visits = dict.fromkeys(legal, 0)
    totals = dict.fromkeys(legal, 0.0)
    policy = greedy_policy(plugin)
    dealer = Dealer(plugin, state, seat)
    done = 0
    while not share.spent(done):
        action = legal[done % len(legal)]
        world = dealer.world(rng)
        apply_legal(world, seat, action)
        visits[action] += 1
        totals[action] += simulate(plugin, world, rng, horizon, policy, before)[seat]
        done += 1
    # By mean (the visits are equal, give or take one), the points at once breaking ties
    # and weighing in while the samples are few, as in the tree's progressive bias.
    return max(legal, key=lambda a: totals[a] / max(1, visits[a])
               + prior(plugin, state, a) / (visits[a] + 1))


def hard(plugin: GamePlugin, state: GameState, seat: int, rng: random.Random,
         budget: Budget) -> int:
    return choose(plugin, state, seat, rng, iterations=budget.iterations,
                  deadline=budget.deadline, now=budget.now)


LEVELS: dict[str, Level] = {"easy": easy, "medium": medium, "hard": hard}
