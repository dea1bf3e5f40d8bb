"""The server carries every tournament through its rounds, with nobody watching.

``do_tick`` runs every second (Celery beat, ``tournaments.tasks.tick``): it starts the
tournaments whose start time has come, starts each round once the time between rounds
has passed, records the results of the matches that ended (the next round is paired the
moment the last one of a round ends; an arena pairs whoever waits), and forfeits a
player who has not made a first move within the no-show period from first having one
to make.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Match, MatchEvent
from games.play.services import do_forfeit
from games.play.store import load_engine, plugin_of

from . import arena_rounds, rounds, table_rounds
from .models import Round, Tournament, TournamentGame

log = logging.getLogger(__name__)

State = TournamentGame.State


def start(tournament: Tournament, now: datetime) -> None:
    """Registration is over (its time has come, or an organizer starts it now): round 1
    is paired, or an arena pairs its first games at once."""
    rounds.start(tournament, now)
    if tournament.format == Tournament.Format.ARENA:
        arena_rounds.advance(tournament, now)


def field_changed(tournament: Tournament, now: datetime) -> None:
    """A running tournament's field changed (a late entry, a withdrawal): an arena pairs
    whoever waits, another format pairs the round waiting to start again."""
    if tournament.format == Tournament.Format.ARENA:
        arena_rounds.pair(tournament, now)
    else:
        rounds.refresh_pairing(tournament, now)


def do_tick(now: datetime | None = None) -> int:
    """One pass over every tournament that may have something to do; returns how many
    were looked at."""
    now = now or timezone.now()
    due = list(Tournament.objects.filter(status=Tournament.Status.REGISTRATION,
                                         starts_at__lte=now).values_list("pk", flat=True))
    running = list(Tournament.objects.filter(status=Tournament.Status.RUNNING)
                   .values_list("pk", flat=True))
    for tournament_id in due + running:
        try:
            advance(tournament_id, now)
        except Exception:  # one broken tournament must not stop the others
            log.exception("tournament %s could not advance", tournament_id)
    return len(due) + len(running)


def advance(tournament_id: Any, now: datetime | None = None) -> None:
    """Everything that is due for one tournament, under its row's lock."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            return
        if tournament.status == Tournament.Status.REGISTRATION:
            if tournament.starts_at <= now:
                start(tournament, now)
            return
        if tournament.status != Tournament.Status.RUNNING:
            return
        record_finished(tournament, now)
        if tournament.status != Tournament.Status.RUNNING or tournament.paused:
            return
        forfeit_no_shows(tournament, now)
        record_finished(tournament, now)
        if tournament.format == Tournament.Format.ARENA:
            arena_rounds.advance(tournament, now)
            return
        for round_ in tournament.round_set.filter(status=Round.Status.PAIRED,
                                                  starts_at__lte=now):
            rounds.start_round(tournament, round_, now)


def record_finished(tournament: Tournament, now: datetime) -> None:
    """The matches of the running round that have ended: their results, then the round."""
    ended = list(tournament.games.filter(state=State.PLAYING)
                 .exclude(match__status=Match.Status.ACTIVE)
                 .select_related("match", "round"))
    for row in ended:
        if row.match is None:
            continue
        rounds.record(tournament, row, row.match)
    if ended:
        rounds.touch(tournament)
    for round_ in tournament.round_set.filter(status=Round.Status.RUNNING):
        if tournament.status == Tournament.Status.RUNNING:
            rounds.close_round_if_done(tournament, round_, now)


def forfeit_no_shows(tournament: Tournament, now: datetime) -> None:
    waiting = list(tournament.games.filter(state=State.PLAYING, match__status="active")
                   .exclude(moved0=True, moved1=True).select_related("match", "round"))
    for row in waiting:
        _check_no_show(tournament, row, now)


def _moved_seats(match: Match) -> set[int]:
    """The seats that have made a move of the game (not a resignation)."""
    not_a_move = plugin_of(match).terminal_actions
    return {seat for seat, payload in MatchEvent.objects.filter(
        match=match, kind=MatchEvent.Kind.ACTION).values_list("seat", "payload")
        if not (isinstance(payload, dict) and payload.get("type") in not_a_move)}


def _check_no_show(tournament: Tournament, row: TournamentGame, now: datetime) -> None:
    match = row.match
    if match is None:
        return
    if row.table:
        _check_table_no_show(tournament, row, match, now)
        return
    moved = _moved_seats(match)
    changed = []
    for seat in (0, 1):
        if seat in moved and not getattr(row, f"moved{seat}"):
            setattr(row, f"moved{seat}", True)
            changed.append(f"moved{seat}")
        elif (seat not in moved and getattr(row, f"due{seat}_at") is None
              and _is_due(match, seat)):
            # A player's period runs from when they first have something to do, so a
            # second player is not caught by the first one's slowness.
            setattr(row, f"due{seat}_at", now)
            changed.append(f"due{seat}_at")
    if changed:
        row.save(update_fields=changed)
    period = timedelta(seconds=tournament.no_show_s)
    absent = [seat for seat in (0, 1) if seat not in moved
              and (due := getattr(row, f"due{seat}_at")) is not None and now - due >= period]
    if len(absent) == 2:
        rounds.double_forfeit(tournament, row,
                              _("Neither player made a first move in time."))
    elif len(absent) == 1:
        do_forfeit(match.pk, absent[0], now_wall=now.timestamp())
        match.refresh_from_db()
        rounds.record(tournament, row, match)
    if absent and tournament.format == Tournament.Format.ARENA:
        # Not paired again into games nobody plays: back with resume-me.
        arena_rounds.sit_out(tournament, [row.seats()[seat] for seat in absent])


def _check_table_no_show(tournament: Tournament, row: TournamentGame, match: Match,
                         now: datetime) -> None:
    """A table's seats, as two players' are: each forfeits when it has not moved within
    the no-show period from first having a move to make; the game goes on with the others
    where it can. Every seat absent: the table is annulled."""
    moved = _moved_seats(match)
    seats = row.table
    changed = False
    for index, seat in enumerate(seats):
        if seat.get("forfeit"):
            continue
        if index in moved and not seat.get("moved"):
            seat["moved"], changed = True, True
        elif index not in moved and seat.get("due_at") is None and _is_due(match, index):
            seat["due_at"], changed = now.isoformat(), True
    if all(seat.get("moved") or seat.get("forfeit") for seat in seats):
        row.moved0 = row.moved1 = True  # nothing left to watch
    if changed or row.moved0:
        row.save(update_fields=["table", "moved0", "moved1"])
    period = timedelta(seconds=tournament.no_show_s)
    absent = [index for index, seat in enumerate(seats)
              if not seat.get("moved") and not seat.get("forfeit")
              and seat.get("due_at") is not None
              and now - datetime.fromisoformat(seat["due_at"]) >= period]
    if not absent:
        return
    if all(index in absent or seat.get("forfeit") for index, seat in enumerate(seats)):
        rounds.double_forfeit(tournament, row, _("Nobody at the table made a first move in time."))
        return
    for index in absent:
        table_rounds.forfeit_seat(row, index)
        do_forfeit(match.pk, index, now_wall=now.timestamp())
    match.refresh_from_db()
    rounds.record(tournament, row, match)


def _is_due(match: Match, seat: int) -> bool:
    """The seat has something to do now (a move, a bid, a Continue): the game's view
    lists its legal actions."""
    plugin = plugin_of(match)
    view = plugin.view(load_engine(match), seat)
    return any(action.get("type") not in plugin.terminal_actions
               for action in plugin.legal_actions(view))
