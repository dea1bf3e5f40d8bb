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

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import registry
from games.engine.clock import MatchClock
from games.engine.plugin import ActionError, GamePlugin, RulesError
from games.engine.protocol import GameState, Illegal, Step
from games.live import broadcast, heartbeat
from games.models import Match, MatchEvent, MatchSeat
from games.play import deals, match_cache
from games.play.deadlines import schedule_deadline
from games.play.reasons import translate
from games.play.store import load_engine, plugin_of, save_engine
from games.reads import rawsql
from games.signals import match_annulled, match_finished
from games.web.rules_text import rules_message

US = 1_000_000
# A chance outcome may make another one due at once (dice tied for the order): a bound,
# so that a game whose chance never settles cannot loop the writer.
MAX_CHANCES_AT_ONCE = 64


class CommandFormatError(ValueError):
    """A command that cannot be read; the message is for the sender."""


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
    """The seats ``user`` may act for: every seat of their own one-device game, none as a
    spectator."""
    if user is None or not user.is_authenticated:
        return []
    return match.seats_of(user.pk)


def match_time_us(match: Match, wall: float) -> int:
    return max(0, round((wall - match.started_wall) * US))


def wall_time(match: Match, t_us: int) -> float:
    return match.started_wall + t_us / US


# ------------------------------------------------------------------ helpers

def _locked(match_id: Any) -> Match:
    """The match row, locked until the transaction ends (the one writer per match)."""
    return read_match(match_id, lock=True)


def read_match(match_id: Any, lock: bool = False) -> Match:
    """The match row (its seats' users and names included); ``lock``:
    locked until the transaction ends. Raises Match.DoesNotExist, or ValueError for a bad id.

    One statement, written out because the ORM's compilation of it was a tenth of a move's
    CPU, and read with a plain cursor because the raw queryset's machinery cost as much again.
    The seats' users and names are columns of the row (``Match.seat_users``): no join.
    """
    pk = Match._meta.pk.get_db_prep_value(uuid.UUID(str(match_id)), connection)
    locking = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    match = rawsql.select_one(Match, "", "m.id = %s", [pk], [], locking)
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


def _chance_if_due(match: Match, plugin: GamePlugin, engine: GameState,
                   t_us: int | None = None) -> list[Any]:
    """Apply the chance outcomes due now (deals, rolls), each derived from the match's
    seeds and logged. The first waits while its players may still send their seeds."""
    steps: list[Any] = []
    at = match.last_t_us if t_us is None else t_us
    now = time.time() if t_us is None else wall_time(match, t_us)
    for _attempt in range(MAX_CHANCES_AT_ONCE):
        if not engine.needs_chance() or engine.result is not None:
            break
        if deals.waits_for_seeds(match, now):
            break
        outcome = plugin.sample_chance(engine, deals.chance_source(match))
        steps += plugin.apply_chance(engine, outcome, at)
        match.chances += 1
        _append(match, MatchEvent.Kind.CHANCE, at, payload=outcome)
    return steps


def _running_clock(plugin: GamePlugin, engine: GameState) -> MatchClock | None:
    """The engine's running match clock (``games/engine/clock.py``), or None."""
    clock = plugin.clock(engine)
    return clock if clock is not None and clock.running is not None else None


def _advance_time(match: Match, plugin: GamePlugin, engine: GameState,
                  t_us: int) -> list[Step]:
    """Let time pass up to ``t_us``; a flag that an outage caused annuls instead (§7)."""
    steps: list[Step] = []
    deadline = engine.next_deadline_us()
    if (engine.result is None and _running_clock(plugin, engine) is None and deadline is not None
            and t_us >= deadline):
        # A deadline with no clock running (a grace period that ran out starts the clocks
        # at its end). Take that step on its own, so that the outage check below sees
        # the clock period that follows.
        steps = engine.advance(deadline)
        _append(match, MatchEvent.Kind.TIME, deadline)
    # Each deadline that passes may end a turn whose successor needs chance first (the
    # next player's roll): drawn at the time the turn ended, then time goes on.
    for _attempt in range(MAX_CHANCES_AT_ONCE):
        steps += _advance_clock(match, plugin, engine, t_us)
        if not engine.needs_chance() or engine.result is not None:
            break
        ended = steps[-1].now_us if steps else match.last_t_us
        steps += _chance_if_due(match, plugin, engine, ended)
    return steps


def _advance_clock(match: Match, plugin: GamePlugin, engine: GameState,
                   t_us: int) -> list[Step]:
    clock = _running_clock(plugin, engine)
    deadline = None if clock is None else clock.deadline_us()
    if deadline is not None and t_us >= deadline and engine.result is None:
        started = wall_time(match, clock.started_us)
        if heartbeat.had_outage(started, wall_time(match, deadline)):
            steps: list[Step] = plugin.annul(engine, t_us)
            match.annul_reason = _("The service could not receive commands while a clock ran.")
            _append(match, MatchEvent.Kind.ANNUL, t_us, payload={"reason": "outage"})
            return steps
    steps = engine.advance(t_us)
    if steps:
        _append(match, MatchEvent.Kind.TIME, t_us)
    return steps


# What an ordinary move changes in the match row, and what only the end of a match does.
MOVE_COLUMNS = ["state", "scores", "version", "deadline_at", "last_t_us", "chances"]
END_COLUMNS = ["winner", "reason", "status", "finished_at", "annul_reason", "rating_seq"]


def _save(match: Match, plugin: GamePlugin, engine: GameState, version_before: int,
          force: bool = False, unless_moved: bool = False, reason: str | None = None) -> bool:
    """Persist the engine and the columns the pages query; broadcast after commit.

    ``unless_moved``: the match was not read under a lock (the optimistic path), so write
    only if its version is still ``version_before``; False when it had moved on.
    ``reason``: why the match ended, when the platform knows better than the engine (a
    tournament's forfeit is the game's resignation).
    """
    if match.version == version_before and not force:
        return True
    _chance_if_due(match, plugin, engine)
    if unless_moved and engine.result is not None:
        # A chance outcome ended the match (the re-roll of a game's last turn): results
        # and ratings are written the locked way, so the caller does it all again there.
        return False
    save_engine(match, engine)
    match.scores = plugin.scores(engine)
    _end_if_over(match, plugin, engine, reason)
    match.deadline_at = _deadline_wall(match, engine)
    if not _write(match, version_before, force, unless_moved, ended=engine.result is not None):
        return False
    _broadcast_after_commit(match, plugin, engine)
    return True


def _end_if_over(match: Match, plugin: GamePlugin, engine: GameState,
                 reason: str | None = None) -> None:
    """The result columns of a match the engine has just ended, ranks, and the signal
    that rates it and moves its tournament on."""
    result = engine.result
    if result is None or match.status != Match.Status.ACTIVE:
        return
    match.winner = result.winner
    match.reason = reason or result.reason
    if result.reason == "annulled":
        match.status = Match.Status.ANNULLED
    elif plugin.abort_action is not None and result.reason == plugin.abort_action:
        match.status = Match.Status.ABORTED  # ended before it really started: no result
    else:
        match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    ranks = plugin.ranks(engine) if match.status == Match.Status.FINISHED else None
    _record_seats(match, ranks)
    if ranks is not None:
        match_finished.send(Match, match=match, ranks=ranks)  # ratings, tournaments


def _deadline_wall(match: Match, engine: GameState) -> float | None:
    """When the match next changes on its own: the engine's deadline, or the close of the
    seeds' window while the first chance event waits (the beat sweep deals then)."""
    deadline = engine.next_deadline_us()
    if deadline is not None:
        return wall_time(match, deadline)
    return match.fair_seeds_until if deals.waits_for_seeds(match, time.time()) else None


def _write(match: Match, version_before: int, force: bool, unless_moved: bool,
           ended: bool) -> bool:
    """The row and its pending events, in one statement where it can; False when the
    optimistic write found the version moved."""
    events = _pending_events(match)
    if unless_moved:
        # The status too: a row changed without a new version (staff editing it) is
        # not written over from a copy.
        unchanged = {"version": version_before, "status": Match.Status.ACTIVE}
        if not rawsql.update_and_insert(match, MOVE_COLUMNS, MatchEvent, events, unchanged):
            return False
    elif version_before >= 0:
        columns = MOVE_COLUMNS if not ended and not force else MOVE_COLUMNS + END_COLUMNS
        rawsql.update_and_insert(match, columns, MatchEvent, events)  # the row is locked
    else:
        match.save()
        rawsql.insert(MatchEvent, events)
    events.clear()
    return True


def _broadcast_after_commit(match: Match, plugin: GamePlugin, engine: GameState) -> None:
    views = broadcast.views_for(match, plugin, engine)
    match_id, version = match.pk, match.version
    # A task for a running clock's deadline. Other deadlines (the end of a Continue grace
    # period, the seeds' window) are left to the beat sweep (within a second; the clocks
    # start at the grace end itself, whenever it is processed): almost every grace period
    # is ended by the players a moment later, and a task for each would fire for nothing.
    deadline_at = None if _running_clock(plugin, engine) is None else match.deadline_at
    started_wall = match.started_wall

    def after_commit() -> None:
        if match.status == Match.Status.ACTIVE:
            match_cache.keep(match, engine)  # the next command starts from here
        else:
            match_cache.drop(match_id)
        broadcast.send_views(match_id, version, started_wall, views)
        if deadline_at is not None:
            schedule_deadline(match_id, deadline_at)

    transaction.on_commit(after_commit)


# ---------------------------------------------------------------------- do_*

def _record_seats(match: Match, ranks: list[int] | None) -> None:
    """Each seat's final rank and score, on its MatchSeat row (the end of a match only).
    A one-device game is practice: no ranks (no win or loss for anybody)."""
    if match.one_device:
        ranks = None
    for index in range(match.seat_count):
        MatchSeat.objects.filter(match_id=match.pk, index=index).update(
            rank=None if ranks is None else ranks[index],
            score=match.scores[index] if index < len(match.scores) else None)


def check_rules(plugin: GamePlugin, rules: Any, seats: int, *, rated: bool,
                one_device: bool = False) -> Any:
    """The parsed rules of a new table; ValueError with a message for the user."""
    if seats not in plugin.seat_counts:
        counts = ", ".join(str(n) for n in plugin.seat_counts)
        raise ValueError(_("%(game)s is played by %(counts)s players.")
                         % {"game": _(plugin.name), "counts": counts})
    if rules is not None and not isinstance(rules, dict):
        raise ValueError(_("'rules' must be an object."))
    rules_data = dict(rules or {})
    if one_device:
        if not plugin.has_one_device:
            raise ValueError(_("This game has no one-device mode."))
        rules_data["one_device"] = True
    try:
        parsed = plugin.parse_rules(rules_data or None, seats)
    except RulesError as exc:
        raise ValueError(rules_message(plugin, exc)) from None
    if rated and not plugin.rated_allows(parsed):
        raise ValueError(_("A rated match uses the standard rules."))
    return parsed


def do_create_match(*users: AbstractBaseUser, rated: bool, rules: dict[str, Any] | None = None,
                    game: str | None = None, one_device: bool = False,
                    rematch_of: Match | None = None) -> Match:
    """A new match of ``game`` (the default game when None), ``users[i]`` in seat ``i``."""
    try:
        plugin = registry.game(game) if game is not None else registry.default_game()
    except registry.UnknownGame:
        raise ValueError(_("There is no such game.")) from None
    seats = len(users)
    parsed = check_rules(plugin, rules, seats, rated=rated, one_device=one_device)
    practice = seats > 1 and len({user.pk for user in users}) == 1
    with transaction.atomic():
        match = Match(
            game=plugin.key, seat_count=seats, seat_users=[user.pk for user in users],
            seat_names=[user.get_username() for user in users],
            # Ratings compare players: a solo game or practice is never rated.
            rated=rated and seats > 1 and not one_device and not practice,
            one_device=one_device,
            rules=plugin.rules_to_dict(parsed), started_wall=time.time(),
            rematch_of=rematch_of,
        )
        deals.seed_new_match(match)
        match.save(force_insert=True)
        MatchSeat.objects.bulk_create([MatchSeat(match=match, index=i, user=user)
                                       for i, user in enumerate(users)])
        engine = plugin.new_state(parsed, seats)
        match.scores = plugin.scores(engine)
        _save(match, plugin, engine, version_before=-1)
    return match


def command_shape(data: Any) -> tuple[dict[str, Any], int | None]:
    """A client command {"action": {...}, "version": n} -> (action, version), any game."""
    if not isinstance(data, dict):
        raise CommandFormatError(_("A command must be a JSON object."))
    action = data.get("action")
    if not isinstance(action, dict):
        raise CommandFormatError(_("A command needs an 'action' object."))
    version = data.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise CommandFormatError(_("'version' must be a whole number."))
    return action, version


def parse_command(plugin: GamePlugin, action: dict[str, Any],
                  version: int | None) -> tuple[int, int]:
    """The action of one game -> (seat, code); CommandFormatError when unreadable."""
    try:
        seat, code = plugin.action_from_dict(action)
    except ActionError as exc:
        raise CommandFormatError(str(exc)) from None
    if version is None and action.get("type") not in plugin.versionless:
        # Without it a resent command could be applied twice.
        raise CommandFormatError(
            _("This command needs the 'version' of the state you acted on."))
    return seat, code


def do_command(match_id: Any, user: AbstractBaseUser | None, data: Any,
               received_wall: float | None = None) -> CommandResult:
    """Apply one command from ``user``, stamped with its receipt time."""
    received = time.time() if received_wall is None else received_wall
    try:
        action, expected = command_shape(data)
    except CommandFormatError as exc:
        return CommandResult(False, "bad_request", str(exc))
    try:
        done = _command_on_copy(match_id, user, action, expected, received)
    except CommandFormatError as exc:
        return CommandResult(False, "bad_request", str(exc))
    if done is not None:
        return done
    with transaction.atomic():
        try:
            match = _locked(match_id)
        except (Match.DoesNotExist, ValueError, ValidationError):  # no such match, or a bad id
            return CommandResult(False, "not_found", _("There is no such match."))
        plugin = plugin_of(match)
        try:
            seat, code = parse_command(plugin, action, expected)
        except CommandFormatError as exc:
            return CommandResult(False, "bad_request", str(exc), match.version)
        before = match.version
        engine = load_engine(match)
        result = _apply_command(match, plugin, engine, user, seat, code, action, expected,
                                received)
        _save(match, plugin, engine, before)  # also the time that passed before a refusal
        result.version = match.version
        return result


def _command_on_copy(match_id: Any, user: AbstractBaseUser | None, action: dict[str, Any],
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
    if match.chances == 0:
        # Before the first chance event another process may have taken a seed that this
        # copy does not hold (seeds do not move the version): that event is the locked way's.
        return None
    plugin = plugin_of(match)
    seat, code = parse_command(plugin, action, expected)
    before = match.version
    result = _apply_command(match, plugin, engine, user, seat, code, action, expected, received)
    if not result.ok or engine.result is not None:
        return None
    if not _save(match, plugin, engine, before, unless_moved=True):
        return None
    result.version = match.version
    return result


def _apply_command(match: Match, plugin: GamePlugin, engine: GameState,
                   user: AbstractBaseUser | None, seat: int, code: int, action: dict[str, Any],
                   expected: int | None, received: float) -> CommandResult:
    """The command applied to ``match`` and ``engine`` (read under the lock, or this
    process's copy); writes nothing. The caller sets the result's version once written."""
    if seat not in access_match_seats(match, user):
        return CommandResult(False, "forbidden", _("You cannot act for that seat."))
    if match.status != Match.Status.ACTIVE:
        return CommandResult(False, "over", _("The match is over."))
    t_us = _effective_us(match, received)
    _advance_time(match, plugin, engine, t_us)
    if engine.result is not None:
        late = engine.result.reason == "time" and engine.result.winner != seat
        return CommandResult(False, "late" if late else "over",
                             _("Too late: the clock had run out.") if late
                             else _("The match is over."))
    if action.get("type") not in plugin.versionless and expected != match.version:
        # A client behind the match, or (on a copy) ahead of this process's copy.
        return CommandResult(False, "stale",
                             _("The match has moved on; your view has been refreshed."))
    outcome = engine.apply(seat, code, t_us)
    if isinstance(outcome, Illegal):
        return CommandResult(False, "illegal", _translate_reason(outcome.reason))
    _append(match, MatchEvent.Kind.ACTION, t_us, seat, plugin.action_to_dict(seat, code))
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
        plugin = plugin_of(match)
        engine = load_engine(match)
        t_us = _effective_us(match, now)
        _advance_time(match, plugin, engine, t_us)
        _chance_if_due(match, plugin, engine, t_us)  # the seeds' window may have closed
        _save(match, plugin, engine, before)
        return match.version != before


def do_send_seed(match_id: Any, user: AbstractBaseUser | None, seed: Any,
                 received_wall: float | None = None) -> CommandResult:
    """Take a player's own seed for the match's chance (for every seat they hold); the
    first deal or roll is made at once when every seat has sent one. Refused after it."""
    with transaction.atomic():
        try:
            match = _locked(match_id)
        except (Match.DoesNotExist, ValueError, ValidationError):
            return CommandResult(False, "not_found", _("There is no such match."))
        seats = access_match_seats(match, user)
        try:
            seed = deals.check_seed(match, seats, seed)
        except deals.SeedError as exc:
            return CommandResult(False, exc.code, str(exc), match.version)
        seeds = list(match.fair_player_seeds)
        for seat in seats:
            seeds[seat] = seed
        match.fair_player_seeds = seeds
        Match.objects.filter(pk=match.pk).update(fair_player_seeds=seeds)
        before = match.version
        plugin = plugin_of(match)
        engine = load_engine(match)
        received = time.time() if received_wall is None else received_wall
        _chance_if_due(match, plugin, engine, _effective_us(match, received))
        _save(match, plugin, engine, before, force=True)  # everybody sees the seed
        return CommandResult(True, "ok", "", match.version)


def do_annul(match: Match, reason: str) -> None:
    """Annul a match (staff action, or an outage): no winner, no rating change."""
    with transaction.atomic():
        locked = _locked(match.pk)
        before = locked.version
        plugin = plugin_of(locked)
        engine = load_engine(locked)
        t_us = _effective_us(locked, time.time())
        if engine.result is None or engine.result.reason != "annulled":
            plugin.annul(engine, t_us)
            _append(locked, MatchEvent.Kind.ANNUL, t_us, payload={"reason": reason})
        locked.annul_reason = reason[:200]
        rated_at = locked.rating_seq
        locked.status = Match.Status.ANNULLED
        locked.winner = None
        locked.reason = "annulled"
        if locked.finished_at is None:  # an active match: _save sets it only for active ones
            locked.finished_at = timezone.now()
        _save(locked, plugin, engine, before, force=True)  # players see the annulment at once
        _record_seats(locked, None)
        match_annulled.send(Match, match=locked, rated_at=rated_at)  # ratings rebuilt


FORFEIT_REASON = "forfeit"


def do_forfeit(match_id: Any, seat: int, now_wall: float | None = None) -> bool:
    """``seat`` loses by forfeit (a tournament's no-show): the game's ``forfeit_action`` for
    that seat, through the same locked path as a command, and the reason "forfeit".
    False, with only the time that passed applied, when the match is over first (or
    the game refuses the resignation)."""
    with transaction.atomic():
        try:
            match = _locked(match_id)
        except (Match.DoesNotExist, ValueError, ValidationError):
            return False
        if match.status != Match.Status.ACTIVE or not 0 <= seat < match.seat_count:
            return False
        before = match.version
        plugin = plugin_of(match)
        engine = load_engine(match)
        t_us = _effective_us(match, time.time() if now_wall is None else now_wall)
        _advance_time(match, plugin, engine, t_us)
        outcome = None
        if engine.result is None:
            _seat, code = plugin.action_from_dict({"seat": seat, "type": plugin.forfeit_action})
            outcome = engine.apply(seat, code, t_us)
            if not isinstance(outcome, Illegal):
                _append(match, MatchEvent.Kind.ACTION, t_us, seat,
                        plugin.action_to_dict(seat, code))
        forfeited = outcome is not None and not isinstance(outcome, Illegal) \
            and engine.result is not None
        # One write and one broadcast, which already say why the match ended.
        _save(match, plugin, engine, before, reason=FORFEIT_REASON if forfeited else None)
        return forfeited and match.status != Match.Status.ACTIVE


def snapshot(match: Match, seats: list[int]) -> dict[str, Any]:
    """The view of one connection: a seat, every seat (one device), or a spectator."""
    engine = load_engine(match)  # a view never advances time: only the writer does
    views = broadcast.views_for(match, plugin_of(match), engine)
    return broadcast.connection_message(match.pk, match.version, match.started_wall, views,
                                        seats)


def _translate_reason(reason: str) -> str:

    return translate(reason)
