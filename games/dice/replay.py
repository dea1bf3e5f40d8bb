"""Replaying a ``dice/1`` record through the engine (dice.md, "Record and replay").

The ``--json`` report has exactly the contract's keys: ``actions``, ``turns``,
``rounds``, ``totals``, ``round_wins``, ``result``; ``legal`` and ``to_act`` on
request; ``error`` when an action was illegal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine.plugin import ReplayOutcome
from games.engine.protocol import Illegal, Step
from games.engine.records import EXIT_ILLEGAL as EXIT_ILLEGAL
from games.engine.records import EXIT_MALFORMED as EXIT_MALFORMED
from games.engine.records import EXIT_OK as EXIT_OK
from games.engine.records import ReplayResult
from games.engine.records import replay_document as shared_replay_document

from . import actions as A
from .record import Record, RecordAction, loads
from .state import FIRST_ROLL, ORDER_DIE, RE_ROLL, DiceGame
from .view import standing_dict

# The EXIT_* codes are the engine's (imported "as" themselves: read here too).
JSON = dict[str, Any]
Observer = Callable[[DiceGame, list[JSON]], None]


@dataclass(slots=True)
class Replay(ReplayResult):
    """A replayed record: the final game and every action applied."""

    game: DiceGame
    actions: list[JSON] = field(default_factory=list)
    error: JSON | None = None


def _forced_entries(game: DiceGame, steps: list[Step]) -> list[JSON]:
    """Report entries for the stands the engine forced at deadlines."""
    entries = []
    for step in steps:
        if step.action == A.STAND and step.forced:
            turn = game.turns[-1]  # the next turn starts only with a roll (chance)
            entries.append({"round": turn.round, "seat": step.seat, "type": "stand",
                            "score": step.points, "forced": True})
    return entries


def _entry(game: DiceGame, action: RecordAction, round_no: int) -> JSON:
    entry: JSON = {"round": round_no, "seat": action.seat, "type": action.kind}
    if action.kind == "order":
        entry["die"] = action.dice[0]
    elif action.kind == "roll":
        entry["dice"] = list(action.dice)
    elif action.kind == "improve":
        entry["keep"] = list(action.keep)
        entry["dice"] = list(action.dice)
    if action.kind in ("stand", "improve"):
        entry["score"] = game.turns[-1].recorded
    return entry


def replay(record: Record, observer: Observer | None = None) -> Replay:
    """Replay ``record``; ``observer`` sees the game after each group of report entries
    (a stand forced at a deadline; an action)."""
    game = DiceGame(record.rules, len(record.players))
    rep = Replay(game)
    unlisted: list[int] = []  # seats whose forced stand the record may still list

    def add(entries: list[JSON]) -> None:
        rep.actions.extend(entries)
        if observer is not None and entries:
            observer(game, entries)

    def fail(index: int, reason: str) -> Replay:
        rep.error = {"index": index, "reason": reason}
        return rep

    for i, action in enumerate(record.actions):
        # Time first: a decision past its deadline stands at the deadline.
        forced = _forced_entries(game, game.advance(action.t_us))
        unlisted.extend(e["seat"] for e in forced)
        add(forced)
        if action.forced:
            if action.seat not in unlisted:
                return fail(i, f"no stand of seat {action.seat} was forced by then")
            unlisted.remove(action.seat)  # listed: the engine applied it already
            continue
        if game.result is not None:
            return fail(i, "the game is over")
        # The round an action belongs to, read before it moves the game on.
        round_no = max(game.round_no, 0)
        if action.kind in ("order", "roll"):
            kind = ORDER_DIE if action.kind == "order" else FIRST_ROLL
            applied = game.apply_chance(kind, action.seat, action.dice, action.t_us)
            if isinstance(applied, Illegal):
                return fail(i, applied.reason)
            if action.kind == "roll":
                round_no = game.turns[-1].round
        else:
            outcome = game.apply(action.seat, action.code, action.t_us)
            if isinstance(outcome, Illegal):
                return fail(i, outcome.reason)
            if not outcome.applied:  # time ended the game first (advanced above already)
                return fail(i, "the game is over")
            if action.kind == "improve":
                rerolled = game.apply_chance(RE_ROLL, action.seat, action.dice, action.t_us)
                if isinstance(rerolled, Illegal):  # the record reader checked the count
                    return fail(i, rerolled.reason)
            if action.kind != "resign":
                round_no = game.turns[-1].round
        unlisted.clear()
        add([_entry(game, action, round_no)])
    return rep


def report(rep: Replay, with_legal: bool = False) -> JSON:
    game = rep.game
    out: JSON = {
        "actions": rep.actions,
        "turns": [
            {"round": t.round, "seat": t.seat, "first": t.first, "second": t.second,
             "recorded": t.recorded}
            for t in game.turns
        ],
        "rounds": [{"scores": list(r.scores), "winner": r.winner} for r in game.rounds],
        "totals": None if game.rules.quick else list(game.totals),
        "round_wins": list(game.round_wins),
        "result": standing_dict(game.standing),
    }
    if with_legal:
        seat = game.to_act()
        out["legal"] = (
            [A.action_to_dict(seat, code) for code in game.legal_actions(seat)]
            if seat is not None
            else []
        )
        out["to_act"] = seat
    if rep.error is not None:
        out["error"] = rep.error
    return out


def _describe(entry: JSON, players: list[str]) -> str:
    who = players[entry["seat"]]
    kind = entry["type"]
    if kind == "order":
        text = f"rolls {entry['die']} for the order"
    elif kind == "roll":
        text = "rolls " + " ".join(str(d) for d in entry["dice"])
    elif kind == "stand":
        text = f"stands: {entry['score']}" + (" (out of time)" if entry.get("forced") else "")
    elif kind == "improve":
        kept = " ".join(str(d) for d in entry["keep"]) or "nothing"
        new = " ".join(str(d) for d in entry["dice"])
        text = f"keeps {kept}, rolls {new}: {entry['score']}"
    else:
        text = "resigns"
    return f"  {who} {text}"


def describe(rep: Replay, players: list[str]) -> str:
    """A readable account, round by round."""
    game = rep.game
    lines: list[str] = []
    current = -1
    for entry in rep.actions:
        if entry["type"] != "order" and entry["round"] != current:
            current = entry["round"]
            lines.append(f"Round {current + 1}")
        elif entry["type"] == "order" and current == -1 and not lines:
            lines.append("Order of play")
        lines.append(_describe(entry, players))
    for number, sheet in enumerate(game.rounds):
        scores = ", ".join(f"{players[s]} {v if v is not None else '-'}"
                           for s, v in enumerate(sheet.scores))
        won = players[sheet.winner] if sheet.winner is not None else "nobody"
        lines.append(f"Round {number + 1}: {scores}; won by {won if sheet.over else '-'}")
    if not game.rules.quick:
        lines.append("Points: " + ", ".join(f"{p} {t}" for p, t in zip(players, game.totals,
                                                                         strict=True)))
    lines.append("Rounds won: " + ", ".join(f"{p} {w}" for p, w in zip(players, game.round_wins,
                                                                        strict=True)))
    standing = game.standing
    if standing is None:
        lines.append("Result: the game is still running")
    else:
        def name(seat: int | None) -> str:
            return players[seat] if seat is not None else "nobody"

        absolute = " (absolute victory)" if standing.absolute else ""
        lines.append(f"Result ({standing.reason}): on points {name(standing.points_winner)},"
                     f" on rounds {name(standing.rounds_winner)}{absolute}")
    if rep.error is not None:
        lines.append(f"Illegal action {rep.error['index']}: {rep.error['reason']}")
    return "\n".join(lines)


def replay_document(text: bytes, with_legal: bool) -> ReplayOutcome:
    """``manage.py replay`` for a ``dice/1`` document."""
    return shared_replay_document(text, with_legal, loads=loads, replay=replay, report=report,
                                  describe=describe)
