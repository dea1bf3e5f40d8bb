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
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, TypeVar, cast

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState

from .board import PORT_BY_NAME, Board
from .tiles import tile_from_name, tiles_in


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


def _placed_on(board: Board, fields: dict[str, object]) -> None:
    tile = tile_from_name(str(fields["tile"]))
    target = fields.get("target")
    if target is None:
        board.place_opening(tile)
    else:
        board.place(tile, tile_from_name(str(target)), PORT_BY_NAME[str(fields["port"])])


class PublicStep(NamedTuple):
    """One move of the hand under way as every seat saw it, with the board it met."""

    seat: int
    kind: str  # the codec's "type": "play", "draw", "pass", ...
    fields: dict[str, Any]
    board: Board  # as it stood before the move; the same object, changed as the walk goes on


def public_steps(plugin: GamePlugin, state: GameState) -> Iterator[PublicStep]:
    """The hand's moves in order, each met with the board as it stood then (read it
    before taking the next step: the walk places each tile after yielding its step)."""
    board = Board(cross=bool(getattr(state.board, "cross", True)))  # type: ignore[attr-defined]
    for step in state.moves:  # type: ignore[attr-defined]
        if step.seat is None:
            continue
        fields = plugin.action_to_dict(step.seat, step.action)
        kind = str(fields.get("type"))
        yield PublicStep(step.seat, kind, fields, board)
        if kind == "play":
            _placed_on(board, fields)


def voids(plugin: GamePlugin, state: GameState) -> list[int]:
    """Per seat, the values (a 7-bit set) that no tile of its hand shows now: the numbers
    it could not follow when it drew or passed since its last turn that drew (the rule is
    set out in ``games/search/worlds.py``, which deals worlds under it)."""
    seats = state.num_seats
    events: list[tuple[int, str, int]] = []  # (seat, type, open values then)
    for step in public_steps(plugin, state):
        if step.kind in ("draw", "pass"):
            events.append((step.seat, step.kind, step.board.open_values))
        elif step.kind == "play":
            events.append((step.seat, step.kind, 0))
    found = [0] * seats
    done = [False] * seats
    drew = [False] * seats
    for seat, kind, values in reversed(events):
        if done[seat]:
            continue
        if kind == "play":
            done[seat] = drew[seat]  # an earlier turn than the last one that drew
            continue
        found[seat] |= values
        drew[seat] = drew[seat] or kind == "draw"
    return found
