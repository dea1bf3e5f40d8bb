"""Replaying a record through the engine (``manage.py replay``; match-record.md).

The report has exactly the keys the contract lists: ``actions``, ``hands``,
``balances``, ``banks``, ``result``; ``legal`` and ``to_act`` on request; ``error``
when an action was illegal.
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
from .state import CONTINUE, Match

# The EXIT_* codes are the engine's (imported "as" themselves: the plugin reads them here).


@dataclass(slots=True)
class Replay(ReplayResult):
    """A replayed record: the final match and every step applied, by hand."""

    match: Match
    actions: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None


def _action_entry(hand: int, step: Step) -> dict[str, Any]:
    return step_entry(hand, step, A.action_fields, "balances")


def replay(record: Record,
           observer: Callable[[Match, list[dict[str, Any]]], None] | None = None) -> Replay:
    """Replay ``record``; ``observer`` sees the match after each group of actions applied."""
    match = Match(record.rules)
    result = Replay(match)

    def take(hand: int, steps: list[Step], pending: ForcedActions) -> None:
        # Time events (a hand starting on its own, a flag) are not actions.
        added = step_entries(hand, steps, A.EVENT_BASE, _action_entry, pending)
        result.actions.extend(added)
        if observer is not None and added:
            observer(match, added)

    for h, hand in enumerate(record.hands):
        if match.result is not None:
            result.error = {"hand": h, "index": 0, "reason": "the match is over"}
            return result
        if not match.needs_chance():
            result.error = {"hand": h, "index": 0, "reason": f"hand {h - 1} is not over"}
            return result
        match.deal(hand.deal)
        pending = ForcedActions()
        for i, action in enumerate(hand.actions):
            if pending.listed(action.seat, action.code):
                continue  # e.g. the passes that blocked a hand, after it ended the match
            if match.result is not None:
                result.error = {"hand": h, "index": i, "reason": "the match is over"}
                return result
            if (
                i == 0
                and action.code not in (A.CONTINUE, A.RESIGN, A.ABORT)
                and match.phase == CONTINUE
            ):
                # No Start/Continue recorded: the hand starts at its first action (a resign
                # or an abort before the hand started does not start it).
                take(h, match.start_hand_now(action.t_us), pending)
            else:
                # Time first: a grace period that ran out, a clock at its deadline.
                take(h, match.advance(action.t_us), pending)
                if match.result is not None:
                    continue  # it arrived at or after the deadline: lost on time, not applied
            if pending.listed(action.seat, action.code):
                continue
            pending.clear()
            outcome = match.apply(action.seat, action.code, action.t_us)
            if isinstance(outcome, Illegal):
                result.error = {"hand": h, "index": i, "reason": outcome.reason}
                return result
            take(h, outcome.steps, pending)
    return result


def report(rep: Replay, with_legal: bool = False) -> dict[str, Any]:
    match = rep.match
    hands = []
    for summary in match.hands_summary:
        entry: dict[str, Any] = {"end": summary.end, "jockey": summary.jockey}
        if summary.sums is not None:
            entry["sums"] = list(summary.sums)
            entry["settlement"] = summary.settlement
        hands.append(entry)
    res = match.result
    out: dict[str, Any] = {
        "actions": rep.actions,
        "hands": hands,
        "balances": list(match.balances),
        "banks": [us_to_seconds(b) for b in match.clock.banks_us],
        "result": {
            "winner": res.winner if res else None,
            "reason": res.reason if res else None,
        },
    }
    if with_legal:
        legal: list[dict[str, Any]] = []
        for seat in (0, 1):
            legal.extend(A.action_to_dict(seat, code) for code in match.legal_actions(seat))
        out["legal"] = legal
        out["to_act"] = match.to_act() if res is None else None
    if rep.error is not None:
        out["error"] = rep.error
    return out


_VERBS = {"continue": "continues", "draw": "draws", "pass": "passes", "accept": "accepts",
          "decline": "declines", "resign": "resigns", "abort": "aborts", "reveal": "reveals"}


def _describe_action(entry: dict[str, Any], players: list[str]) -> str:
    who = players[entry["seat"]] if entry["seat"] is not None else "-"
    kind = entry["type"]
    if kind == "play":
        where = f" on {entry['target']}:{entry['port']}" if "target" in entry else " (opening)"
        text = f"plays {entry['tile']}{where}"
    elif kind == "bid":
        text = f"bids {entry['amount']}"
    else:
        text = _VERBS.get(kind, kind)
    forced = " (forced)" if entry.get("forced") else ""
    points = f", +{entry['points']}" if entry["points"] else ""
    balances = "-".join(str(b) for b in entry["balances"])
    return f"  {who} {text}{forced}{points}  [{balances}]"


def _describe_end(match: Match, index: int, players: list[str]) -> list[str]:
    summary = match.hands_summary[index]
    lines = []
    if summary.end == "blocked" and summary.sums is not None:
        lines.append(f"  blocked: hand totals {summary.sums[0]} and {summary.sums[1]},"
                     f" {summary.settlement} to the lower hand")
    elif summary.end == "domino" and summary.winner is not None:
        lines.append(f"  {players[summary.winner]} played out (domino)")
    elif summary.end is not None:
        lines.append(f"  the hand ended: {summary.end}")
    if summary.final_hands is not None:
        left = [" ".join(tile_name(t) for t in tiles_in(summary.final_hands[s])) or "-"
                for s in (0, 1)]
        lines.append(f"  tiles left: {players[0]}: {left[0]}; {players[1]}: {left[1]}")
    return lines


def describe(rep: Replay, players: list[str]) -> str:
    """A readable account, hand by hand: moves, scores, balances, how each hand ended."""
    match = rep.match
    lines: list[str] = []
    for index, summary in enumerate(match.hands_summary):
        opening = "auction" if summary.jockey is not None else "hierarchy"
        lines.append(f"Hand {index + 1} ({opening} opening)")
        lines.extend(_describe_action(e, players) for e in rep.actions if e["hand"] == index)
        lines.extend(_describe_end(match, index, players))
    lines.append(f"Balances: {players[0]} {match.balances[0]}, {players[1]} {match.balances[1]}")
    banks = [us_to_seconds(b) for b in match.clock.banks_us]
    lines.append(f"Banks: {players[0]} {banks[0]:g} s, {players[1]} {banks[1]:g} s")
    if match.result is None:
        lines.append("Result: the match is still running")
    elif match.result.winner is None:
        lines.append(f"Result: no winner ({match.result.reason})")
    else:
        lines.append(f"Result: {players[match.result.winner]} wins ({match.result.reason})")
    if rep.error is not None:
        err = rep.error
        lines.append(f"Illegal action (hand {err['hand']}, action {err['index']}): {err['reason']}")
    return "\n".join(lines)


def replay_document(text: bytes, with_legal: bool) -> ReplayOutcome:
    """``manage.py replay`` for a ``spectacular-bid/1`` record: exit status, --json report,
    text (the same the plugin's own ``replay_document`` gives)."""
    return shared_replay_document(text, with_legal, loads=loads, replay=replay, report=report,
                                  describe=describe)
