"""Table tournaments on the server: the stored tables as the pure library sees them
(``formats/tables.py``), seating a round, and a table's result from its match.

A table is a ``TournamentGame`` whose ``table`` lists its seats (see the model). Its
match seats them in that order; the game's ranks give the places, its scores less the
game's baseline the game points. A seat forfeited (a no-show, a withdrawal before a
first move) scores no table points; the others take the places from the top (a game
that asks one seat at a time forfeits absent seats one by one, so the last left wins,
as a forfeit win in a game of two). A table
is never stopped by the tournament when somebody leaves it: the game decides what a
resignation does (the dice game plays on with those left, Fives ends with the
resigning seat last). An annulled table (by the organizers in a finished round, or
nobody at it moved) is a forfeit for every seat; annulled in the round being played,
it is played again with the seats turned by one.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games import registry
from games.models import Match, MatchSeat
from games.play.store import plugin_of
from tournaments import formats as F
from tournaments.formats import tables as T

from .models import Round, Tournament, TournamentGame
from .records import current_rows, player_entries

Decision = TournamentGame.Decision
State = TournamentGame.State


def points_of(t: Tournament) -> list[Fraction]:
    """The table points of a full table's places, best first (exact)."""
    if not t.table_points:
        return T.default_table_points(t.seats)
    return [Fraction(str(value)) for value in t.table_points]


def bye_of(t: Tournament) -> Fraction | None:
    return None if t.bye_points is None else Fraction(str(t.bye_points))


def new_table(players: tuple[int, ...] | list[int]) -> list[dict[str, Any]]:
    return [{"user": pid, "place": None, "points": 0, "forfeit": False, "moved": False,
             "due_at": None} for pid in players]


def turned(row: TournamentGame) -> list[int]:
    """The table's players with the seats turned by one (a table played again)."""
    players = row.seats()
    return players[1:] + players[:1]


def table_game(row: TournamentGame, round_no: int) -> T.TableGame:
    players = tuple(row.seats())
    if len(players) == 1 or row.state != State.DONE:
        return T.TableGame(round_no, players)
    if row.decision == Decision.ANNULLED:
        return T.TableGame(round_no, players, T.TableResult.annulled(len(players)))
    seats = row.table
    return T.TableGame(round_no, players, T.TableResult(
        tuple(int(seat.get("place") or len(seats)) for seat in seats),
        tuple(max(0, int(seat.get("points") or 0)) for seat in seats),
        tuple(bool(seat.get("forfeit")) for seat in seats)))


def table_games(t: Tournament, rows: list[TournamentGame] | None = None, *,
                done_rounds_only: bool = False, before_round: int | None = None
                ) -> list[T.TableGame]:
    found = []
    for row in rows if rows is not None else current_rows(t):
        number = row.round.number
        if done_rounds_only and row.round.status != Round.Status.DONE:
            continue
        if before_round is not None and number >= before_round:
            continue
        found.append(table_game(row, number))
    return found


def allowed_sizes(t: Tournament) -> tuple[int, ...]:
    return T.table_sizes_allowed(registry.game(t.game).seat_counts, t.seats)


def plan_tables(t: Tournament, number: int) -> list[tuple[int, ...]]:
    """Round ``number``'s tables, the top table first, then its byes (one player each)."""
    players = player_entries(t)
    history = table_games(t, before_round=number)
    entrants = T.table_entrants(players, history, points_of(t), bye_of(t))
    seating = T.seat_round(entrants, [g.players for g in history if not g.is_bye],
                           allowed_sizes(t), round_no=number, seed=t.seed)
    return [*seating.tables, *((pid,) for pid in seating.byes)]


def standings(t: Tournament, rows: list[TournamentGame], counted: int) -> list[F.Row]:
    games = [g for g in table_games(t, rows, done_rounds_only=True) if g.round <= counted]
    return T.table_standings(player_entries(t), games, points_of(t), bye_of(t))


def seat_table_points(t: Tournament, row: TournamentGame) -> list[float | None]:
    """Each seat's table points once the table has its result (a bye: the bye's)."""
    game = table_game(row, 1)
    if game.is_bye:
        bye = bye_of(t)
        points = points_of(t)
        return [float(sum(points, Fraction(0)) / len(points) if bye is None else bye)]
    if game.result is None:
        return [None] * len(game.players)
    return [float(v) for v in T.table_points_of(game.result, points_of(t))]


def result_text(row: TournamentGame) -> str:
    """The places in seat order ("2/1/3"), "-" for a forfeited seat; "" while played."""
    if len(row.table) == 1:
        return "bye"
    if row.state != State.DONE:
        return ""
    if row.decision == Decision.ANNULLED:
        return "0-0"
    return "/".join("-" if seat.get("forfeit") else str(seat.get("place") or "")
                    for seat in row.table)


# ------------------------------------------------------------------ results

def game_points(match: Match) -> list[int]:
    """Each seat's points won in the game: its score less the game's baseline."""
    scores = [int(s or 0) for s in (match.scores or [])]
    scores += [0] * (match.seat_count - len(scores))
    baseline = plugin_of(match).score_baseline(match.rules or {})
    return [max(0, s - baseline) for s in scores[:match.seat_count]]


def record_result(row: TournamentGame, match: Match) -> None:
    """The finished match's places and points on the table's seats."""
    ranks = list(MatchSeat.objects.filter(match=match).order_by("index")
                 .values_list("rank", flat=True))
    points = game_points(match)
    seats = row.table
    for index, seat in enumerate(seats):
        rank = ranks[index] if index < len(ranks) else None
        seat["place"] = int(rank) if rank is not None else 1  # no ranks: level
        seat["points"] = points[index] if index < len(points) else 0
    forfeits = [bool(seat.get("forfeit")) for seat in seats]
    decision = (Decision.ANNULLED if all(forfeits) else Decision.FORFEIT if any(forfeits)
                else Decision.PLAYED)
    row.state, row.decision, row.table = State.DONE, decision, seats
    row.save(update_fields=["state", "decision", "table"])


def forfeit_seat(row: TournamentGame, seat: int) -> None:
    row.table[seat]["forfeit"] = True
    row.save(update_fields=["table"])


def annul(row: TournamentGame) -> None:
    """No result for anybody at the table: a forfeit for every seat."""
    for seat in row.table:
        seat["forfeit"] = True
    row.state, row.decision = State.DONE, Decision.ANNULLED
    row.save(update_fields=["state", "decision", "table"])
