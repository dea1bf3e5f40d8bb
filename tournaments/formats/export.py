"""Exports: the standings as CSV, a Swiss tournament as TRF-16 text."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from tournaments.formats.model import Format, Game, PlayerEntry
from tournaments.formats.record import rounds_in
from tournaments.formats.standings import Row, standings
from tournaments.formats.trf import build_trf, starting_numbers

__all__ = ["to_csv", "to_trf"]


def to_csv(rows: Sequence[Row], points_column: str = "points") -> str:
    """One line per row, the tiebreak columns as the rows carry them (the format's order).
    ``start_rank`` is the player's starting number, the one the TRF export numbers the
    player by (entry rating, then entry order), so the two exports can be joined.
    ``points_column`` names the points (a table tournament's "table_points")."""
    tiebreaks = list(rows[0].tiebreaks) if rows else []
    numbers = starting_numbers(PlayerEntry(row.player_id, row.rating) for row in rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "player_id", "start_rank", "name", "rating", points_column,
                     "games_played", *tiebreaks, "status"])
    for row in rows:
        status = "no-show" if row.no_show else "withdrawn" if row.withdrawn else ""
        writer.writerow([
            row.rank, row.player_id, numbers[row.player_id], row.name, row.rating,
            _number(row.points), row.games_played,
            *(_number(row.tiebreaks[name]) for name in tiebreaks), status,
        ])
    return out.getvalue()


def to_trf(
    players: Sequence[PlayerEntry],
    games: Sequence[Game],
    *,
    total_rounds: int | None = None,
    title: str = "",
) -> str:
    """The TRF of a Swiss after its games so far, ranks from the Swiss standings. Every
    round in ``games`` must be finished; players not entered by then are left out."""
    played = rounds_in(games)
    entered = [p for p in players if p.joined_at_round <= max(played, 1)]
    ranks = {row.player_id: row.rank for row in standings(Format.SWISS, entered, games)}
    return build_trf(
        entered,
        games,
        rounds_played=played,
        total_rounds=played if total_rounds is None else total_rounds,
        zeroed=[p.id for p in entered if p.withdrawn],
        # No XXP: a forfeit bars the rematch only here (the pairing adds it); the file
        # already shows the pair as met, and an XXP for it would contradict the rounds.
        ranks=ranks,
        title=title,
    ).text


def _number(value: float) -> str:
    """2.0 -> "2", 2.5 -> "2.5", 1.25 -> "1.25", 10/3 -> "3.3333"."""
    return str(int(value)) if value.is_integer() else repr(round(value, 4))
