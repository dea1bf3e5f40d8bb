"""Driving a copy of a game through the protocol: chance, non-decisions, the horizon.

A search only ever stops at a *decision*: a seat to act with at least two legal actions.
Everything else is resolved on the way, the way ``bench/engine.py`` plays random games:
chance outcomes come from the plugin (``sample_chance`` / ``apply_chance``, with the rng
passed in), a single legal action is applied at once, and a phase where nobody is to act
(Spectacular Bid's Continue) is passed by applying each seat's first legal action.

Time stands still inside a search: every action is applied at ``SEARCH_NOW_US`` (0). A
clock started earlier never counts a negative time, and no deadline is at or before 0,
so no seat is ever flagged in a simulated future.

The horizon: a search looks to the end of the current hand (a deal of a domino game, a
round of the dice game), counted by the state's ``hands_summary`` or ``rounds`` as the
engine benchmark counts them, or to the end of the match when the state has neither.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState

SEARCH_NOW_US = 0
STEP_LIMIT = 10_000  # a loop guard: far more steps than any hand has

# Picks one of ``legal`` for ``seat`` (a playout policy).
Policy = Callable[[GameState, int, Sequence[int], random.Random], int]


def hands_begun(state: GameState) -> int:
    """How many hands (rounds) have begun: the horizon's counter."""
    played = getattr(state, "hands_summary", None)
    if played is None:
        played = getattr(state, "rounds", None)
    return len(played) if isinstance(played, list) else 0


class Horizon:
    """Where simulations of one search stop: ``hands`` hand ends after the root's hand."""

    __slots__ = ("limit",)

    def __init__(self, root: GameState, hands: int = 1) -> None:
        self.limit = hands_begun(root) + hands

    def reached(self, state: GameState) -> bool:
        return state.result is not None or hands_begun(state) >= self.limit


def apply_legal(state: GameState, seat: int, action: int) -> None:
    outcome = state.apply(seat, action, SEARCH_NOW_US)
    if not getattr(outcome, "applied", False):
        raise ValueError(f"the search applied an action the state refused: {action}")


def _pass_idle_phase(state: GameState) -> bool:
    """Nobody is to act: apply each seat's first legal action (a Continue); False when no
    seat has one and time had to pass instead."""
    moved = False
    for seat in range(state.num_seats):
        legal = state.legal_actions(seat)
        if legal:
            apply_legal(state, seat, legal[0])
            moved = True
    if not moved:
        state.advance(state.next_deadline_us() or SEARCH_NOW_US)
    return moved


def to_decision(plugin: GamePlugin, state: GameState, rng: random.Random,
                horizon: Horizon) -> int | None:
    """Advance ``state`` to the next decision and return its seat; None at the horizon
    (or when the state is stuck, which a well-formed game never is)."""
    idle = 0
    for _ in range(STEP_LIMIT):
        if horizon.reached(state):
            return None
        if state.needs_chance():
            plugin.apply_chance(state, plugin.sample_chance(state, rng), SEARCH_NOW_US)
            continue
        seat = state.to_act()
        if seat is None:
            idle = 0 if _pass_idle_phase(state) else idle + 1
            if idle > 2:
                return None
            continue
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            return seat
        if not legal:
            return None
        apply_legal(state, seat, legal[0])
    return None


def play_out(plugin: GamePlugin, state: GameState, rng: random.Random, horizon: Horizon,
             policy: Policy) -> None:
    """Play ``state`` to the horizon with ``policy`` choosing every decision."""
    for _ in range(STEP_LIMIT):
        seat = to_decision(plugin, state, rng, horizon)
        if seat is None:
            return
        apply_legal(state, seat, policy(state, seat, state.legal_actions(seat), rng))


def uniform_policy(state: GameState, seat: int, legal: Sequence[int],
                   rng: random.Random) -> int:
    """The default playout: any legal action, uniformly."""
    return legal[rng.randrange(len(legal))]
