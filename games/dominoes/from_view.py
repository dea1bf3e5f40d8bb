"""What Fives and Spectacular Bid share in rebuilding a state from one seat's view: the
moves, the clock, an ended hand's summary and a deal of the tiles the seat cannot see.

A computer player that is a client of the API has only its view; a search needs a state.
Everything public is read back exactly (so that the state's view for that seat is the
view); the hidden tiles are placed by a fixed rule (no randomness: the search's
determinization deals them again), each hand keeping its size, the stock its length, and,
where it can, no hand holding a number its seat could not follow (``voids``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.engine.clock import MatchClock
from games.engine.protocol import Step

from .board import Board
from .board_json import board_from_json
from .tiles import FULL_SET_MASK, PLAYABLE_MASK, TILE_COUNT, mask_of, tile_from_name, tiles_in

JSON = dict[str, Any]
US = 1_000_000

# (seat, code) of a record-shaped action: the game's ``action_from_dict``.
ActionReader = Callable[[Any], tuple[int, int]]


def us(seconds: float | None) -> int:
    """Microseconds of a view's seconds (a view writes ``us / US``: this reads it back)."""
    return 0 if seconds is None else round(seconds * US)


def mask_of_names(names: Sequence[str]) -> int:
    return mask_of([tile_from_name(name) for name in names])


def steps_from_moves(moves: Sequence[JSON], read: ActionReader) -> list[Step]:
    """The public moves of a view as steps (a draw's tile is not in it, nor needed)."""
    steps = []
    for move in moves:
        seat, code = read(move)
        steps.append(Step(seat, code, 0, bool(move.get("forced", False)),
                          int(move.get("points", 0))))
    return steps


def clock_from_view(data: JSON, delay_us: int) -> MatchClock:
    """The match clock a view's ``clock`` shows (its start and delay only while it runs)."""
    running = data.get("running")
    clock = MatchClock([us(bank) for bank in data["banks"]], delay_us)
    if running is not None:
        clock.running = int(running)
        clock.started_us = us(data.get("started"))
        clock.period_delay_us = us(data.get("delay"))
    return clock


def board_of(data: JSON | None, cross: bool) -> Board:
    return Board(cross=cross) if data is None else board_from_json(data, cross)


def board_mask(board: Board) -> int:
    return mask_of([link.tile for link in board.links])


def last_play_seat(steps: Sequence[Step], is_play: Callable[[int], bool]) -> int | None:
    return next((s.seat for s in reversed(steps) if s.seat is not None and is_play(s.action)),
                None)


def passes_after_last_play(steps: Sequence[Step], pass_code: int,
                           is_play: Callable[[int], bool]) -> int:
    """The passes in a row since the last placement (the state's ``passes_in_row``)."""
    count = 0
    for step in reversed(steps):
        if is_play(step.action):
            break
        count += step.action == pass_code
    return count


def ended_position(summary: JSON, cross: bool, read: ActionReader) -> tuple[
        tuple[int, ...] | None, Board | None, list[Step] | None]:
    """An ended hand's summary in a view: its hands, and its last position when shown."""
    hands = summary.get("hands")
    final_hands = None if hands is None else tuple(mask_of_names(h) for h in hands)
    board = summary.get("board")
    if board is None:
        return final_hands, None, None
    return (final_hands, board_from_json(board, cross),
            steps_from_moves(summary.get("moves") or [], read))


def hidden_deal(known: dict[int, int], counts: Sequence[int], board: Board, stock_size: int,
                drawn: int, voids: Sequence[int]) -> tuple[list[int], list[int]]:
    """(hand masks, stock in draw order) with the seats in ``known`` holding their tiles
    and every other seat ``counts[seat]`` tiles that are neither on the board nor known.

    Each hidden seat takes first the unseen tiles that show none of its ``voids`` (the
    most constrained seat first), then, should those run short, any. The stock's first
    ``drawn`` tiles (drawn already) are tiles in a hand or on the board; the rest of the
    stock are the unseen tiles left over."""
    seats = len(counts)
    masks = [known.get(seat, 0) for seat in range(seats)]
    unseen = FULL_SET_MASK & ~board_mask(board)
    for mask in known.values():
        unseen &= ~mask
    hidden = [seat for seat in range(seats) if seat not in known]

    def fitting(seat: int) -> int:
        return unseen & ~PLAYABLE_MASK[voids[seat]] if voids[seat] else unseen

    for seat in sorted(hidden, key=lambda s: (bin(fitting(s)).count("1") - counts[s], s)):
        chosen = list(tiles_in(fitting(seat)))[:counts[seat]]
        if len(chosen) < counts[seat]:
            rest = [t for t in tiles_in(unseen) if t not in chosen]
            chosen += rest[:counts[seat] - len(chosen)]
        masks[seat] = mask_of(chosen)
        unseen &= ~masks[seat]
    undrawn = list(tiles_in(unseen))
    placed = [t for t in range(TILE_COUNT) if not unseen >> t & 1]
    stock = placed[:drawn] + undrawn
    if len(undrawn) != stock_size - drawn or len(stock) != stock_size:
        raise ValueError("the view's tile counts do not add up to the set")
    return masks, stock


def known_hands(view: JSON, last_final_hands: Sequence[int] | None) -> dict[int, int]:
    """The hands a view shows (seat -> mask): every hand of an ended hand, else the seat's own."""
    if last_final_hands is not None:
        return dict(enumerate(last_final_hands))
    seat = view.get("seat")
    if seat is not None and "hand" in view:
        return {int(seat): mask_of_names(view["hand"])}
    return {}


def drawn_tile_of(view: JSON) -> int:
    """The tile the seat drew and must play now (-1: none)."""
    name = view.get("must_play")
    return -1 if name is None else tile_from_name(name)

