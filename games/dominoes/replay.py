"""What a domino game's replay does the same in Fives and Spectacular Bid.

Replaying the hands of a record (a deal, then its actions, time first, forced actions
listed or not), and the pieces of the readable account: an action's line, the tiles
left, the hands one after the other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from games.engine.forced import ForcedActions
from games.engine.protocol import Illegal, Step
from games.engine.records import RecordAction, step_entries

from .hands import EVENT_BASE, DominoState
from .tiles import tile_name, tiles_in

JSON = dict[str, Any]
S = TypeVar("S", bound=DominoState)


def replay_hands(state: S, hands: Sequence[list[RecordAction]], actions: list[JSON],
                 deal: Callable[[int], object], entry: Callable[[int, Step], JSON],
                 observer: Callable[[S, list[JSON]], None] | None,
                 start: Callable[[int, RecordAction], list[Step] | None]) -> JSON | None:
    """Replay each hand's actions into ``actions``: ``deal(h)`` deals hand ``h``;
    ``start`` gives the steps of a hand started at its action ``i`` (None: time passes
    as usual). Returns where and why an action was illegal, or None."""

    def take(hand: int, steps: list[Step], pending: ForcedActions) -> None:
        # Time events (a flag, a hand starting on its own) are not actions.
        added = step_entries(hand, steps, EVENT_BASE, entry, pending)
        actions.extend(added)
        if observer is not None and added:
            observer(state, added)

    for h, hand in enumerate(hands):
        if state.result is not None:
            return {"hand": h, "index": 0, "reason": state.over_reason}
        if not state.needs_chance():
            return {"hand": h, "index": 0, "reason": f"hand {h - 1} is not over"}
        deal(h)
        pending = ForcedActions()
        for i, action in enumerate(hand):
            if pending.listed(action.seat, action.code):
                continue  # e.g. the passes that blocked a hand, after it ended the game
            if state.result is not None:
                return {"hand": h, "index": i, "reason": state.over_reason}
            started = start(i, action)
            if started is not None:
                take(h, started, pending)
            else:
                # Time first: a clock that reached its deadline before this action.
                take(h, state.advance(action.t_us), pending)
                if state.result is not None:
                    continue  # at or after the deadline: lost on time, the action not applied
            if pending.listed(action.seat, action.code):
                continue
            pending.clear()
            outcome = state.apply(action.seat, action.code, action.t_us)
            if isinstance(outcome, Illegal):
                return {"hand": h, "index": i, "reason": outcome.reason}
            take(h, outcome.steps, pending)
    return None


def action_line(entry: JSON, players: list[str], verbs: dict[str, str], first: str,
                scores_key: str) -> str:
    """An action's line of the readable account; ``first`` names a hand's first tile
    ("lead", "opening"), ``scores_key`` the entry's scores ("scores", "balances")."""
    who = players[entry["seat"]] if entry["seat"] is not None else "-"
    kind: str = entry["type"]
    if kind == "play":
        where = f" on {entry['target']}:{entry['port']}" if "target" in entry else f" ({first})"
        text = f"plays {entry['tile']}{where}"
    elif kind == "bid":
        text = f"bids {entry['amount']}"
    else:
        text = verbs.get(kind, kind)
    forced = " (forced)" if entry.get("forced") else ""
    points = f", +{entry['points']}" if entry["points"] else ""
    scores = "-".join(str(s) for s in entry[scores_key])
    return f"  {who} {text}{forced}{points}  [{scores}]"


def end_lines(told: list[str], end: str | None, final_hands: Sequence[int] | None,
              players: list[str]) -> list[str]:
    """How a hand ended: the game's own lines (``told``), or else its ``end`` if it
    ended, then the tiles left in each hand."""
    lines = told or ([f"  the hand ended: {end}"] if end is not None else [])
    if final_hands is not None:
        lines.append(tiles_left_line(final_hands, players))
    return lines


def tiles_left_line(final_hands: Sequence[int], players: list[str]) -> str:
    left = "; ".join(
        f"{players[s]}: {' '.join(tile_name(t) for t in tiles_in(mask)) or '-'}"
        for s, mask in enumerate(final_hands)
    )
    return f"  tiles left: {left}"


def hand_lines(heads: Sequence[str], actions: list[JSON], action: Callable[[JSON], str],
               end: Callable[[int], list[str]]) -> list[str]:
    """The account of each hand: its heading (``heads``), its actions, how it ended."""
    lines: list[str] = []
    for index, head in enumerate(heads):
        lines.append(f"Hand {index + 1} ({head})")
        lines.extend(action(e) for e in actions if e["hand"] == index)
        lines.extend(end(index))
    return lines


def illegal_line(error: JSON | None) -> list[str]:
    if error is None:
        return []
    return [f"Illegal action (hand {error['hand']}, action {error['index']}): {error['reason']}"]


def report_end(out: JSON, state: DominoState, error: JSON | None, with_legal: bool,
               to_dict: Callable[[int, int], JSON]) -> JSON:
    """A report's last keys: with --legal each seat's legal actions and whose turn it
    is; ``error`` where an action was illegal."""
    if with_legal:
        legal: list[JSON] = []
        for seat in range(state.num_seats):
            legal.extend(to_dict(seat, code) for code in state.legal_actions(seat))
        out["legal"] = legal
        out["to_act"] = state.to_act() if state.result is None else None
    if error is not None:
        out["error"] = error
    return out
