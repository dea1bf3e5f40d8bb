"""SO-ISMCTS (Cowling, Powley and Whitehouse 2012, "Information Set Monte Carlo Tree
Search", the single-observer variant) through the game protocol, for every game.

One tree for the searching seat's information set: each iteration deals the hidden part
again (``worlds.Dealer``: what the seat cannot see, consistent with what it saw, and
weighed by what the opponents' placements say of their hands, ``belief``),
walks the tree choosing among the actions legal *in that world* (a child counts its
availability: how often it was legal when its parent was visited, the subset-armed
bandit of the paper), expands one action, plays out to the horizon with the shared
playout policy and backs up one reward per seat (max-n), so that at each node the seat to
act chooses by its own mean reward. Chance outcomes (deals, rolls) are drawn on the way
through the plugin; a tree node is reached by actions only (open loop), so the nodes
after a die roll average over the rolls.

Where the worlds are hand walks (see ``search``), the root is searched in rounds: one
world is dealt and each root action is tried in turn in a copy of it, with the same
random numbers below the root (common random numbers). Every root action then has the
same visits, give or take one, and their means are compared over the same worlds.

``choose`` returns the root action of best mean among the well visited ones
(``best_action``); ``evaluate`` the root's statistics per action (visits, mean reward of
the searching seat) for a later game review.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState, HandWalk

from .budget import Budget
from .candidates import considered
from .drive import Horizon, Policy, apply_legal, to_decision
from .playout import GreedyPolicy, greedy_policy, immediate_points
from .reward import MARGIN_SCALE, rollout_rewards, simulate
from .worlds import Dealer

EXPLORATION = 0.3  # the UCB constant, for rewards in [0, 1]
# Progressive bias: what an action scores at once (when the playout policy can tell) adds
# BIAS * tanh(points / MARGIN_SCALE), fading as 1 / (visits + 1); untried actions are
# expanded best first. Small budgets then start from the greedy choice and refine it.
BIAS = 0.6
# The choice at the root: the best mean among the actions visited at least this share of
# the most visited one's visits. Rewards of a domino hand differ by a few hundredths
# between moves, so UCB spreads a small budget almost evenly and the most visited action
# is close to a coin toss; the mean of a well-sampled action is not (duplicate matches
# of Fives at 100 ms a decision, hard vs medium: 0.50 by visits, 0.66 by mean).
WELL_VISITED = 0.5


@dataclass(frozen=True, slots=True)
class ActionStats:
    visits: int
    mean: float  # mean reward of the searching seat, in [0, 1]


class Node:
    """The edge into this node's action: its visits, availability and reward per seat."""

    __slots__ = ("availability", "bias", "children", "totals", "visits")

    def __init__(self, seats: int, bias: float = 0.0) -> None:
        self.children: dict[tuple[int, int], Node] = {}  # by (seat, action)
        self.visits = 0
        self.availability = 0
        self.totals = [0.0] * seats
        self.bias = bias

    def score(self, seat: int) -> float:
        """UCB1 over availability, for the seat choosing among this node's siblings."""
        mean = self.totals[seat] / self.visits
        return (mean + EXPLORATION * math.sqrt(math.log(self.availability) / self.visits)
                + self.bias / (self.visits + 1))


def prior(plugin: GamePlugin, world: GameState, action: int) -> float:
    """The progressive bias of ``action``: its points at once, when they can be told."""
    known = immediate_points(plugin, world, action)
    return 0.0 if known is None else bias_of(known[0])


def bias_of(points: int) -> float:
    return BIAS * math.tanh(points / MARGIN_SCALE)


def _select(node: Node, seat: int, actions: list[int], rng: random.Random,
            bias: Callable[[int], float]) -> tuple[Node, int, bool]:
    """The child of ``node`` that ``seat`` walks to among ``actions`` (those legal in this
    world), and its action; True when it was just expanded (the walk stops there)."""
    children = node.children
    untried = []
    for action in actions:
        child = children.get((seat, action))
        if child is None:
            untried.append(action)
        else:
            child.availability += 1
    if untried:
        biases = {a: bias(a) for a in untried}
        top = max(biases.values())
        best = [a for a in untried if biases[a] >= top]
        action = best[rng.randrange(len(best))]
        child = children[seat, action] = Node(len(node.totals), biases[action])
        child.availability = 1
        return child, action, True
    action = max(actions, key=lambda a: children[seat, a].score(seat))
    return children[seat, action], action, False


def _given(node: Node, seat: int, actions: list[int], action: int,
           bias: Callable[[int], float]) -> tuple[Node, int, bool]:
    """``_select`` with the action given: availability counted for all of ``actions``."""
    children = node.children
    for other in actions:
        child = children.get((seat, other))
        if child is not None:
            child.availability += 1
    child = children.get((seat, action))
    if child is None:
        child = children[seat, action] = Node(len(node.totals), bias(action))
        child.availability = 1
        return child, action, True
    return child, action, False


def _descend(plugin: GamePlugin, root: Node, world: GameState, rng: random.Random,
             horizon: Horizon) -> list[Node]:
    """Selection and expansion in one world; returns the path walked (root first)."""
    path = [root]
    node = root
    while (seat := to_decision(plugin, world, rng, horizon)) is not None:
        actions = considered(plugin, world, seat, world.legal_actions(seat))
        node, action, expanded = _select(node, seat, actions, rng,
                                         lambda a: prior(plugin, world, a))
        apply_legal(world, seat, action)
        path.append(node)
        if expanded:
            break
    return path


def _descend_hand(root: Node, walk: HandWalk, rng: random.Random,
                  first: int | None = None) -> list[Node]:
    """``_descend`` on a hand walk: the same tree and choices, without the protocol;
    ``first``: the root's action, given instead of chosen."""
    path = [root]
    node = root
    bias = lambda a: bias_of(walk.points_now(a))  # noqa: E731
    while (seat := walk.decision()) is not None:
        if first is not None:
            node, action, expanded = _given(node, seat, walk.codes, first, bias)
            first = None
        else:
            node, action, expanded = _select(node, seat, walk.codes, rng, bias)
        walk.play(action)
        path.append(node)
        if expanded:
            break
    return path


def _back_up(path: list[Node], reward: list[float]) -> None:
    for node in path:
        node.visits += 1
        totals = node.totals
        for s, value in enumerate(reward):
            totals[s] += value


def search(plugin: GamePlugin, state: GameState, seat: int, rng: random.Random,
           budget: Budget, policy: Policy | None = None, hands: int = 1,
           shortcut: bool = True, rounds: bool = True, dealer: Dealer | None = None) -> Node:
    """Run the search from ``seat``'s decision in ``state``; returns the root.

    Where the search looks to the end of the hand under way with the shared playout
    policy and the state offers a ``hand_walk`` (both domino games, once a hand is in
    play), the worlds are hand walks: the same rules, tree and policy without the
    protocol's checks, clock and records, at 1.4 to 2 times the iterations in a given time
    (tests/search/test_hand_walk.py holds the two ways to each other). ``shortcut``
    False keeps to the protocol. On walks the root is searched in rounds (see the
    module); ``rounds`` False deals a world for every iteration, as the protocol's way
    does. ``dealer``: the worlds searched (by default dealt from what the seat saw and
    weighed by the opponents' placements; ``bench/regret.py`` gives its judge the true
    deal)."""
    choices = len(state.legal_actions(seat))
    if state.to_act() != seat or choices < 1:
        raise ValueError(f"seat {seat} has no decision to search")
    policy = policy or greedy_policy(plugin)
    root = Node(state.num_seats)
    horizon = Horizon(state, hands)
    before = plugin.scores(state)
    dealer = Dealer(plugin, state, seat, weighed=True) if dealer is None else dealer
    start = explore = None
    if shortcut and isinstance(policy, GreedyPolicy) and hands == 1:
        start, explore = dealer.start_walk(), policy.explore
    done = 0
    # The root's actions in rounds: one world dealt, then each action in turn on a copy
    # of it with the same random numbers below (common random numbers), so that the
    # means at the root differ by the actions rather than by the luck of their worlds.
    # Duplicate matches, hard vs easy, the same seeds both ways: at 300 iterations a
    # decision Fives for two 0.73 -> 0.76 (500 pairs), for four 0.70 -> 0.76 (100),
    # Spectacular Bid 0.77 -> 0.77 (500); at 100 ms Fives for four 0.71 -> 0.72 (300).
    # (A single legal action is played by the walk as a forced step: no rounds of one.)
    dealt = start if rounds and choices > 1 else None
    round_left: list[int] = []
    seed = 0
    while not budget.spent(done):
        if start is not None and explore is not None:
            if dealt is not None:
                if not round_left:
                    dealt = dealer.walk(start, rng)
                    dealt.decision()
                    round_left = dealt.codes[::-1]
                    seed = rng.getrandbits(64)
                walk, walk_rng, first = dealt.copy(), random.Random(seed), round_left.pop()
            else:
                walk, walk_rng, first = dealer.walk(start, rng), rng, None
            path = _descend_hand(root, walk, walk_rng, first)
            walk.play_out(walk_rng, explore)
            reward = rollout_rewards(walk.scores, walk.game_over, before)
        else:
            world = dealer.world(rng)
            path = _descend(plugin, root, world, rng, horizon)
            reward = simulate(plugin, world, rng, horizon, policy, before)
        _back_up(path, reward)
        done += 1
    return root


def evaluate(plugin: GamePlugin, state: GameState, seat: int, rng: random.Random, *,
             iterations: int | None = None, deadline: float | None = None,
             now: Callable[[], float] | None = None, playout: Policy | None = None,
             hands: int = 1, dealer: Dealer | None = None) -> dict[int, ActionStats]:
    """Per root action: its visits and the searching seat's mean reward."""
    legal = state.legal_actions(seat)
    if len(legal) == 1 and state.to_act() == seat:
        return {legal[0]: ActionStats(0, 0.5)}  # nothing to weigh
    root = search(plugin, state, seat, rng, Budget.of(iterations, deadline, now), playout,
                  hands, dealer=dealer)
    return {action: ActionStats(child.visits, child.totals[seat] / max(1, child.visits))
            for (_, action), child in root.children.items()}


def best_action(stats: dict[int, ActionStats]) -> int:
    """The best mean among the actions visited at least ``WELL_VISITED`` of the most
    visited one's visits; equal means: the more visits, then the lower code."""
    top = max(entry.visits for entry in stats.values())
    sampled = [a for a, entry in stats.items() if entry.visits >= WELL_VISITED * top]
    return max(sampled, key=lambda a: (stats[a].mean, stats[a].visits, -a))


def choose(plugin: GamePlugin, state: GameState, seat: int, rng: random.Random, *,
           iterations: int | None = None, deadline: float | None = None,
           now: Callable[[], float] | None = None, playout: Policy | None = None,
           hands: int = 1) -> int:
    """The action code the search picks for ``seat``'s decision in ``state``."""
    stats = evaluate(plugin, state, seat, rng, iterations=iterations, deadline=deadline,
                     now=now, playout=playout, hands=hands)
    return best_action(stats)
