"""Random positions of every registered game, reached by random play through the plugin.

Beside the state, the numbers each seat could not follow are tracked as the hand goes,
from the steps the engine reports (not from the search's own reading of the moves): a
seat that drew or passed with open values V holds no tile of V, until it draws in a
later turn (its draws start a new record).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState, Outcome, Step


@dataclass
class Position:
    state: GameState
    voids: list[int] = field(default_factory=list)  # per seat, values it cannot hold
    last_kind: list[str] = field(default_factory=list)


def _track(plugin: GamePlugin, position: Position, steps: list[Step]) -> None:
    board = getattr(position.state, "board", None)
    values = int(board.open_values) if board is not None else 0
    for step in steps:
        if step.seat is None:
            continue
        kind = str(plugin.action_to_dict(step.seat, step.action).get("type"))
        seat = step.seat
        if kind == "draw":
            same_turn = position.last_kind[seat] == "draw"
            position.voids[seat] = (position.voids[seat] | values) if same_turn else values
        elif kind == "pass":
            position.voids[seat] |= values
        if kind in ("draw", "pass", "play"):
            position.last_kind[seat] = kind


def random_position(plugin: GamePlugin, seats: int, seed: int, decisions: int,
                    rules: object = None) -> Position:
    """A state after up to ``decisions`` random decisions, stopped at a decision."""
    rng = random.Random(seed)
    state = plugin.new_state(plugin.parse_rules(rules, seats), seats)
    position = Position(state, [0] * seats, [""] * seats)
    made = 0
    for _ in range(20_000):
        if state.result is not None:
            return position
        if state.needs_chance():
            plugin.apply_chance(state, plugin.sample_chance(state, rng), 0)
            position.voids, position.last_kind = [0] * seats, [""] * seats
            continue
        seat = state.to_act()
        if seat is None:
            for other in range(seats):
                legal = state.legal_actions(other)
                if legal:
                    state.apply(other, legal[0], 0)
            continue
        legal = state.legal_actions(seat)
        if made >= decisions and len(legal) > 1:
            return position
        outcome = state.apply(seat, rng.choice(legal), 0)
        assert isinstance(outcome, Outcome)
        _track(plugin, position, outcome.steps)
        made += 1
    return position
