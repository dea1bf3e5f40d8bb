"""What the opponents' placements say about their hands: deals weighed by how likely each
opponent's placements of the hand under way would have been, had it held the dealt tiles.

Players score when they can. The model takes each placement to be chosen among all the
placements the player's hand allowed then with weight ``exp(SCORING_PREFERENCE *
points)`` (a softmax of what each would have scored at once). A deal in which an opponent
held a tile that would have scored, and placed one that scored less, is then less likely
than one in which it held no such tile; the placement actually made weighs the same in
every deal, so a deal's weight is, per placement, one over the sum of the weights of the
placements its hand then allowed.

Its hand then is its hand in the deal and the tiles it has placed since. That holds only
until it draws (a draw brings in tiles the seat cannot name), so the placements before an
opponent's last draw are not read. The searching seat's own placements say nothing it
does not know.

The weighing is a belief on top of the constraints the deal keeps anyway (``worlds``: the
hand sizes, the numbers an opponent could not follow): ``worlds.Dealer`` deals a pool of
worlds under them and draws from it by these weights. Measured against the true deal
(the regret of each decision, ``bench/regret.py``): Fives for four, the hard search at
1,500 iterations on the same 2,140 decisions, 36.0 without the belief, 34.2 at a
preference of 0.4 a point, 32.5 at 1 and 32.0 at 3 (300 iterations: 39.0; runs differ
by up to about 1.4 from their random numbers alone). At two seats, where opponents draw
and leave little to read, no difference shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.dominoes.board import Board
from games.dominoes.hidden import public_steps
from games.dominoes.tiles import TILE_COUNT, tile_from_name
from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState

# How strongly a player is taken to prefer points (β of the softmax, per point): at 1 a
# placement scoring 5 is e⁵ ≈ 150 times as likely as one scoring nothing, and the
# weighing is still soft enough for a player who does not always score.
SCORING_PREFERENCE = 1.0


def _points(ends_sum: int) -> int:
    return ends_sum if ends_sum > 0 and ends_sum % 5 == 0 else 0


def _tile_weights(board: Board, preference: float) -> tuple[float, ...]:
    """Per tile: the sum of ``exp(preference * points)`` over the places it could take."""
    if board.is_empty:
        return tuple(math.exp(preference * _points(board.sum_after(tile, -1, -1)))
                     for tile in range(TILE_COUNT))
    return tuple(sum(math.exp(preference * _points(board.sum_after(tile, target, port)))
                     for target, port, _ in board.places_for(tile))
                 for tile in range(TILE_COUNT))


@dataclass(frozen=True, slots=True)
class Placement:
    """An opponent's placement, read as evidence about the hand it placed from."""

    seat: int
    tile_weights: tuple[float, ...]  # per tile (see ``_tile_weights``), on the board it met
    placed_since: int  # the tiles the seat placed from this placement on, as a mask


class PlacementBelief:
    """The opponents' placements of the hand under way, seen from ``seat``."""

    __slots__ = ("placements",)

    def __init__(self, plugin: GamePlugin, state: GameState, seat: int,
                 preference: float = SCORING_PREFERENCE) -> None:
        read: list[tuple[int, tuple[float, ...], int]] = []  # (seat, weights, play index)
        plays: list[tuple[int, int]] = []  # (seat, tile) of every placement, in order
        for step in public_steps(plugin, state):
            if step.kind == "draw":  # its hand before this draw cannot be named
                read = [entry for entry in read if entry[0] != step.seat]
            elif step.kind == "play":
                if step.seat != seat:
                    read.append((step.seat, _tile_weights(step.board, preference), len(plays)))
                plays.append((step.seat, tile_from_name(str(step.fields["tile"]))))
        self.placements = [
            Placement(player, weights,
                      sum(1 << tile for placer, tile in plays[index:] if placer == player))
            for player, weights, index in read]

    def log_weight(self, hands: Sequence[int]) -> float:
        """The log of a deal's weight (up to a constant), ``hands`` its hand masks."""
        total = 0.0
        for placement in self.placements:
            weights = placement.tile_weights
            held = hands[placement.seat] | placement.placed_since
            allowed = 0.0
            while held:
                low = held & -held
                allowed += weights[low.bit_length() - 1]
                held ^= low
            total -= math.log(allowed)
        return total
