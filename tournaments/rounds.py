"""A running tournament's rounds: pair, start, record results, finish.

Called with the tournament row locked (``select_for_update``), by the beat task
(``lifecycle.do_tick``) and by the organizers' actions (``services``). Each step reads
what is stored and is safe to repeat: a round is started once, a result recorded once.

Formats:
* Swiss: each round paired by py4swiss once the round before has ended
  (``formats.swiss_pair``: no repeats, one bye at most, withdrawn players left out).
* Round robin: the Berger schedule is fixed at the start; a game against a player who
  has withdrawn is a forfeit win.
* Tables: each round seated by ``formats.tables`` (round 1 drawn with the tournament's
  seed, later rounds by standing, repeats cut); withdrawn players are not seated; a
  table's result comes from its match's ranks and scores (``table_rounds``).
* Arena: no rounds to pair; whoever waits is paired at once (``arena_rounds``, called
  by the lifecycle after this module's start), all games in one round.
* Knockout: the bracket is seeded by the ratings at the start; each round's matches
  are its next round; a withdrawn player's opponent goes through by forfeit, and a game
  that ends level (on places and on points) is played again, seats swapped, up to the
  tournament's ``deciding_games`` times; still level after those, the higher seed goes
  through (decision ``seed``).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from games.models import Match, MatchEvent, MatchSeat
from games.play.services import do_annul, do_create_match
from games.play.store import plugin_of
from tournaments import formats as F

from . import notify, table_rounds
from .clubs import rating_of
from .models import Entry, Round, Tournament, TournamentGame
from .records import current_rows, library_games, player_entries, schedule_pairings

log = logging.getLogger(__name__)

Decision = TournamentGame.Decision
State = TournamentGame.State
Format = Tournament.Format


@dataclass(frozen=True)
class Planned:
    """A pairing about to be stored: ``walkover`` is the seat that wins unplayed;
    ``players``: a table's seats (a table tournament)."""

    seat0: int
    seat1: int | None
    third_place: bool = False
    walkover: int | None = None
    players: tuple[int, ...] = ()


class CannotPair(Exception):
    """The next round cannot be paired (Swiss: no pairing keeps the rules)."""


def touch(tournament: Tournament) -> None:
    tournament.revision += 1
    Tournament.objects.filter(pk=tournament.pk).update(revision=tournament.revision)


# ------------------------------------------------------------------ the start

def start(tournament: Tournament, now: datetime) -> None:
    """Registration is over: cancel for want of players, or fix the field and play
    round 1 at once."""
    entries = list(tournament.entries.select_related("user").filter(withdrawn=False))
    if len(entries) < max(2, tournament.min_players):
        tournament.status = Tournament.Status.CANCELLED
        tournament.notice = _("Cancelled: %(n)s players registered, %(min)s were needed.") % {
            "n": len(entries), "min": tournament.min_players}
        tournament.finished_at = now
        tournament.save()
        touch(tournament)
        return
    for entry in entries:  # seeds and pairing numbers follow the ratings at the start
        entry.rating = rating_of(entry.user_id, tournament.game)
        entry.joined_at_round = 1
    Entry.objects.bulk_update(entries, ["rating", "joined_at_round"])
    players = player_entries(tournament, entries)
    if tournament.format == Format.ROUND_ROBIN:
        schedule = F.round_robin_schedule(players, double=tournament.double)
        tournament.schedule = [[[p.seat0, p.seat1] for p in round_] for round_ in schedule]
        tournament.rounds = len(schedule)
    elif tournament.format == Format.KNOCKOUT:
        tournament.rounds = F.knockout_bracket(players, tournament.third_place).round_count
    elif tournament.format == Format.TABLES and not tournament.seed:
        tournament.seed = secrets.randbits(62) or 1  # draws round 1
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save()
    if tournament.format == Format.ARENA:
        touch(tournament)  # its games are paired by arena_rounds, player by player
        return
    pair_next(tournament, 1, now, gap=False)


# ------------------------------------------------------------------ pairing

def knockout_state(tournament: Tournament, rows: list[TournamentGame] | None = None
                   ) -> F.Bracket:
    """The bracket with the results of every finished round (seeds: ratings at the start)."""
    entries = [entry for entry in player_entries(tournament) if entry.joined_at_round == 1]
    field = [F.PlayerEntry(e.id, e.rating, e.name) for e in entries]  # withdrawn stay seeded
    bracket = F.knockout_bracket(field, tournament.third_place)
    rows = rows if rows is not None else current_rows(tournament)
    games = library_games(tournament, done_rounds_only=True, rows=rows)
    while bracket.current_round is not None:
        number = bracket.current_round
        of_round = [g for g in games if g.round == number]
        if not of_round:
            break
        try:
            bracket = F.knockout_next_round(bracket, of_round)
        except F.TournamentError:
            break  # the round is still being played
    return bracket


def plan(tournament: Tournament, number: int) -> list[Planned]:
    """The pairings of round ``number`` (the rounds before it all finished)."""
    withdrawn = set(tournament.entries.filter(withdrawn=True).values_list("user_id", flat=True))
    if tournament.format == Format.TABLES:
        return [Planned(table[0], table[1] if len(table) > 1 else None, players=table)
                for table in table_rounds.plan_tables(tournament, number)]
    if tournament.format == Format.SWISS:
        players = player_entries(tournament)
        history = library_games(tournament, before_round=number)
        try:
            pairings = F.swiss_pair(players, history, number, total_rounds=tournament.rounds)
        except F.TournamentError as exc:
            raise CannotPair(str(exc)) from exc
        return [Planned(p.seat0, p.seat1) for p in pairings]
    if tournament.format == Format.ROUND_ROBIN:
        return [_walkover(a, b, withdrawn, seeds=None)
                for a, b in schedule_pairings(tournament, number)
                if not (a in withdrawn and (b is None or b in withdrawn))]
    bracket = knockout_state(tournament)
    seeds = list(bracket.seeds)
    planned = []
    third = bracket.third_place
    for match in bracket.matches(number):
        if match.seat0 is None or (match.seat1 is None and not match.bye):
            continue  # not known yet
        is_third = third is not None and match is third
        if match.bye:
            if number == 1 or is_third:
                planned.append(Planned(match.seat0, None, is_third))
            continue
        assert match.seat1 is not None
        found = _walkover(match.seat0, match.seat1, withdrawn, seeds)
        planned.append(Planned(found.seat0, found.seat1, is_third, found.walkover))
    return planned


def _walkover(a: int, b: int | None, withdrawn: set[int], seeds: list[int] | None) -> Planned:
    """A pairing with a withdrawn player is won unplayed by the other (both withdrawn,
    in a knockout: the higher seed)."""
    if b is None:
        return Planned(a, None)
    if a in withdrawn and b in withdrawn:
        higher = 0 if seeds is None or seeds.index(a) < seeds.index(b) else 1
        return Planned(a, b, walkover=higher)
    if b in withdrawn:
        return Planned(a, b, walkover=0)
    if a in withdrawn:
        return Planned(a, b, walkover=1)
    return Planned(a, b)


def pair_next(tournament: Tournament, number: int, now: datetime, gap: bool = True) -> None:
    """Pair round ``number``; it starts after the time between rounds (round 1 at once).
    A round that cannot be paired ends the tournament with the reason."""
    try:
        planned = plan(tournament, number)
    except CannotPair as exc:
        log.warning("tournament %s: %s", tournament.pk, exc)
        finish(tournament, now, _("Round %(n)s could not be paired without repeats, so the "
                                  "tournament ended after round %(m)s.")
               % {"n": number, "m": number - 1})
        return
    if not planned:
        finish(tournament, now, "")
        return
    starts_at = now + timedelta(seconds=tournament.round_gap_s if gap else 0)
    round_, _created = Round.objects.update_or_create(
        tournament=tournament, number=number,
        defaults={"status": Round.Status.PAIRED, "starts_at": starts_at})
    store_pairings(tournament, round_, planned)
    touch(tournament)
    if starts_at <= now and not tournament.paused:
        start_round(tournament, round_, now)


def store_pairings(tournament: Tournament, round_: Round, planned: list[Planned]) -> None:
    round_.games.all().delete()
    rows = []
    for board, item in enumerate(planned, start=1):
        row = TournamentGame(tournament=tournament, round=round_, board=board,
                             seat0_id=item.seat0, seat1_id=item.seat1,
                             third_place=item.third_place)
        if item.players:
            row.table = table_rounds.new_table(item.players)
            if item.seat1 is None:
                row.state, row.decision = State.DONE, Decision.BYE
        elif item.seat1 is None:
            row.state, row.decision, row.halves0, row.halves1 = State.DONE, Decision.BYE, 2, 0
        elif item.walkover is not None:
            row.state, row.decision = State.DONE, Decision.FORFEIT
            row.halves0, row.halves1 = (2, 0) if item.walkover == 0 else (0, 2)
        rows.append(row)
    TournamentGame.objects.bulk_create(rows)


def repair(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Pair a round that has not started again (the field or the results changed)."""
    assert round_.status == Round.Status.PAIRED
    try:
        planned = plan(tournament, round_.number)
    except CannotPair as exc:
        round_.games.all().delete()
        round_.delete()
        finish(tournament, now, _("Round %(n)s could not be paired without repeats, so the "
                                  "tournament ended after round %(m)s.")
               % {"n": round_.number, "m": round_.number - 1})
        log.warning("tournament %s: %s", tournament.pk, exc)
        return
    store_pairings(tournament, round_, planned)
    touch(tournament)


# ------------------------------------------------------------------ playing

def start_round(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Create the round's matches and tell every player at once."""
    if round_.status != Round.Status.PAIRED:
        return
    round_.status = Round.Status.RUNNING
    round_.started_at = now
    round_.save(update_fields=["status", "started_at"])
    for row in round_.games.filter(state=State.SCHEDULED).order_by("board"):
        create_match(tournament, row)
    for row in round_.games.filter(decision=Decision.BYE).select_related("tournament", "round"):
        notify.game_ready(row)
    touch(tournament)
    close_round_if_done(tournament, round_, now)


def create_match(tournament: Tournament, row: TournamentGame) -> None:
    seats = row.seats()
    users = get_user_model().objects.in_bulk(seats)
    match = do_create_match(*(users[pid] for pid in seats), game=tournament.game,
                            rated=tournament.rated, rules=tournament.rules or None)
    row.match = match
    row.state = State.PLAYING
    row.moved0 = row.moved1 = False
    if row.table:
        row.table = table_rounds.new_table(seats)
    row.save(update_fields=["match", "state", "moved0", "moved1", "table"])
    row.tournament = tournament
    notify.game_ready(row)


def replay(tournament: Tournament, row: TournamentGame) -> TournamentGame:
    """The same pairing played again (a level knockout game, an annulled match). An
    arena plays nothing again: the game counts for nobody and both players wait."""
    if tournament.format == Format.ARENA:
        annul_result(row)
        return row
    row.state = State.REPLACED
    row.save(update_fields=["state"])
    if row.table:  # the seats turned by one: the first player moves last now
        players = table_rounds.turned(row)
        again = TournamentGame.objects.create(
            tournament=tournament, round=row.round, board=row.board, seat0_id=players[0],
            seat1_id=players[1], attempt=row.attempt + 1,
            table=table_rounds.new_table(players))
        create_match(tournament, again)
        return again
    again = TournamentGame.objects.create(
        tournament=tournament, round=row.round, board=row.board, third_place=row.third_place,
        # Seats swapped: the player who moved second moves first now.
        seat0_id=row.seat1_id, seat1_id=row.seat0_id, attempt=row.attempt + 1)
    create_match(tournament, again)
    return again


def record(tournament: Tournament, row: TournamentGame, match: Match) -> None:
    """A match of the round has ended: its result, or a replay when there is none."""
    if match.status == Match.Status.ACTIVE or row.state != State.PLAYING:
        return
    if match.status == Match.Status.ANNULLED:
        replay(tournament, row)  # staff or an outage: no result, so it is played again
        return
    if match.status == Match.Status.ABORTED:
        # Aborted before the first decision: whoever aborted it forfeits.
        abort = plugin_of(match).abort_action
        seat = None if abort is None else (
            MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.ACTION,
                                      payload__type=abort)
            .values_list("seat", flat=True).first())
        if seat is None:
            replay(tournament, row)
            return
        if row.table:
            table_rounds.forfeit_seat(row, seat)
            table_rounds.record_result(row, match)
        else:
            set_result(row, Decision.FORFEIT, (0, 2) if seat == 0 else (2, 0))
        return
    if row.table:
        table_rounds.record_result(row, match)
        return
    ranks = list(MatchSeat.objects.filter(match=match).order_by("index")
                 .values_list("rank", flat=True))
    points = [max(0, p) for p in game_points(match)]
    if len(ranks) != 2 or None in ranks or ranks[0] == ranks[1]:
        halves = (1, 1)
    else:
        halves = (2, 0) if ranks[0] < ranks[1] else (0, 2)
    forfeit = match.reason == "forfeit" and halves != (1, 1)
    if (tournament.format == Format.KNOCKOUT and halves == (1, 1)
            and points[0] == points[1]):
        if row.attempt <= tournament.deciding_games:
            set_result(row, Decision.PLAYED, halves, points, state=State.DONE)
            replay(tournament, row)
            return
        higher = _higher_seed_seat(tournament, row)
        set_result(row, Decision.SEED, (2, 0) if higher == 0 else (0, 2), points)
        return
    set_result(row, Decision.FORFEIT if forfeit else Decision.PLAYED, halves, points)


def set_result(row: TournamentGame, decision: str, halves: tuple[int, int],
         points: list[int] | None = None, state: str = State.DONE) -> None:
    row.state, row.decision = state, decision
    row.halves0, row.halves1 = halves
    row.points0, row.points1 = points or (0, 0)
    row.save(update_fields=["state", "decision", "halves0", "halves1", "points0", "points1"])


def game_points(match: Match) -> list[int]:
    """The points each seat won in the game itself: its score less the game's baseline
    (a balance that counts from the table's starting points), as the history pages do."""
    scores = [int(s or 0) for s in (match.scores or [0, 0])][:2]
    while len(scores) < 2:
        scores.append(0)
    baseline = plugin_of(match).score_baseline(match.rules or {})
    return [s - baseline for s in scores]


def _higher_seed_seat(tournament: Tournament, row: TournamentGame) -> int:
    seeds = list(knockout_state(tournament).seeds)
    a, b = row.seat0_id, row.seat1_id
    if a in seeds and b in seeds:
        return 0 if seeds.index(a) < seeds.index(b) else 1
    return 0


def annul_result(row: TournamentGame) -> None:
    """No result for anybody at this game (a table's seats too)."""
    if row.table:
        table_rounds.annul(row)
    else:
        set_result(row, Decision.ANNULLED, (0, 0))


def double_forfeit(tournament: Tournament, row: TournamentGame, reason: str) -> None:
    """Neither player showed up: no result for either (a knockout sends the higher seed
    on, as a forfeit win); the match is annulled (no rating change). A table: nobody
    at it showed up."""
    if tournament.format == Format.KNOCKOUT and not row.table:
        higher = _higher_seed_seat(tournament, row)
        set_result(row, Decision.FORFEIT, (2, 0) if higher == 0 else (0, 2))
    else:
        annul_result(row)
    if row.match is not None and row.match.status == Match.Status.ACTIVE:
        do_annul(row.match, reason)


def close_round_if_done(tournament: Tournament, round_: Round, now: datetime) -> bool:
    """The last game of the round has ended: pair the next at once, or finish."""
    if round_.status != Round.Status.RUNNING or tournament.format == Format.ARENA:
        return False  # an arena's one round ends with its time (arena_rounds)
    if round_.games.filter(state__in=[State.SCHEDULED, State.PLAYING]).exists():
        return False
    round_.status = Round.Status.DONE
    round_.finished_at = now
    round_.save(update_fields=["status", "finished_at"])
    touch(tournament)
    champion = (tournament.format == Format.KNOCKOUT
                and knockout_state(tournament).champion is not None)
    if champion or round_.number >= tournament.rounds:
        finish(tournament, now, "")
    else:
        pair_next(tournament, round_.number + 1, now)
    return True


def finish(tournament: Tournament, now: datetime, notice: str) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.paused = False
    if notice:
        tournament.notice = notice[:300]
    tournament.save()
    touch(tournament)


def refresh_pairing(tournament: Tournament, now: datetime) -> None:
    """After a withdrawal or a late entry: the round waiting to start is paired again."""
    waiting = tournament.round_set.filter(status=Round.Status.PAIRED).first()
    if waiting is not None:
        repair(tournament, waiting, now)
