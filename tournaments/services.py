"""Tournament actions: ``access_*`` says who may do what, ``check_*`` reads input, ``do_*``
changes things (with the tournament's row locked, as the beat task does).

Organizers are the club's owner and admins. Players join (a club's members only, when
the tournament says so), leave before the start, or withdraw once it runs. Late entries
are taken by a Swiss until half of its rounds have started.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import registry
from games.models import Match, MatchEvent
from games.play.lobby import LobbyError, computer_user
from games.play.services import do_annul, do_command, do_forfeit
from games.play.store import plugin_of
from tournaments import formats as F

from . import arena_rounds, lifecycle, rounds, table_rounds
from .clubs import access_is_admin, access_is_member, pk_or_none, rating_of
from .errors import Forbidden, NotFound, Refused
from .models import Club, Entry, Round, Tournament, TournamentGame
from .records import started_rounds
from .setup import check_settings

Status = Tournament.Status
State = TournamentGame.State
T = TypeVar("T")


# ---------------------------------------------------------------------- access

def access_organizer(tournament: Tournament, user: AbstractBaseUser | None) -> bool:
    """The club's owner and admins run its tournaments."""
    return access_is_admin(tournament.club, user)


def tournament_by_id(tournament_id: Any) -> Tournament:
    pk = pk_or_none(tournament_id)
    found = (Tournament.objects.select_related("club").filter(pk=pk).first()
             if pk is not None else None)
    if found is None:
        raise NotFound(_("There is no such tournament."))
    return found


def _locked(tournament: Tournament, user: AbstractBaseUser | None,
            action: Callable[[Tournament], T], organizer: bool = False) -> T:
    """Run ``action`` on the tournament row read again under its lock."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().select_related("club").get(
            pk=tournament.pk)
        if organizer and not access_organizer(locked, user):
            raise Forbidden(_("Only the organizers of this tournament (the club's owner and "
                              "admins) can do that."))
        return action(locked)


# ---------------------------------------------------------------------- create

def do_create_tournament(user: AbstractBaseUser, club: Club, data: dict[str, Any],
                         now: datetime | None = None) -> Tournament:
    if not access_is_admin(club, user):
        raise Forbidden(_("Only the club's owner and admins can create its tournaments."))
    fields = check_settings(data, now)
    return Tournament.objects.create(club=club, created_by=user, **fields)


# ---------------------------------------------------------------------- players

def do_join(user: AbstractBaseUser, tournament: Tournament,
            now: datetime | None = None) -> Entry:
    now = now or timezone.now()

    def join(t: Tournament) -> Entry:
        late = 0
        if t.status == Status.REGISTRATION:
            if now > t.registration_deadline:
                raise Refused(_("Registration closed at %(time)s.")
                              % {"time": date_format(timezone.localtime(
                                  t.registration_deadline), "DATETIME_FORMAT")})
        elif t.status == Status.RUNNING and t.format == Tournament.Format.SWISS:
            late = started_rounds(t)
            if not F.late_entry_open(late, t.rounds):
                raise Refused(_("The tournament has started, and late entries closed once "
                                "half of its rounds had started."))
        elif t.status == Status.RUNNING and t.format == Tournament.Format.ARENA:
            end = arena_rounds.ends_at(t)
            if end is not None and now >= end:
                raise Refused(_("The arena's time is up."))
        elif t.status == Status.RUNNING:
            raise Refused(_("The tournament has already started."))
        else:
            raise Refused(_("The tournament is over."))
        if t.members_only and not access_is_member(t.club, user):
            raise Refused(_("Only members of %(club)s can join this tournament.")
                          % {"club": t.club.name})
        existing = t.entries.filter(user_id=user.pk).first()
        if existing is not None:
            if existing.withdrawn:
                raise Refused(_("You have withdrawn from this tournament."))
            raise Refused(_("You are already in this tournament."))
        if t.entries.count() >= t.max_players:
            raise Refused(_("The tournament is full (%(n)s players).") % {"n": t.max_players})
        entry = Entry.objects.create(tournament=t, user=user,
                                     rating=rating_of(user.pk, t.game),
                                     joined_at_round=late + 1)
        if t.status == Status.RUNNING:
            lifecycle.field_changed(t, now)  # the newcomer is paired in
        rounds.touch(t)
        return entry

    return _locked(tournament, user, join)


def do_add_computer(user: AbstractBaseUser, tournament: Tournament, level: Any) -> Entry:
    """An organizer enters a computer player of ``level`` (one of the game's levels, as
    the lobby offers them) before the start. Each level is one account with its own
    rating, so a level enters once; the club's membership rule is not asked of it."""

    def add(t: Tournament) -> Entry:
        if t.status != Status.REGISTRATION:
            raise Refused(_("Computer players are entered before the tournament starts."))
        try:  # no default level here: the organizer names one ("" names none)
            account = computer_user(registry.game(t.game), "" if level is None else level)
        except LobbyError as error:
            raise Refused(str(error)) from None
        if t.entries.filter(user_id=account.pk).exists():
            raise Refused(_("That computer player is already in this tournament."))
        if t.entries.count() >= t.max_players:
            raise Refused(_("The tournament is full (%(n)s players).") % {"n": t.max_players})
        entry = Entry.objects.create(tournament=t, user=account,
                                     rating=rating_of(account.pk, t.game))
        rounds.touch(t)
        return entry

    return _locked(tournament, user, add, organizer=True)


def do_leave(user: AbstractBaseUser, tournament: Tournament,
             now: datetime | None = None) -> None:
    """Before the start: off the list. Once it runs: a withdrawal."""
    now = now or timezone.now()

    def leave(t: Tournament) -> None:
        entry = t.entries.filter(user_id=user.pk).first()
        if entry is None or entry.withdrawn:
            raise Refused(_("You are not in this tournament."))
        _withdraw(t, entry, now)

    _locked(tournament, user, leave)


def do_withdraw(user: AbstractBaseUser, tournament: Tournament, username: Any,
                now: datetime | None = None) -> None:
    """An organizer withdraws a player: never paired again; a game being played is lost."""
    now = now or timezone.now()

    def withdraw(t: Tournament) -> None:
        if not isinstance(username, str) or "\x00" in username:
            raise Refused(_("'username' must be a player's name."))
        entry = (t.entries.select_related("user")
                 .filter(user__username__iexact=username.strip()).first())
        if entry is None:
            raise Refused(_("%(name)s is not in this tournament.") % {"name": username})
        if entry.withdrawn:
            raise Refused(_("%(name)s has already withdrawn.") % {"name": username})
        _withdraw(t, entry, now)

    _locked(tournament, user, withdraw, organizer=True)


def _withdraw(t: Tournament, entry: Entry, now: datetime) -> None:
    if t.status == Status.REGISTRATION:
        entry.delete()
        rounds.touch(t)
        return
    if t.status != Status.RUNNING:
        raise Refused(_("The tournament is over."))
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    playing = (t.games.being_played_by(entry.user_id)
               .select_related("match", "round").first())
    if playing is not None and playing.match is not None:
        seat = playing.seats().index(entry.user_id)
        plugin = plugin_of(playing.match)
        moved = (MatchEvent.objects.filter(match=playing.match, kind=MatchEvent.Kind.ACTION,
                                           seat=seat)
                 .exclude(payload__type__in=plugin.terminal_actions).exists())
        if moved:  # a game under way is resigned, a game not begun is forfeited
            do_command(playing.match.pk, entry.user, {"action": {
                "seat": seat, "type": plugin.forfeit_action}})
        else:
            if playing.table:
                table_rounds.forfeit_seat(playing, seat)
            do_forfeit(playing.match.pk, seat)
        playing.match.refresh_from_db()
        rounds.record(t, playing, playing.match)
        if playing.round.status == Round.Status.RUNNING:
            rounds.close_round_if_done(t, playing.round, now)
    if t.status == Status.RUNNING:
        lifecycle.field_changed(t, now)  # the opponent waits, and is paired again
    rounds.touch(t)


def do_pause_me(user: AbstractBaseUser, tournament: Tournament) -> None:
    """An arena's player takes a break: not paired until back (a game being played is
    played on)."""

    def pause(t: Tournament) -> None:
        entry = _arena_entry(t, user)
        if entry.paused:
            raise Refused(_("You are already taking a break."))
        entry.paused = True
        entry.save(update_fields=["paused"])
        rounds.touch(t)

    _locked(tournament, user, pause)


def do_resume_me(user: AbstractBaseUser, tournament: Tournament,
                 now: datetime | None = None) -> None:
    """Back from a break: paired at once when someone waits."""
    now = now or timezone.now()

    def resume(t: Tournament) -> None:
        entry = _arena_entry(t, user)
        if not entry.paused:
            raise Refused(_("You are not taking a break."))
        entry.paused = False
        entry.save(update_fields=["paused"])
        arena_rounds.pair(t, now)
        rounds.touch(t)

    _locked(tournament, user, resume)


def _arena_entry(t: Tournament, user: AbstractBaseUser) -> Entry:
    if t.format != Tournament.Format.ARENA:
        raise Refused(_("Only an arena's players take a break and come back."))
    if t.status != Status.RUNNING:
        raise Refused(_("The arena is not running."))
    entry = t.entries.filter(user_id=user.pk, withdrawn=False).first()
    if entry is None:
        raise Refused(_("You are not in this tournament."))
    return entry


# ---------------------------------------------------------------------- organizers

def do_start_now(user: AbstractBaseUser, tournament: Tournament,
                 now: datetime | None = None) -> None:
    now = now or timezone.now()

    def start(t: Tournament) -> None:
        if t.status != Status.REGISTRATION:
            raise Refused(_("The tournament has already started."))
        count = t.entries.filter(withdrawn=False).count()
        if count < max(2, t.min_players):
            raise Refused(_("The tournament needs at least %(min)s players; %(n)s have joined.")
                          % {"min": max(2, t.min_players), "n": count})
        lifecycle.start(t, now)

    _locked(tournament, user, start, organizer=True)


def do_cancel(user: AbstractBaseUser, tournament: Tournament,
              now: datetime | None = None) -> None:
    now = now or timezone.now()

    def cancel(t: Tournament) -> None:
        if t.status != Status.REGISTRATION:
            raise Refused(_("Only a tournament that has not started can be cancelled."))
        t.status = Status.CANCELLED
        t.finished_at = now
        t.notice = _("Cancelled by the organizers.")
        t.save()
        rounds.touch(t)

    _locked(tournament, user, cancel, organizer=True)


def do_pause(user: AbstractBaseUser, tournament: Tournament) -> None:
    def pause(t: Tournament) -> None:
        if t.status != Status.RUNNING:
            raise Refused(_("Only a running tournament can be paused."))
        if t.paused:
            raise Refused(_("The tournament is already paused."))
        t.paused = True
        t.save(update_fields=["paused"])
        rounds.touch(t)

    _locked(tournament, user, pause, organizer=True)


def do_resume(user: AbstractBaseUser, tournament: Tournament,
              now: datetime | None = None) -> None:
    now = now or timezone.now()

    def resume(t: Tournament) -> None:
        if t.status != Status.RUNNING or not t.paused:
            raise Refused(_("The tournament is not paused."))
        t.paused = False
        t.save(update_fields=["paused"])
        # Nobody was forfeited while paused: whoever is still to make a first move has a
        # whole no-show period from now.
        t.games.filter(state=State.PLAYING).update(due0_at=None, due1_at=None)
        for row in t.games.filter(state=State.PLAYING).exclude(table=[]):
            for seat in row.table:
                seat["due_at"] = None
            row.save(update_fields=["table"])
        rounds.touch(t)
        for round_ in t.round_set.filter(status=Round.Status.PAIRED, starts_at__lte=now):
            rounds.start_round(t, round_, now)

    _locked(tournament, user, resume, organizer=True)


def do_repair(user: AbstractBaseUser, tournament: Tournament,
              now: datetime | None = None) -> Round:
    """Pair the round that has not started again."""
    now = now or timezone.now()

    def repair(t: Tournament) -> Round:
        if t.status != Status.RUNNING:
            raise Refused(_("Only a running tournament's next round can be re-paired."))
        waiting = t.round_set.filter(status=Round.Status.PAIRED).first()
        if waiting is None:
            raise Refused(_("No round is waiting to start: only a round that has not "
                            "started can be re-paired."))
        rounds.repair(t, waiting, now)
        return waiting

    return _locked(tournament, user, repair, organizer=True)


def do_annul_game(user: AbstractBaseUser, tournament: Tournament, match_id: Any,
                  reason: Any = None, now: datetime | None = None) -> None:
    """Annul a tournament match (no result, ratings rebuilt). In the round being played
    it is played again; in a round that is over it counts as a double forfeit."""
    now = now or timezone.now()
    if reason is not None and (not isinstance(reason, str) or "\x00" in reason):
        raise Refused(_("'reason' must be text."))
    text = (reason or "").strip()[:200] or _("Annulled by the tournament's organizers.")

    match_uuid = _uuid_or_none(match_id)
    if match_uuid is None:
        raise Refused(_("'match' must be the id of a match of this tournament."))

    def annul(t: Tournament) -> None:
        row = (t.games.exclude(state=State.REPLACED).select_related("match", "round")
               .filter(match_id=match_uuid).first())
        if row is None or row.match is None:
            raise Refused(_("That match is not a game of this tournament."))
        if row.decision == TournamentGame.Decision.ANNULLED:
            raise Refused(_("That match is already annulled."))
        finished_round = row.round.status == Round.Status.DONE
        if finished_round and t.format == Tournament.Format.KNOCKOUT:
            raise Refused(_("In a knockout only a match of the round being played can be "
                            "annulled: later rounds were paired from its result."))
        if row.match.status != Match.Status.ANNULLED:
            do_annul(row.match, text)
        if finished_round:
            rounds.annul_result(row)
        else:
            rounds.replay(t, row)
        rounds.touch(t)

    _locked(tournament, user, annul, organizer=True)


def _uuid_or_none(value: Any) -> Any:

    try:
        return uuid.UUID(str(value))
    except (ValueError, TypeError, AttributeError):
        return None
