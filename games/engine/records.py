"""What every game's record and replay share (match-record.md, fives.md, dice.md).

The exit statuses of ``manage.py replay``, record times in seconds, reading a record's
JSON and checking its format, a record's coded actions (read and written), the part of a
replay that says whether every action applied, a domino replay's step entries, and the
shape of ``replay_document``. Each game keeps its own record fields, report keys and
wording: the shared functions take them as arguments.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .forced import ForcedActions
from .plugin import RecordError, ReplayOutcome
from .protocol import JSON, Step

EXIT_OK = 0  # every action applied
EXIT_ILLEGAL = 1  # an action was illegal: the report stops there
EXIT_MALFORMED = 2  # the record cannot be read: one line on stderr

US = 1_000_000  # microseconds in a second: records speak seconds, engines microseconds


def seconds_to_us(t: float) -> int:
    return round(t * US)


def us_to_seconds(us: int) -> float:
    return us / US


def load_json(text: str | bytes) -> Any:
    """A record's JSON document; RecordError (one line) when it is not JSON or is nested
    deeper than Python's parser goes."""
    try:
        return json.loads(text)
    except RecursionError:
        raise RecordError("the record is nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError(f"not JSON: {exc}") from None


def record_object(data: Any, record_format: str) -> dict[str, Any]:
    """A record's document, checked to be an object of ``record_format``."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != record_format:
        raise RecordError(f"unknown format {data.get('format')!r} (expected {record_format!r})")
    return data


def record_players(players: Any, counts: Container[int], message: str) -> list[str]:
    """A record's ``players``: a list of names, as many as one of ``counts`` (``message``
    says what is expected)."""
    if (
        not isinstance(players, list)
        or len(players) not in counts
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError(message)
    return list(players)


def record_time(value: Any, where: str, last_us: int,
                error: type[Exception] = RecordError) -> int:
    """A record's time ``value`` (seconds; None: the previous time, ``last_us``) in
    microseconds. ``where`` names it in the message; ``error`` is what a game raises for
    it (dice reads times inside an action, so its caller adds the action's index)."""
    if value is None:
        return last_us
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise error(f"{where} must be a number of seconds")
    t_us = seconds_to_us(value)
    if t_us < 0:
        raise error(f"{where} must not be negative")
    if t_us < last_us:
        raise error(f"{where} goes back in time")
    return t_us


@dataclass(slots=True)
class RecordAction:
    """One action of a record, read: its seat, the game's action code, when (the
    previous action's time where the record gives none)."""

    seat: int
    code: int
    t_us: int


def read_actions(data: Any, where: str, last_us: int,
                 read: Callable[[Any], tuple[int, int]], error: type[Exception],
                 ) -> tuple[list[RecordAction], int]:
    """A record's list of coded actions (``where``: "hand 2", for the messages) and the
    time of the last. ``read`` is the game's reader of one action -> (seat, code), which
    raises the game's ``error``; an action with no time has the previous one's."""
    if not isinstance(data, list):
        raise RecordError(f"{where}: actions must be a list")
    actions: list[RecordAction] = []
    for i, action_data in enumerate(data):
        try:
            seat, code = read(action_data)
        except error as exc:
            raise RecordError(f"{where} action {i}: {exc}") from None
        last_us = record_time(action_data.get("t"), f"{where} action {i}: t", last_us)
        actions.append(RecordAction(seat, code, last_us))
    return actions, last_us


def action_record(seat: int, code: int, t_us: int | None,
                  fields: Callable[[int], JSON]) -> JSON:
    """A record's entry for an applied action: its seat, the game's ``fields`` of the
    code, and its time in seconds when known."""
    entry: JSON = {"seat": seat, **fields(code)}
    if t_us is not None:
        entry["t"] = us_to_seconds(t_us)
    return entry


class ReplayResult:
    """What every game's ``Replay`` (a dataclass with ``actions`` and ``error``) says
    about how the replay went; the final state has a game's own name there."""

    __slots__ = ()
    actions: list[JSON]
    error: JSON | None  # where and why an action was illegal; None: all applied

    @property
    def exit_status(self) -> int:
        return EXIT_ILLEGAL if self.error is not None else EXIT_OK


def step_entry(hand: int, step: Step, fields: Callable[[int], JSON], scores_key: str) -> JSON:
    """A domino replay's report entry for one step: the hand, the seat, the action's own
    ``fields``, its points, the scores after it (under the game's own key: Spectacular
    Bid's "balances", Fives' "scores") and, for one the engine took itself, ``forced``."""
    entry: JSON = {"hand": hand, "seat": step.seat, **fields(step.action)}
    entry["points"] = step.points
    entry[scores_key] = list(step.scores)
    if step.forced:
        entry["forced"] = True
    return entry


def step_entries(hand: int, steps: list[Step], event_base: int,
                 entry: Callable[[int, Step], JSON], pending: ForcedActions) -> list[JSON]:
    """The report entries of ``steps`` that are actions: time events (codes from
    ``event_base`` on: a flag, a hand starting on its own) are not. Forced ones go to
    ``pending``, so that the record may list them or leave them out."""
    entries = []
    for step in steps:
        if step.action >= event_base:
            continue
        entries.append(entry(hand, step))
        if step.forced:
            pending.add(step.seat, step.action)
    return entries


class PlayedRecord(Protocol):
    """A parsed record, as far as ``replay_document`` reads it."""

    @property
    def players(self) -> Sequence[str]: ...


RecordT = TypeVar("RecordT", bound=PlayedRecord)
ReplayT = TypeVar("ReplayT", bound=ReplayResult)


def legal_lines(report: JSON) -> str:
    """The readable account's tail with --legal: whose turn, then each legal action."""
    return f"\nTo act: {report['to_act']}" + "".join(
        "\n  " + json.dumps(action) for action in report["legal"])


def replay_document(text: bytes, with_legal: bool, *,
                    loads: Callable[[bytes], RecordT],
                    replay: Callable[[RecordT], ReplayT],
                    report: Callable[[ReplayT, bool], JSON],
                    describe: Callable[[ReplayT, list[str]], str]) -> ReplayOutcome:
    """``manage.py replay`` for one game's record: read it, replay it, and give the exit
    status, the --json report and the readable account (or the malformed line)."""
    try:
        record = loads(text)
    except RecordError as exc:
        line = " ".join(str(exc).split())  # one line; the command adds "malformed record: "
        return ReplayOutcome(EXIT_MALFORMED, {}, "", line)
    rep = replay(record)
    data = report(rep, with_legal)
    readable = describe(rep, list(record.players))
    if with_legal:
        readable += legal_lines(data)
    return ReplayOutcome(rep.exit_status, data, readable)
