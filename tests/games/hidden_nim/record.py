"""The ``hidden-nim/1`` record: read, write from a stored log, replay, frames.

A record is ``{"format", "players", "rules", "deal", "actions"}``: ``deal`` is the chance
event (``{"deck": [ten cards], "first": seat, "t": seconds}``: seat s's bonus is
``deck[s]``, or null when the game
ended before it), ``actions`` each ``{"seat", "type": "take", "count", "t"}`` or
``{"seat", "type": "resign", "t"}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.plugin import ActionError, LogEntry, RecordError, ReplayOutcome, RulesError
from games.engine.protocol import JSON, Illegal
from games.engine.records import (
    RecordAction,
    ReplayResult,
    load_json,
    read_actions,
    record_object,
    record_time,
    us_to_seconds,
)
from games.engine.records import replay_document as shared_replay_document

from .rules import SEATS, Rules, parse_rules
from .state import RESIGN, DealError, HiddenNim, action_fields, is_take, take_code

FORMAT = "hidden-nim/1"


def action_from_dict(data: Any) -> tuple[int, int]:
    """A record-shaped action -> (seat, code); ActionError when unreadable."""
    if not isinstance(data, dict):
        raise ActionError("an action must be an object")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise ActionError(f"seat must be 0 or 1, got {seat!r}")
    kind = data.get("type")
    if kind == "resign":
        return seat, RESIGN
    if kind == "take":
        count = data.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or not is_take(count):
            raise ActionError(f"count must be 1, 2 or 3, got {count!r}")
        return seat, take_code(count)
    raise ActionError(f"unknown action type {kind!r} (take, resign)")


def action_to_dict(seat: int | None, code: int) -> JSON:
    return {"seat": seat, **action_fields(code)}


def deal_from_dict(data: Any) -> tuple[list[int], int]:
    """A deal (``sample_chance``'s dict or a record's) -> (deck, first seat)."""
    if not isinstance(data, dict):
        raise DealError("a deal must be an object")
    deck, first = data.get("deck"), data.get("first")
    if not isinstance(deck, list) or isinstance(first, bool) or not isinstance(first, int):
        raise DealError("a deal has a deck (a list) and first (a seat)")
    return list(deck), first


@dataclass(frozen=True, slots=True)
class Deal:
    deck: list[int]
    first: int
    t_us: int


@dataclass(frozen=True, slots=True)
class Record:
    players: list[str]
    rules: Rules
    deal: Deal | None
    actions: list[RecordAction]


def parse(data: Any) -> Record:
    data = record_object(data, FORMAT)
    players = data.get("players")
    if (not isinstance(players, list) or len(players) != SEATS
            or not all(isinstance(p, str) for p in players)):
        raise RecordError(f"players must be a list of {SEATS} names")
    try:
        rules = parse_rules(data.get("rules"))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    deal = None
    last_us = 0
    if data.get("deal") is not None:
        try:
            deck, first = deal_from_dict(data["deal"])
        except DealError as exc:
            raise RecordError(f"deal: {exc}") from None
        last_us = record_time(data["deal"].get("t"), "deal: t", 0)
        deal = Deal(deck, first, last_us)
    actions, _ = read_actions(data.get("actions", []), "the game", last_us, action_from_dict,
                              ActionError)
    return Record(list(players), rules, deal, actions)


def loads(text: str | bytes) -> Record:
    return parse(load_json(text))


# ------------------------------------------------------------------------ export


def export(players: Sequence[str], rules: Rules, log: Sequence[LogEntry]) -> JSON:
    """The record of a stored log, replayed through the engine as the server applied it;
    entries the engine refuses are left out."""
    game = HiddenNim(rules, len(players))
    deal: JSON | None = None
    actions: list[JSON] = []
    for entry in log:
        if entry.kind == "annul":
            game.annul(entry.t_us)
        elif entry.kind == "chance" and game.needs_chance():
            try:
                deck, first = deal_from_dict(entry.payload)
                game.deal(deck, first, entry.t_us)
            except DealError:
                continue
            deal = {"deck": deck, "first": first, "t": us_to_seconds(entry.t_us)}
        elif entry.kind == "action" and game.result is None:
            payload = entry.payload
            if isinstance(payload, dict) and "seat" not in payload:
                payload = {**payload, "seat": entry.seat}
            try:
                seat, code = action_from_dict(payload)
            except ActionError:
                continue
            if isinstance(game.apply(seat, code, entry.t_us), Illegal):
                continue
            actions.append({**action_to_dict(seat, code), "t": us_to_seconds(entry.t_us)})
    return {"format": FORMAT, "players": list(players), "rules": rules.to_dict(),
            "deal": deal, "actions": actions}


# ------------------------------------------------------------------------ replay

Observer = Callable[[HiddenNim, JSON], None]


@dataclass(slots=True)
class Replay(ReplayResult):
    game: HiddenNim
    actions: list[JSON] = field(default_factory=list)
    error: JSON | None = None


def replay(record: Record, observer: Observer | None = None) -> Replay:
    """Replay ``record``; ``observer`` sees the game after the deal and each action."""
    game = HiddenNim(record.rules, len(record.players))
    rep = Replay(game)

    def add(entry: JSON) -> None:
        rep.actions.append(entry)
        if observer is not None:
            observer(game, entry)

    if record.deal is not None:
        try:
            game.deal(record.deal.deck, record.deal.first, record.deal.t_us)
        except DealError as exc:
            rep.error = {"index": -1, "reason": str(exc)}
            return rep
        add({"type": "deal", "bonuses": game.bonuses, "first": record.deal.first})
    for i, action in enumerate(record.actions):
        outcome = game.apply(action.seat, action.code, action.t_us)
        if isinstance(outcome, Illegal):
            rep.error = {"index": i, "reason": outcome.reason}
            return rep
        add({**action_to_dict(action.seat, action.code), "pile": game.pile})
    return rep


def report(rep: Replay, with_legal: bool = False) -> JSON:
    game = rep.game
    result = game.result
    out: JSON = {
        "actions": rep.actions,
        "pile": game.pile,
        "taken": list(game.taken),
        "bonuses": game.bonuses,
        "scores": game.public_scores(),
        "result": None if result is None else {"winner": result.winner,
                                               "reason": result.reason},
    }
    if with_legal:
        seat = game.to_act()
        out["to_act"] = seat
        out["legal"] = ([action_to_dict(seat, code) for code in game.legal_actions(seat)]
                        if seat is not None else [])
    if rep.error is not None:
        out["error"] = rep.error
    return out


def describe(rep: Replay, players: list[str]) -> str:
    lines = []
    for entry in rep.actions:
        if entry["type"] == "deal":
            lines.append(f"Dealt bonuses {entry['bonuses']}; {players[entry['first']]} starts")
        elif entry["type"] == "take":
            lines.append(f"  {players[entry['seat']]} takes {entry['count']}"
                         f" ({entry['pile']} left)")
        else:
            lines.append(f"  {players[entry['seat']]} resigns")
    game = rep.game
    lines.append("Scores: " + ", ".join(f"{p} {s}" for p, s in
                                        zip(players, game.public_scores(), strict=True)))
    result = game.result
    if result is None:
        lines.append("Result: the game is still running")
    else:
        winner = players[result.winner] if result.winner is not None else "nobody"
        lines.append(f"Result ({result.reason}): {winner} wins")
    if rep.error is not None:
        lines.append(f"Illegal action {rep.error['index']}: {rep.error['reason']}")
    return "\n".join(lines)


def replay_document(text: bytes, with_legal: bool) -> ReplayOutcome:
    return shared_replay_document(text, with_legal, loads=loads, replay=replay, report=report,
                                  describe=describe)


def frames(document: Any) -> JSON:
    """Every position after the deal and each action (the record is public once over)."""
    record = parse(document)
    steps: list[JSON] = []

    def observe(game: HiddenNim, entry: JSON) -> None:
        steps.append({"action": entry, "pile": game.pile, "taken": list(game.taken),
                      "bonuses": game.bonuses, "scores": game.public_scores(),
                      "to_act": game.to_act()})

    summary = report(replay(record, observer=observe))
    return {"players": record.players, "rules": record.rules.to_dict(), "frames": steps,
            "scores": summary["scores"], "result": summary["result"],
            "error": summary.get("error")}
