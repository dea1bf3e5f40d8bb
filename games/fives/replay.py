"""Replaying a ``fives/1`` record through the engine (fives.md, "Record and replay").

The report has exactly the keys the contract lists: ``actions``, ``hands``, ``scores``,
``clocks``, ``result``; ``legal`` and ``to_act`` on request; ``error`` when an action
was illegal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.dominoes.tiles import tile_name, tiles_in
from games.engine.forced import ForcedActions
from games.engine.plugin import ReplayOutcome
from games.engine.protocol import Illegal, Step
from games.engine.records import EXIT_ILLEGAL as EXIT_ILLEGAL
from games.engine.records import EXIT_MALFORMED as EXIT_MALFORMED
from games.engine.records import EXIT_OK as EXIT_OK
from games.engine.records import ReplayResult, step_entries, step_entry, us_to_seconds
from games.engine.records import replay_document as shared_replay_document

from . import actions as A
from .record import Record, loads
from .state import FivesState

# The EXIT_* codes are the engine's (imported "as" themselves: read here too).
JSON = dict[str, Any]


@dataclass(slots=True)
class Replay(ReplayResult):
    """A replayed record: the final state and every step applied."""

    state: FivesState
    actions: list[JSON] = field(default_factory=list)
    error: JSON | None = None


def action_entry(hand: int, step: Step) -> JSON:
    return step_entry(hand, step, A.action_fields, "scores")


Observer = Callable[[FivesState, list[JSON]], None]


def replay(record: Record, observer: Observer | None = None) -> Replay:
    """Replay ``record``; ``observer`` sees the state after each group of actions applied."""
    state = FivesState(record.rules, record.seats)
    result = Replay(state)

    def take(hand: int, steps: list[Step], pending: ForcedActions) -> None:
        # A flag is not an action: it shows in the result and the clocks.
        added = step_entries(hand, steps, A.EVENT_BASE, action_entry, pending)
        result.actions.extend(added)
        if observer is not None and added:
            observer(state, added)

    for h, hand in enumerate(record.hands):
        if state.result is not None:
            result.error = {"hand": h, "index": 0, "reason": "the game is over"}
            return result
        if not state.needs_chance():
            result.error = {"hand": h, "index": 0, "reason": f"hand {h - 1} is not over"}
            return result
        state.deal(hand.deal, hand.start_us, lots=record.lots if h == 0 else None)
        pending = ForcedActions()
        for i, action in enumerate(hand.actions):
            if pending.listed(action.seat, action.code):
                continue  # e.g. the passes of a fish whose bonus ended the game
            if state.result is not None:
                result.error = {"hand": h, "index": i, "reason": "the game is over"}
                return result
            # Time first: a clock that reached its deadline before this action.
            take(h, state.advance(action.t_us), pending)
            if state.result is not None:
                continue  # at or after the deadline: lost on time, the action not applied
            pending.clear()
            outcome = state.apply(action.seat, action.code, action.t_us)
            if isinstance(outcome, Illegal):
                result.error = {"hand": h, "index": i, "reason": outcome.reason}
                return result
            take(h, outcome.steps, pending)
    return result


def hand_entries(state: FivesState) -> list[JSON]:
    return [
        {
            "leader": summary.leader,
            "end": summary.end,
            "winner": summary.winner,
            "pips": list(summary.pips) if summary.pips is not None else None,
            "bonus": summary.bonus,
        }
        for summary in state.hands_summary
    ]


def result_entry(state: FivesState) -> JSON:
    res = state.result
    return {
        "winner": res.winner if res else None,
        "ranks": state.ranks if res else None,
        "reason": res.reason if res else None,
    }


def report(rep: Replay, with_legal: bool = False) -> JSON:
    state = rep.state
    out: JSON = {
        "actions": rep.actions,
        "hands": hand_entries(state),
        "scores": list(state.scores),
        "clocks": [us_to_seconds(bank) for bank in state.clock.banks_us],
        "result": result_entry(state),
    }
    if with_legal:
        legal: list[JSON] = []
        for seat in range(state.num_seats):
            legal.extend(A.action_to_dict(seat, code) for code in state.legal_actions(seat))
        out["legal"] = legal
        out["to_act"] = state.to_act() if state.result is None else None
    if rep.error is not None:
        out["error"] = rep.error
    return out


_VERBS = {"draw": "draws", "pass": "passes", "resign": "resigns"}


def _describe_action(entry: JSON, players: list[str]) -> str:
    who = players[entry["seat"]] if entry["seat"] is not None else "-"
    kind: str = entry["type"]
    if kind == "play":
        where = f" on {entry['target']}:{entry['port']}" if "target" in entry else " (lead)"
        text = f"plays {entry['tile']}{where}"
    else:
        text = _VERBS.get(kind, kind)
    forced = " (forced)" if entry.get("forced") else ""
    points = f", +{entry['points']}" if entry["points"] else ""
    scores = "-".join(str(s) for s in entry["scores"])
    return f"  {who} {text}{forced}{points}  [{scores}]"


def _describe_end(state: FivesState, index: int, players: list[str]) -> list[str]:
    summary = state.hands_summary[index]
    lines = []
    pips = ", ".join(f"{players[s]} {p}" for s, p in enumerate(summary.pips or ()))
    if summary.end == "domino" and summary.winner is not None:
        lines.append(f"  {players[summary.winner]} played out (domino), bonus {summary.bonus};"
                     f" pips: {pips}")
    elif summary.end == "fish":
        who = players[summary.winner] if summary.winner is not None else "nobody (a tie)"
        lines.append(f"  fish: pips {pips}; bonus {summary.bonus} to {who}")
    elif summary.end is not None:
        lines.append(f"  the hand ended: {summary.end}")
    if summary.final_hands is not None:
        left = "; ".join(
            f"{players[s]}: {' '.join(tile_name(t) for t in tiles_in(mask)) or '-'}"
            for s, mask in enumerate(summary.final_hands)
        )
        lines.append(f"  tiles left: {left}")
    return lines


def describe(rep: Replay, players: list[str]) -> str:
    """A readable account, hand by hand: moves, scores, how each hand ended, the result."""
    state = rep.state
    lines: list[str] = []
    for index, summary in enumerate(state.hands_summary):
        lines.append(f"Hand {index + 1} (led by {players[summary.leader]})")
        lines.extend(_describe_action(e, players) for e in rep.actions if e["hand"] == index)
        lines.extend(_describe_end(state, index, players))
    lines.append("Scores: " + ", ".join(f"{p} {s}" for p, s in zip(players, state.scores,
                                                                     strict=True)))
    clocks = [us_to_seconds(bank) for bank in state.clock.banks_us]
    lines.append("Clocks: " + ", ".join(f"{p} {c:g} s" for p, c in zip(players, clocks,
                                                                       strict=True)))
    res = state.result
    if res is None:
        lines.append("Result: the game is still running")
    else:
        ranks = state.ranks or []
        standing = ", ".join(f"{players[s]} #{r}" for s, r in enumerate(ranks))
        head = f"{players[res.winner]} wins" if res.winner is not None else "no sole winner"
        lines.append(f"Result: {head} ({res.reason}){'; ' + standing if standing else ''}")
    if rep.error is not None:
        err = rep.error
        lines.append(f"Illegal action (hand {err['hand']}, action {err['index']}): {err['reason']}")
    return "\n".join(lines)


def replay_document(text: bytes, with_legal: bool) -> ReplayOutcome:
    """``manage.py replay`` for a ``fives/1`` record: exit status, --json report, text."""
    return shared_replay_document(text, with_legal, loads=loads, replay=replay, report=report,
                                  describe=describe)
