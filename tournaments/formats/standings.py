"""Standings: match points, then the format's tiebreaks, in order.

* Swiss: Buchholz, median Buchholz, head to head, game points.
* Round robin: Sonneborn-Berger, head to head, game points.

Match points: a win, a bye and a forfeit win score 1, a draw ½. A player who never
showed up (no game played, no forfeit win) is listed below everyone who did. Players
equal on everything share a rank; among them the higher entry rating is listed first.
Head to head is worked out within each group still level after the tiebreaks before it.
A knockout is ranked by its bracket: :func:`tournaments.formats.knockout.knockout_standings`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.formats import tiebreaks as tb
from tournaments.formats.model import Format, Game, PlayerEntry, PlayerId, TournamentError
from tournaments.formats.record import Kind, RoundEntry, player_rounds

__all__ = [
    "BUCHHOLZ",
    "GAME_POINTS",
    "HEAD_TO_HEAD",
    "MEDIAN_BUCHHOLZ",
    "SONNEBORN_BERGER",
    "TIEBREAKS",
    "Row",
    "rank_rows",
    "standings",
]

BUCHHOLZ = "buchholz"
MEDIAN_BUCHHOLZ = "median_buchholz"
SONNEBORN_BERGER = "sonneborn_berger"
HEAD_TO_HEAD = "head_to_head"
GAME_POINTS = "game_points"

TIEBREAKS: Mapping[Format, tuple[str, ...]] = {
    Format.SWISS: (BUCHHOLZ, MEDIAN_BUCHHOLZ, HEAD_TO_HEAD, GAME_POINTS),
    Format.ROUND_ROBIN: (SONNEBORN_BERGER, HEAD_TO_HEAD, GAME_POINTS),
}


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    player_id: PlayerId
    name: str
    rating: int
    points: float
    games_played: int  # over the board
    tiebreaks: Mapping[str, float] = field(default_factory=dict)  # in the format's order
    withdrawn: bool = False
    no_show: bool = False


SortKey = Callable[[Row], tuple[float, ...]]


def standings(
    format: Format,
    players: Sequence[PlayerEntry],
    games: Sequence[Game],
    *,
    rounds: int | None = None,
) -> list[Row]:
    """The standings after ``rounds`` rounds (default: the last round with a game);
    later games are left out. Pending games count as not played yet."""
    if format not in TIEBREAKS:
        raise TournamentError(f"{format} standings come from the bracket (knockout_standings)")
    if rounds is not None:
        games = [game for game in games if game.round <= rounds]
    table = player_rounds(players, games, rounds)
    totals = {pid: tb.score(entries) for pid, entries in table.items()}
    values: dict[PlayerId, dict[str, float]] = {}
    for pid, entries in table.items():
        row: dict[str, float] = {}
        if format is Format.SWISS:
            buchholz = tb.buchholz_values(pid, table)
            row[BUCHHOLZ] = sum(buchholz, 0.0)
            row[MEDIAN_BUCHHOLZ] = tb.median_buchholz(buchholz)
        else:
            row[SONNEBORN_BERGER] = tb.sonneborn_berger(pid, table, totals)
        row[HEAD_TO_HEAD] = 0.0
        row[GAME_POINTS] = float(tb.game_points(entries))
        values[pid] = row
    names = TIEBREAKS[format]
    no_show = {pid: not any(e.showed_up for e in entries) for pid, entries in table.items()}
    _fill_head_to_head(values, names, table, totals, no_show)
    rows = [
        Row(
            rank=0,
            player_id=player.id,
            name=player.label,
            rating=player.rating,
            points=totals[player.id],
            games_played=_played(table[player.id]),
            tiebreaks={name: values[player.id][name] for name in names},
            withdrawn=player.withdrawn,
            no_show=no_show[player.id],
        )
        for player in players
    ]
    return rank_rows(
        rows, lambda row: (row.no_show, -row.points, *(-row.tiebreaks[n] for n in names))
    )


def rank_rows(rows: Sequence[Row], key: SortKey) -> list[Row]:
    """Sort by ``key`` (then rating, then id for a stable listing); equal keys share a rank."""
    ordered = sorted(rows, key=lambda row: (key(row), -row.rating, row.player_id))
    ranked: list[Row] = []
    for position, row in enumerate(ordered, start=1):
        shared = ranked and key(ranked[-1]) == key(row)
        rank = ranked[-1].rank if shared else position
        ranked.append(_with_rank(row, rank))
    return ranked


def _with_rank(row: Row, rank: int) -> Row:
    return Row(
        rank, row.player_id, row.name, row.rating, row.points, row.games_played,
        row.tiebreaks, row.withdrawn, row.no_show,
    )


def _fill_head_to_head(
    values: dict[PlayerId, dict[str, float]],
    names: tuple[str, ...],
    table: Mapping[PlayerId, Sequence[RoundEntry]],
    totals: Mapping[PlayerId, float],
    no_show: Mapping[PlayerId, bool],
) -> None:
    before = names[: names.index(HEAD_TO_HEAD)]
    groups: dict[tuple[float, ...], list[PlayerId]] = {}
    for pid in table:
        level = (no_show[pid], totals[pid], *(values[pid][n] for n in before))
        groups.setdefault(level, []).append(pid)
    for group in groups.values():
        if len(group) > 1:
            for pid, value in tb.head_to_head(group, table).items():
                values[pid][HEAD_TO_HEAD] = value


def _played(entries: Sequence[RoundEntry]) -> int:
    return sum(1 for entry in entries if entry.kind is Kind.PLAYED)
