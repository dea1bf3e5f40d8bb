"""A running arena: pair whoever waits, at once, until the end time; then finish.

An arena is one ``Round`` (number 1) for its whole length: each game is a
``TournamentGame`` of it, boards numbered in the order the games were paired. A player
waits when entered, not withdrawn, not paused and not in a game being played; the
waiting players are paired by ``formats.arena.pair_waiting`` on every tick and right
after an arena match ends (``receivers``); two last opponents who alone wait meet again
only when no other game is being played. A no-show is put on a break. No pairing
after the end time; games still being played then count when they end, and the arena
finishes after the last one.

Called with the tournament row locked, like ``rounds``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Max

from tournaments.formats import DRAW, LOSS, WIN
from tournaments.formats import arena as A

from . import rounds
from .models import Round, Tournament, TournamentGame

Decision = TournamentGame.Decision
State = TournamentGame.State
OUTCOME = {2: WIN, 1: DRAW, 0: LOSS}


def ends_at(t: Tournament) -> datetime | None:
    if t.started_at is None:
        return None
    return t.started_at + timedelta(minutes=t.duration_m)


def the_round(t: Tournament, now: datetime) -> Round:
    round_, _created = Round.objects.get_or_create(
        tournament=t, number=1,
        defaults={"status": Round.Status.RUNNING, "starts_at": now, "started_at": now})
    return round_


def counted_rows(t: Tournament) -> list[TournamentGame]:
    """The arena's games that have a result, in the order they were paired."""
    return list(t.games.filter(state=State.DONE).exclude(decision=Decision.ANNULLED)
                .order_by("board", "attempt"))


def outcomes(t: Tournament, rows: list[TournamentGame] | None = None
             ) -> dict[int, list[float]]:
    """Every entrant's results in the order played (an annulled game counts for nobody)."""
    found: dict[int, list[float]] = {
        pid: [] for pid in t.entries.values_list("user_id", flat=True)}
    for row in rows if rows is not None else counted_rows(t):
        if row.seat1_id is None:
            continue
        found.setdefault(row.seat0_id, []).append(OUTCOME[row.halves0 or 0])
        found.setdefault(row.seat1_id, []).append(OUTCOME[row.halves1 or 0])
    return found


def leaderboard(t: Tournament) -> list[A.ArenaRow]:
    ratings = dict(t.entries.values_list("user_id", "rating"))
    return A.leaderboard(outcomes(t), ratings)


def busy_players(t: Tournament) -> set[int]:
    return {pid for row in t.games.filter(state__in=[State.SCHEDULED, State.PLAYING])
            for pid in row.seats()}


def waiting(t: Tournament, busy: set[int]) -> list[A.Waiting]:
    """The players to pair now (entered, not on a break, not ``busy``), with their scores,
    last opponents, and (as the order of waiting) the board of their last game."""
    ready = [pid for pid in t.entries.filter(withdrawn=False, paused=False)
             .values_list("user_id", flat=True) if pid not in busy]
    if len(ready) < 2:
        return []
    scores = {pid: A.score_of(results) for pid, results in outcomes(t).items()}
    last: dict[int, tuple[int, int | None]] = {}
    for row in t.games.exclude(state=State.REPLACED).order_by("board"):
        if row.seat1_id is not None:
            last[row.seat0_id] = (row.board, row.seat1_id)
            last[row.seat1_id] = (row.board, row.seat0_id)
    return [A.Waiting(pid, scores.get(pid, 0), last.get(pid, (0, None))[1],
                      float(last.get(pid, (0, None))[0])) for pid in ready]


def pair(t: Tournament, now: datetime) -> None:
    """Pair the waiting players and create their matches (none while the organizer has
    paused the arena: the tick pairs them once it is resumed)."""
    end = ends_at(t)
    if t.paused or end is None or now >= end:
        return
    busy = busy_players(t)
    ready = waiting(t, busy)
    # Somebody still playing (not on a break) waits once the game ends.
    coming = len(ready) == 2 and t.entries.filter(
        user_id__in=busy, withdrawn=False, paused=False).exists()
    pairs, _left = A.pair_waiting(ready, others_coming=coming)
    if not pairs:
        return
    round_ = the_round(t, now)
    board = (t.games.aggregate(top=Max("board"))["top"] or 0)
    for offset, (seat0, seat1) in enumerate(pairs, start=1):
        row = TournamentGame.objects.create(tournament=t, round=round_, board=board + offset,
                                            seat0_id=seat0, seat1_id=seat1)
        rounds.create_match(t, row)
    rounds.touch(t)


def sit_out(t: Tournament, players: list[int]) -> None:
    """Players who did not show up for a game take a break (they come back with
    ``resume-me``), so that whoever waits is not paired with an empty chair."""
    t.entries.filter(user_id__in=players).update(paused=True)


def advance(t: Tournament, now: datetime) -> None:
    """What a tick does for a running arena after the results are recorded: pair who
    waits, or after the end time finish once no game is being played."""
    if t.status != Tournament.Status.RUNNING:
        return
    end = ends_at(t)
    if end is not None and now >= end:
        if not t.games.filter(state__in=[State.SCHEDULED, State.PLAYING]).exists():
            Round.objects.filter(tournament=t, status=Round.Status.RUNNING).update(
                status=Round.Status.DONE, finished_at=now)
            rounds.finish(t, now, "")
        return
    pair(t, now)
