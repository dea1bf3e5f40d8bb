"""Replaying a ``fives/1`` record through the engine (fives.md, "Record and replay").

The report has exactly the keys the contract lists: ``actions``, ``hands``, ``scores``,
``clocks``, ``result``; ``legal`` and ``to_act`` on request; ``error`` when an action
was illegal.
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
from games.engine.records import ReplayResult, step_entry, us_to_seconds
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

    def deal(h: int) -> None:
        hand = record.hands[h]
        state.deal(hand.deal, hand.start_us, lots=record.lots if h == 0 else None)

    hands = [hand.actions for hand in record.hands]
    result.error = hands_replay.replay_hands(state, hands, result.actions, deal, action_entry,
                                             observer, lambda i, action: None)
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
    return hands_replay.report_end(out, state, rep.error, with_legal, A.action_to_dict)


_VERBS = {"draw": "draws", "pass": "passes", "resign": "resigns"}


def _describe_action(entry: JSON, players: list[str]) -> str:
    return hands_replay.action_line(entry, players, _VERBS, "lead", "scores")


def _describe_end(state: FivesState, index: int, players: list[str]) -> list[str]:
    summary = state.hands_summary[index]
    lines: list[str] = []
    pips = ", ".join(f"{players[s]} {p}" for s, p in enumerate(summary.pips or ()))
    if summary.end == "domino" and summary.winner is not None:
        lines.append(f"  {players[summary.winner]} played out (domino), bonus {summary.bonus};"
                     f" pips: {pips}")
    elif summary.end == "fish":
        who = players[summary.winner] if summary.winner is not None else "nobody (a tie)"
        lines.append(f"  fish: pips {pips}; bonus {summary.bonus} to {who}")
    return hands_replay.end_lines(lines, summary.end, summary.final_hands, players)


def describe(rep: Replay, players: list[str]) -> str:
    """A readable account, hand by hand: moves, scores, how each hand ended, the result."""
    state = rep.state
    heads = [f"led by {players[summary.leader]}" for summary in state.hands_summary]
    lines = hands_replay.hand_lines(heads, rep.actions, lambda e: _describe_action(e, players),
                                    lambda index: _describe_end(state, index, players))
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
    lines.extend(hands_replay.illegal_line(rep.error))
    return "\n".join(lines)


def replay_document(text: bytes, with_legal: bool) -> ReplayOutcome:
    """``manage.py replay`` for a ``fives/1`` record: exit status, --json report, text."""
    return shared_replay_document(text, with_legal, loads=loads, replay=replay, report=report,
                                  describe=describe)
