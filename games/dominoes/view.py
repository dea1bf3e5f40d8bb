"""What a domino game's view shows the same in Fives and Spectacular Bid: tiles by name,
a move as everybody may see it, an ended hand's tiles and last position, and which
hand summaries a view carries."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.engine.protocol import Step

from .board_json import board_json
from .hands import EndedHand
from .tiles import tile_name, tiles_in

JSON = dict[str, Any]

RECENT_HANDS = 2  # hand summaries in a view: the current hand and the one before


def tiles_of(mask: int) -> list[str]:
    return [tile_name(t) for t in tiles_in(mask)]


def public_move(step: Step, fields: Callable[[int], JSON]) -> JSON:
    """A move as everybody may see it (``fields``: the game's action fields): a draw
    never says which tile."""
    move: JSON = {"seat": step.seat, **fields(step.action), "points": step.points}
    if step.forced:
        move["forced"] = True
    return move


def add_ended_hand(data: JSON, summary: EndedHand, with_position: bool, spinner_key: str,
                   fields: Callable[[int], JSON]) -> JSON:
    """A hand summary's tiles once the hand ended (public then) and, ``with_position``,
    its last position (the board, in the game's ``spinner_key``, and its moves) while its
    result is on screen."""
    if summary.final_hands is not None:
        data["hands"] = [tiles_of(mask) for mask in summary.final_hands]
        if with_position and summary.final_board is not None:
            data["board"] = board_json(summary.final_board, spinner_key)
            data["moves"] = [public_move(m, fields) for m in summary.final_moves or []]
    return data


def hand_summary_json(index: int, summary: EndedHand, shown: Sequence[str],
                      with_position: bool, spinner_key: str,
                      fields: Callable[[int], JSON]) -> JSON:
    """A hand summary in a view: its index, the game's ``shown`` fields of the summary (a
    tuple as a list) and, once it ended, what ``add_ended_hand`` adds."""
    data: JSON = {"hand": index}
    for name in shown:
        value = getattr(summary, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return add_ended_hand(data, summary, with_position, spinner_key, fields)


def recent_hands(summaries: Sequence[EndedHand], between_hands: bool,
                 summary_view: Callable[[int, bool], JSON]) -> list[JSON]:
    """The hand in play and the one before it (whose result may be on screen): a long
    match has dozens of hands, and every move would carry them all; the record has them.
    ``summary_view(i, with_position)``: the last ended one has its final position only
    ``between_hands`` (or once the game is over)."""
    first = max(0, len(summaries) - RECENT_HANDS)
    ended = [i for i in range(first, len(summaries)) if summaries[i].final_hands is not None]
    latest = ended[-1] if ended and between_hands else -1
    return [summary_view(i, i == latest) for i in range(first, len(summaries))]
