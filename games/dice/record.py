"""The ``dice/1`` record (dice.md, "Record and replay"): read, and write from a stored log.

Reading checks what the document alone can tell (format, players, rules, dice values
and counts, a keep of at most four dice, types, seats, times): malformed, exit 2.
Whether each action is allowed in its position is the replay's business (exit 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.plugin import ActionError, LogEntry, RecordError, RulesError
from games.engine.protocol import JSON, Illegal, Step
from games.engine.records import (
    load_json,
    record_object,
    record_players,
    record_time,
    us_to_seconds,
)

from . import actions as A
from .rules import MAX_SEATS, Rules, parse_rules
from .scoring import DICE, DiceError, check_dice
from .state import FIRST_ROLL, ORDER_DIE, RE_ROLL, DiceGame

FORMAT = "dice/1"
TYPES = ("order", "roll", "stand", "improve", "resign")


@dataclass(frozen=True, slots=True)
class RecordAction:
    kind: str  # one of TYPES
    seat: int
    t_us: int
    dice: tuple[int, ...] = ()  # order: the die; roll: five dice; improve: the re-rolled
    keep: tuple[int, ...] = ()  # improve only
    forced: bool = False  # a stand at the deadline, listed

    @property
    def code(self) -> int:
        """The decision's action code (stand, improve, resign)."""
        if self.kind == "stand":
            return A.STAND
        if self.kind == "resign":
            return A.RESIGN
        return A.improve_code(self.keep)


@dataclass(frozen=True, slots=True)
class Record:
    players: list[str]
    rules: Rules
    actions: list[RecordAction]


def parse(data: Any) -> Record:
    data = record_object(data, FORMAT)
    players = record_players(data.get("players"), range(1, MAX_SEATS + 1),
                             f"players must be a list of 1 to {MAX_SEATS} names")
    try:
        rules = parse_rules(data.get("rules"))
    except RulesError as exc:
        raise RecordError(f"rules: {exc}") from None
    actions_data = data.get("actions", [])
    if not isinstance(actions_data, list):
        raise RecordError("actions must be a list")
    actions: list[RecordAction] = []
    last_us = 0
    for i, item in enumerate(actions_data):
        try:
            action = _parse_action(item, len(players), last_us)
        except (ActionError, DiceError) as exc:
            raise RecordError(f"action {i}: {exc}") from None
        last_us = action.t_us
        actions.append(action)
    return Record(players=list(players), rules=rules, actions=actions)


def loads(text: str | bytes) -> Record:
    return parse(load_json(text))


def _parse_time(data: dict[str, Any], last_us: int) -> int:
    # An ActionError: the caller names the action ("action 3: t ...").
    return record_time(data.get("t"), "t", last_us, ActionError)


def _parse_action(data: Any, seats: int, last_us: int) -> RecordAction:
    if not isinstance(data, dict):
        raise ActionError("an action must be an object")
    kind = data.get("type")
    if kind not in TYPES:
        raise ActionError(f"unknown action type {kind!r} ({', '.join(TYPES)})")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise ActionError(f"unknown seat {seat!r} (seats 0 to {seats - 1})")
    forced = data.get("forced", False)
    if not isinstance(forced, bool):
        raise ActionError("forced must be true or false")
    if forced and kind != "stand":
        raise ActionError("only a stand is ever forced")
    t_us = _parse_time(data, last_us)
    if kind == "order":
        die = data.get("die")
        return RecordAction(kind, seat, t_us, dice=check_dice([die], where="die"))
    if kind == "roll":
        return RecordAction(kind, seat, t_us, dice=check_dice(data.get("dice"), DICE))
    if kind == "improve":
        if "keep" not in data:
            raise ActionError("improve names the dice it keeps (keep, a list)")
        keep = A.parse_keep(data["keep"])
        dice = check_dice(data.get("dice"), DICE - len(keep))
        return RecordAction(kind, seat, t_us, dice=dice, keep=tuple(sorted(keep)))
    return RecordAction(kind, seat, t_us, forced=forced)


# ----------------------------------------------------------------- chance outcomes


def chance_from_dict(data: Any) -> tuple[str, int, tuple[int, ...]]:
    """A chance outcome (``sample_chance``'s dict, as stored) -> (kind, seat, dice)."""
    if not isinstance(data, dict):
        raise DiceError("a chance outcome must be an object")
    kind = data.get("type")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise DiceError(f"a chance outcome names its seat, got {seat!r}")
    if kind == ORDER_DIE:
        return kind, seat, check_dice([data.get("die")], where="die")
    if kind in (FIRST_ROLL, RE_ROLL):
        return kind, seat, check_dice(data.get("dice"))
    raise DiceError(f"unknown chance outcome {kind!r}")


def chance_to_dict(kind: str, seat: int, dice: Sequence[int]) -> JSON:
    if kind == ORDER_DIE:
        return {"type": kind, "seat": seat, "die": dice[0]}
    return {"type": kind, "seat": seat, "dice": list(dice)}


# ------------------------------------------------------------------------ export


def export(players: Sequence[str], rules: Rules, log: Sequence[LogEntry]) -> JSON:
    """The record of a stored log, replayed through the engine as the server applied it:
    forced stands are listed (``"forced": true``, at their deadline), and an improvement
    carries the re-rolled dice that followed it. Entries the engine refuses are left out."""
    exporter = _Exporter(DiceGame(rules, len(players)))
    for entry in log:
        exporter.add(entry)
    return {
        "format": FORMAT,
        "players": list(players),
        "rules": rules.to_dict(),
        "actions": exporter.out,
    }


class _Exporter:
    """The record's actions, built entry by entry of a stored log."""

    def __init__(self, game: DiceGame) -> None:
        self.game = game
        self.out: list[JSON] = []
        self.improving: tuple[int, list[int], int] | None = None  # (seat, keep, t_us)

    def add(self, entry: LogEntry) -> None:
        if entry.kind == "annul":
            self.game.annul(entry.t_us)  # not a record action: the format has no annulment
            return
        if self.game.result is not None:
            return
        self._forced_stands(self.game.advance(entry.t_us))
        payload = entry.payload
        if isinstance(payload, dict) and "seat" not in payload:
            payload = {**payload, "seat": entry.seat}  # the entry's seat stands for it
        if entry.kind == "chance":
            self._chance(payload, entry.t_us)
        elif entry.kind == "action":
            self._action(payload, entry.t_us)

    def _forced_stands(self, steps: list[Step]) -> None:
        for step in steps:
            if step.action == A.STAND and step.forced:
                self.out.append({"type": "stand", "seat": step.seat, "forced": True,
                                 "t": us_to_seconds(step.now_us)})

    def _chance(self, payload: Any, t_us: int) -> None:
        try:
            kind, seat, dice = chance_from_dict(payload)
        except DiceError:
            return
        if isinstance(self.game.apply_chance(kind, seat, dice, t_us), Illegal):
            return
        if kind == RE_ROLL:
            if self.improving is not None:
                by, keep, at = self.improving
                self.out.append({"type": "improve", "seat": by, "keep": keep,
                                 "dice": list(dice), "t": us_to_seconds(at)})
                self.improving = None
            return
        fields: JSON = {"die": dice[0]} if kind == ORDER_DIE else {"dice": list(dice)}
        self.out.append({"type": kind, "seat": seat, **fields, "t": us_to_seconds(t_us)})

    def _action(self, payload: Any, t_us: int) -> None:
        try:
            seat, code = A.action_from_dict(payload)
        except ActionError:
            return
        outcome = self.game.apply(seat, code, t_us)
        if isinstance(outcome, Illegal):
            return
        self._forced_stands(outcome.steps)
        if not outcome.applied:
            return
        if A.is_improve(code):
            self.improving = (seat, list(A.keep_of(code)), t_us)
        else:
            kind = A.action_fields(code)["type"]
            self.out.append({"type": kind, "seat": seat, "t": us_to_seconds(t_us)})
