"""Replaying a record through the engine (``manage.py replay``; match-record.md).

The report has exactly the keys the contract lists: ``actions``, ``hands``,
``balances``, ``banks``, ``result``; ``legal`` and ``to_act`` on request; ``error``
when an action was illegal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.dominoes import replay as hands_replay
from games.engine.plugin import ReplayOutcome
from games.engine.protocol import Step
from games.engine.records import EXIT_ILLEGAL as EXIT_ILLEGAL
from games.engine.records import EXIT_MALFORMED as EXIT_MALFORMED
from games.engine.records import EXIT_OK as EXIT_OK
from games.engine.records import RecordAction, ReplayResult, step_entry, us_to_seconds
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


_NOT_STARTING = (A.CONTINUE, A.RESIGN, A.ABORT)


def replay(record: Record,
           observer: Callable[[Match, list[dict[str, Any]]], None] | None = None) -> Replay:
    """Replay ``record``; ``observer`` sees the match after each group of actions applied."""
    match = Match(record.rules)
    result = Replay(match)

    def start(i: int, action: RecordAction) -> list[Step] | None:
        if i == 0 and action.code not in _NOT_STARTING and match.phase == CONTINUE:
            # No Start/Continue recorded: the hand starts at its first action (a resign
            # or an abort before the hand started does not start it).
            return match.start_hand_now(action.t_us)
        return None  # time first: a grace period that ran out, a clock at its deadline

    hands = [hand.actions for hand in record.hands]
    result.error = hands_replay.replay_hands(match, hands, result.actions,
                                             lambda h: match.deal(record.hands[h].deal),
                                             _action_entry, observer, start)
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
    return hands_replay.report_end(out, match, rep.error, with_legal, A.action_to_dict)


_VERBS = {"continue": "continues", "draw": "draws", "pass": "passes", "accept": "accepts",
          "decline": "declines", "resign": "resigns", "abort": "aborts", "reveal": "reveals"}


def _describe_action(entry: dict[str, Any], players: list[str]) -> str:
    return hands_replay.action_line(entry, players, _VERBS, "opening", "balances")


def _describe_end(match: Match, index: int, players: list[str]) -> list[str]:
    summary = match.hands_summary[index]
    lines: list[str] = []
    if summary.end == "blocked" and summary.sums is not None:
        lines.append(f"  blocked: hand totals {summary.sums[0]} and {summary.sums[1]},"
                     f" {summary.settlement} to the lower hand")
    elif summary.end == "domino" and summary.winner is not None:
        lines.append(f"  {players[summary.winner]} played out (domino)")
    return hands_replay.end_lines(lines, summary.end, summary.final_hands, players)


def describe(rep: Replay, players: list[str]) -> str:
    """A readable account, hand by hand: moves, scores, balances, how each hand ended."""
    match = rep.match
    heads = [f"{'auction' if summary.jockey is not None else 'hierarchy'} opening"
             for summary in match.hands_summary]
    lines = hands_replay.hand_lines(heads, rep.actions, lambda e: _describe_action(e, players),
                                    lambda index: _describe_end(match, index, players))
    lines.append(f"Balances: {players[0]} {match.balances[0]}, {players[1]} {match.balances[1]}")
    banks = [us_to_seconds(b) for b in match.clock.banks_us]
    lines.append(f"Banks: {players[0]} {banks[0]:g} s, {players[1]} {banks[1]:g} s")
    if match.result is None:
        lines.append("Result: the match is still running")
    elif match.result.winner is None:
        lines.append(f"Result: no winner ({match.result.reason})")
    else:
        lines.append(f"Result: {players[match.result.winner]} wins ({match.result.reason})")
    lines.extend(hands_replay.illegal_line(rep.error))
    return "\n".join(lines)


def replay_document(text: bytes, with_legal: bool) -> ReplayOutcome:
    """``manage.py replay`` for a ``spectacular-bid/1`` record: exit status, --json report,
    text (the same the plugin's own ``replay_document`` gives)."""
    return shared_replay_document(text, with_legal, loads=loads, replay=replay, report=report,
                                  describe=describe)
