"""Hidden tiles, dealt again: the worlds a seat cannot tell apart from the real one.

A seat sees its own tiles and what is on the board; the other hands and the undrawn
stock are hidden. Dealing those hidden tiles again at random (each hand keeping its
size, the stock its length) gives a state the seat's view cannot tell from the true
one: what a searching computer player samples (ISMCTS), and what the tests compare
views against to prove no view leaks a hidden tile.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any, TypeVar, cast

from .tiles import tiles_in


def redeal_hidden(hand_masks: Sequence[int], stock: Sequence[int], drawn: int,
                  seen: Sequence[int], rng: random.Random) -> tuple[list[int], list[int]]:
    """(hand masks, stock) with every tile hidden from the seats in ``seen`` dealt again.

    ``stock[:drawn]`` was drawn already (those tiles are in hands or on the board) and
    stays as it is; the hands of ``seen`` stay as they are.
    """
    hidden_seats = [s for s in range(len(hand_masks)) if s not in seen]
    pool = [t for s in hidden_seats for t in tiles_in(hand_masks[s])] + list(stock[drawn:])
    rng.shuffle(pool)
    masks = list(hand_masks)
    for seat in hidden_seats:
        size = bin(hand_masks[seat]).count("1")
        dealt, pool = pool[:size], pool[size:]
        masks[seat] = sum(1 << t for t in dealt)
    return masks, list(stock[:drawn]) + pool


StateT = TypeVar("StateT")


def redealt(state: StateT, seat: int | None, rng: random.Random, stock: str) -> StateT:
    """A copy of a domino game's state with every tile hidden from ``seat`` (None: a
    spectator) dealt again; ``stock`` names the state's undrawn pile ("bazaar",
    "boneyard"). The state has ``hand_masks`` and ``draw_pos``."""
    world: Any = copy.deepcopy(state)
    seen = [] if seat is None else [seat]
    masks, pile = redeal_hidden(world.hand_masks, getattr(world, stock), world.draw_pos, seen, rng)
    world.hand_masks = masks
    setattr(world, stock, pile)
    return cast(StateT, world)
