"""The match actions layer: ``access_*`` checks who may do what, ``do_*`` changes things.

One writer per match: every change locks the match row, applies to the engine,
appends to the event log, saves, commits, and only then broadcasts and schedules
the next clock deadline (``transaction.on_commit``). An ordinary move may instead be
applied to the copy this process committed last (``match_cache``) and written by one
statement that locks the row and checks that its version has not moved; when it has,
the move is done again the locked way. Consumers, views and Celery tasks call these
functions and nothing else.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.protocol import Illegal, Step
from games.spectacular_bid import actions as A
from games.spectacular_bid.actions import ActionFormatError, action_from_dict, action_to_dict
from games.spectacular_bid.rules import Rules, RulesError
from games.spectacular_bid.state import CONTINUE
from games.spectacular_bid.state import Match as Engine

from . import broadcast, heartbeat, match_cache, rawsql
from .deals import next_deal
from .models import Match, MatchEvent
from .store import deal_payload, load_engine, save_engine

US = 1_000_000
# Commands that two players may send at the same moment, or that do not depend on
# what the sender saw; the engine itself refuses a second one.
VERSIONLESS = frozenset({A.CONTINUE, A.RESIGN, A.ABORT})


class AccessDenied(Exception):
    pass


@dataclass
class CommandResult:
    ok: bool
    code: str  # ok | illegal | stale | late | forbidden | bad_request | over | unavailable
    message: str = ""
    version: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "code": self.code, "message": self.message,
                "version": self.version}


# ------------------------------------------------------------------- access

def access_match_seats(match: Match, user: AbstractBaseUser | None) -> list[int]:
    """The seats ``user`` may act for: both in their own one-device game, none as a spectator."""
    if user is None or not user.is_authenticated:
        return []
    if match.one_device:
        return [0, 1] if match.seat0_id == user.pk else []
    seat = match.seat_of(user.pk)
    return [] if seat is None else [seat]


def match_time_us(match: Match, wall: float) -> int:
    return max(0, round((wall - match.started_wall) * US))


def wall_time(match: Match, t_us: int) -> float:
    return match.started_wall + t_us / US


# ------------------------------------------------------------------ helpers

def _locked(match_id: Any) -> Match:
    """The match row, locked until the transaction ends (the one writer per match)."""
    return read_match(match_id, lock=True)


def read_match(match_id: Any, lock: bool = False) -> Match:
    """The match row with its players' names (the broadcast header needs them); ``lock``:
    locked until the transaction ends. Raises Match.DoesNotExist, or ValueError for a bad id.

    One statement, written out because the ORM's compilation of it was a tenth of a move's
    CPU, and read with a plain cursor because the raw queryset's machinery cost as much again.
    """
    pk = Match._meta.pk.get_db_prep_value(uuid.UUID(str(match_id)), connection)
    users = connection.ops.quote_name(get_user_model()._meta.db_table)
    locking = ""
    if lock and connection.features.has_select_for_update_of:
        locking = " FOR UPDATE OF m"  # the match, not its players
    elif lock and connection.features.has_select_for_update:
        locking = " FOR UPDATE"
    match = rawsql.select_one(
        Match, f"JOIN {users} u0 ON u0.id = m.seat0_id JOIN {users} u1 ON u1.id = m.seat1_id",
        "m.id = %s", [pk], ["u0.username AS seat0_name", "u1.username AS seat1_name"],
        locking)
    if match is None:
        raise Match.DoesNotExist
    return match  # type: ignore[return-value]


def _append(match: Match, kind: str, t_us: int, seat: int | None = None,
            payload: dict[str, Any] | None = None) -> None:
    """Add an event to the log; it is written with the match row by ``_save``."""
    match.version += 1
    match.last_t_us = max(match.last_t_us, t_us)
    _pending_events(match).append({
        "match": match.pk, "seq": match.version, "kind": kind, "seat": seat,
        "payload": payload or {}, "t_us": t_us, "created_at": timezone.now()})


def _effective_us(match: Match, received: float) -> int:
    """When a command takes effect: its receipt time, or the time of the last logged event
    if that is later (a command received first on one web process may reach the row after
    one received a moment later on another); the log's times never go back."""
    return max(match_time_us(match, received), match.last_t_us)


def _pending_events(match: Match) -> list[dict[str, Any]]:
    pending: list[dict[str, Any]] | None = getattr(match, "_pending_events", None)
    if pending is None:
        pending = []
        match._pending_events = pending  # type: ignore[attr-defined]
    return pending


def _deal_if_due(match: Match, engine: Engine) -> None:
    if engine.needs_chance():
        deal = next_deal(match.pk, engine.hand_no + 1)
        engine.deal(deal)
        _append(match, MatchEvent.Kind.DEAL, engine.settled_us, payload=deal_payload(deal))


def _advance_time(match: Match, engine: Engine, t_us: int) -> list[Step]:
    """Let time pass up to ``t_us``; a flag that an outage caused annuls instead (§7)."""
    steps: list[Step] = []
    if engine.phase == CONTINUE and engine.result is None:
        # A grace period that ran out starts the clocks at its end. Take that step on
        # its own, so that the outage check below sees the clock period that follows.
        grace_end = engine.next_deadline_us()
        if grace_end is not None and t_us >= grace_end:
            steps = engine.advance(grace_end)
            _append(match, MatchEvent.Kind.TIME, grace_end)
    return steps + _advance_clock(match, engine, t_us)


def _advance_clock(match: Match, engine: Engine, t_us: int) -> list[Step]:
    deadline = engine.clock.deadline_us()
    if deadline is not None and t_us >= deadline and engine.result is None:
        started = wall_time(match, engine.clock.started_us)
        if heartbeat.had_outage(started, wall_time(match, deadline)):
            steps = engine.annul(t_us)
            match.annul_reason = _("The service could not receive commands while a clock ran.")
            _append(match, MatchEvent.Kind.ANNUL, t_us, payload={"reason": "outage"})
            return steps
    steps = engine.advance(t_us)
    if steps:
        _append(match, MatchEvent.Kind.TIME, t_us)
    return steps


# What an ordinary move changes in the match row, and what only the end of a match does.
MOVE_COLUMNS = ["state", "balances", "version", "deadline_at", "last_t_us"]
END_COLUMNS = ["winner", "reason", "status", "finished_at", "annul_reason", "rating_seq"]


def _save(match: Match, engine: Engine, version_before: int, force: bool = False,
          unless_moved: bool = False) -> bool:
    """Persist the engine and the columns the pages query; broadcast after commit.

    ``unless_moved``: the match was not read under a lock (the optimistic path), so write
    only if its version is still ``version_before``; False when it had moved on.
    """
    if match.version == version_before and not force:
        return True
    _deal_if_due(match, engine)
    save_engine(match, engine)
    match.balances = list(engine.balances)
    result = engine.result
    if result is not None and match.status == Match.Status.ACTIVE:
        match.winner = result.winner
        match.reason = result.reason
        match.status = {
            "abort": Match.Status.ABORTED,
            "annulled": Match.Status.ANNULLED,
        }.get(result.reason, Match.Status.FINISHED)
        match.finished_at = timezone.now()
        if match.status == Match.Status.FINISHED:
            from ratings.services import apply_match

            apply_match(match)
    deadline = engine.next_deadline_us()
    match.deadline_at = None if deadline is None else wall_time(match, deadline)
    events = _pending_events(match)
    if unless_moved:
        # The status too: a row changed without a new version (staff editing it) is
        # not written over from a copy.
        unchanged = {"version": version_before, "status": Match.Status.ACTIVE}
        if not rawsql.update_and_insert(match, MOVE_COLUMNS, MatchEvent, events, unchanged):
            return False
    elif version_before >= 0:
        columns = MOVE_COLUMNS if result is None and not force else MOVE_COLUMNS + END_COLUMNS
        rawsql.update_and_insert(match, columns, MatchEvent, events)  # the row is locked
    else:
        match.save()
        rawsql.insert(MatchEvent, events)
    events.clear()
    views = broadcast.views_for(match, engine)
    match_id, version = match.pk, match.version
    # A task for a running clock's deadline. The end of a Continue grace period is left
    # to the beat sweep (within a second; the clocks start at the grace end itself,
    # whenever it is processed): almost every grace period is ended by the players a
    # moment later, and a task for each would fire for nothing once a hand.
    deadline_at = None if engine.phase == CONTINUE else match.deadline_at
    started_wall = match.started_wall

    def after_commit() -> None:
        if match.status == Match.Status.ACTIVE:
            match_cache.keep(match, engine)  # the next command starts from here
        else:
            match_cache.drop(match_id)
        broadcast.send_views(match_id, version, started_wall, views)
        if deadline_at is not None:
            from .tasks import schedule_deadline

            schedule_deadline(match_id, deadline_at)

    transaction.on_commit(after_commit)
    return True


# ---------------------------------------------------------------------- do_*

def do_create_match(seat0: AbstractBaseUser, seat1: AbstractBaseUser, *, rated: bool,
                    rules: dict[str, Any] | None = None, one_device: bool = False,
                    rematch_of: Match | None = None) -> Match:
    rules_data = dict(rules or {})
    if one_device:
        rules_data["one_device"] = True
    try:
        parsed = Rules.from_dict(rules_data or None)
    except RulesError as exc:
        raise ValueError(str(exc)) from None
    if rated and parsed.to_dict() != Rules(one_device=parsed.one_device).to_dict():
        raise ValueError(_("A rated match uses the standard rules."))
    with transaction.atomic():
        match = Match.objects.create(
            seat0=seat0, seat1=seat1, rated=rated and not one_device, one_device=one_device,
            rules=parsed.record_dict(), started_wall=time.time(), rematch_of=rematch_of,
            balances=[parsed.start_points] * 2,
        )
        engine = Engine(parsed)
        _deal_if_due(match, engine)
        _save(match, engine, version_before=-1)
    return match


def parse_command(data: Any) -> tuple[int, int, int | None]:
    """A client command {"action": {...}, "version": n} -> (seat, code, version)."""
    if not isinstance(data, dict):
        raise ActionFormatError(_("A command must be a JSON object."))
    action = data.get("action")
    if not isinstance(action, dict):
        raise ActionFormatError(_("A command needs an 'action' object."))
    version = data.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise ActionFormatError(_("'version' must be a whole number."))
    seat, code = action_from_dict(action)
    if code >= A.EVENT_BASE:
        raise ActionFormatError(_("That action cannot be sent."))
    if version is None and code not in VERSIONLESS:
        # Without it a resent command could be applied twice.
        raise ActionFormatError(_("This command needs the 'version' of the state you acted on."))
    return seat, code, version


def do_command(match_id: Any, user: AbstractBaseUser | None, data: Any,
               received_wall: float | None = None) -> CommandResult:
    """Apply one command from ``user``, stamped with its receipt time."""
    received = time.time() if received_wall is None else received_wall
    try:
        seat, code, expected = parse_command(data)
    except ActionFormatError as exc:
        return CommandResult(False, "bad_request", str(exc))
    done = _command_on_copy(match_id, user, seat, code, expected, received)
    if done is not None:
        return done
    with transaction.atomic():
        try:
            match = _locked(match_id)
        except (Match.DoesNotExist, ValueError, ValidationError):  # no such match, or a bad id
            return CommandResult(False, "not_found", _("There is no such match."))
        before = match.version
        engine = load_engine(match)
        result = _apply_command(match, engine, user, seat, code, expected, received)
        _save(match, engine, before)  # also the time that passed before a refusal
        result.version = match.version
        return result


def _command_on_copy(match_id: Any, user: AbstractBaseUser | None, seat: int, code: int,
                     expected: int | None, received: float) -> CommandResult | None:
    """An ordinary move applied to this process's copy of the match (``match_cache``).

    The same steps as the locked path, on the state this process last committed, written
    only if the match's version has not moved since. None, with nothing written, for
    anything else: no copy, a copy someone has moved past, a refusal, or a match that
    ends here (results and ratings are written the locked way).
    """
    if connection.in_atomic_block:
        return None  # inside a caller's transaction: its reads and locks come first
    copy = match_cache.take(match_id)
    if copy is None:
        return None
    match, engine = copy
    before = match.version
    result = _apply_command(match, engine, user, seat, code, expected, received)
    if not result.ok or engine.result is not None:
        return None
    if not _save(match, engine, before, unless_moved=True):
        return None
    result.version = match.version
    return result


def _apply_command(match: Match, engine: Engine, user: AbstractBaseUser | None, seat: int,
                   code: int, expected: int | None, received: float) -> CommandResult:
    """The command applied to ``match`` and ``engine`` (read under the lock, or this
    process's copy); writes nothing. The caller sets the result's version once written."""
    if seat not in access_match_seats(match, user):
        return CommandResult(False, "forbidden", _("You cannot act for that seat."))
    if match.status != Match.Status.ACTIVE:
        return CommandResult(False, "over", _("The match is over."))
    t_us = _effective_us(match, received)
    _advance_time(match, engine, t_us)
    if engine.result is not None:
        late = engine.result.reason == "time" and engine.result.winner != seat
        return CommandResult(False, "late" if late else "over",
                             _("Too late: the clock had run out.") if late
                             else _("The match is over."))
    if code not in VERSIONLESS and expected != match.version:
        # A client behind the match, or (on a copy) ahead of this process's copy.
        return CommandResult(False, "stale",
                             _("The match has moved on; your view has been refreshed."))
    outcome = engine.apply(seat, code, t_us)
    if isinstance(outcome, Illegal):
        return CommandResult(False, "illegal", _translate_reason(outcome.reason))
    _append(match, MatchEvent.Kind.ACTION, t_us, seat, action_to_dict(seat, code))
    return CommandResult(True, "ok", "")


def do_advance(match_id: Any, now_wall: float | None = None) -> bool:
    """Let time pass for one match (the deadline task and the beat sweep); True if it changed."""
    now = time.time() if now_wall is None else now_wall
    with transaction.atomic():
        try:
            match = _locked(match_id)
        except (Match.DoesNotExist, ValueError, ValidationError):
            return False
        if match.status != Match.Status.ACTIVE:
            return False
        before = match.version
        engine = load_engine(match)
        _advance_time(match, engine, _effective_us(match, now))
        _save(match, engine, before)
        return match.version != before


def do_annul(match: Match, reason: str) -> None:
    """Annul a match (staff action, or an outage): no winner, no rating change."""
    with transaction.atomic():
        locked = _locked(match.pk)
        before = locked.version
        engine = load_engine(locked)
        t_us = _effective_us(locked, time.time())
        if engine.result is None or engine.result.reason != "annulled":
            engine.annul(t_us)
            _append(locked, MatchEvent.Kind.ANNUL, t_us, payload={"reason": reason})
        locked.annul_reason = reason[:200]
        rated_at = locked.rating_seq
        locked.status = Match.Status.ANNULLED
        locked.winner = None
        locked.reason = "annulled"
        if locked.finished_at is None:  # an active match: _save sets it only for active ones
            locked.finished_at = timezone.now()
        _save(locked, engine, before, force=True)  # players see the annulment at once
        if rated_at is not None:
            from ratings.services import rebuild_from

            rebuild_from(rated_at)  # the ratings from that match on, without it


def snapshot(match: Match, seats: list[int]) -> dict[str, Any]:
    """The view of one connection: a seat, both seats (one device), or a spectator."""
    engine = load_engine(match)  # a view never advances time: only the writer does
    return broadcast.connection_message(
        match.pk, match.version, match.started_wall, broadcast.views_for(match, engine), seats
    )


def _translate_reason(reason: str) -> str:
    from .reasons import translate

    return translate(reason)
