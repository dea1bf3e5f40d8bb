"""The playout policy every game's search shares: mostly greedy, sometimes random.

A uniform playout undervalues a domino hand badly (it gives points away at every turn),
so the default picks, with probability ``1 - EXPLORE``, the action scoring most at once,
shedding the heaviest tile among equals, and otherwise any legal action. What an action
scores at once is read without changing the state: a placement (as the plugin's codec
describes it, ``type`` "play" with ``tile``, ``target``, ``port``) on a state with a
domino ``board`` scores the counting-ends sum when it is a positive multiple of 5, the
same for both domino games. For an action of any other kind (a draw, a bid, a die keep)
nothing is known at once, so such a decision is uniform.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from games.dominoes.board import PORT_BY_NAME
from games.dominoes.tiles import PIPS, tile_from_name
from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState

EXPLORE = 0.2
NO_TARGET = -1


@cache
def placement(plugin: GamePlugin, code: int) -> tuple[int, int, int] | None:
    """(tile, target, port) of a placement code (-1, -1 for a lead), None otherwise."""
    fields = plugin.action_to_dict(0, code)
    if fields.get("type") != "play" or not isinstance(fields.get("tile"), str):
        return None
    tile = tile_from_name(fields["tile"])
    target = fields.get("target")
    if not isinstance(target, str):
        return tile, NO_TARGET, NO_TARGET
    return tile, tile_from_name(target), PORT_BY_NAME[str(fields["port"])]


def immediate_points(plugin: GamePlugin, state: GameState, code: int) -> tuple[int, int] | None:
    """(points scored at once, pips shed) of a placement, None when it cannot be told."""
    board = getattr(state, "board", None)
    parts = placement(plugin, code)
    if parts is None or board is None:
        return None
    tile, target, port = parts
    total = int(board.sum_after(tile, target, port))
    return (total if total > 0 and total % 5 == 0 else 0), PIPS[tile]


class GreedyPolicy:
    """The shared playout policy for ``plugin``'s states (see the module). A state that
    offers ``hand_rollout`` plays the same policy there, faster (``reward.simulate``)."""

    __slots__ = ("explore", "plugin")

    def __init__(self, plugin: GamePlugin, explore: float = EXPLORE) -> None:
        self.plugin = plugin
        self.explore = explore

    def __call__(self, state: GameState, seat: int, legal: Sequence[int],
                 rng: random.Random) -> int:
        if rng.random() >= self.explore:
            best: tuple[int, int] | None = None
            chosen = legal[0]
            for code in legal:
                value = immediate_points(self.plugin, state, code)
                if value is None:
                    break
                if best is None or value > best:
                    best, chosen = value, code
            else:
                return chosen
        return legal[rng.randrange(len(legal))]


def greedy_policy(plugin: GamePlugin, explore: float = EXPLORE) -> GreedyPolicy:
    """The shared playout policy for ``plugin``'s states."""
    return GreedyPolicy(plugin, explore)
