"""Tiebreak values, each a function of the per-round table (see :mod:`record`).

Unplayed rounds (byes, forfeits, absences) follow FIDE's 2009 rule for Buchholz:

* the player himself met a *virtual opponent* who had the player's score before the
  round, took the other side of the round's result and drew every later round:
  ``Svon = SPR + (1 - SfPR) + 0.5 * (n - R)``;
* as somebody's opponent, a player's unplayed rounds count as draws (his "adjusted"
  score), so a bye or a forfeit does not inflate his opponents' Buchholz.

Sonneborn-Berger (round robin) counts forfeits as results and a bye as nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import combinations

from tournaments.formats.model import DRAW, WIN, PlayerId
from tournaments.formats.record import Kind, RoundEntry

__all__ = [
    "adjusted_score",
    "buchholz_values",
    "game_points",
    "head_to_head",
    "median_buchholz",
    "score",
    "sonneborn_berger",
]

Table = Mapping[PlayerId, Sequence[RoundEntry]]


def score(entries: Sequence[RoundEntry]) -> float:
    return sum((entry.score for entry in entries), 0.0)


def adjusted_score(entries: Sequence[RoundEntry]) -> float:
    """The score as an opponent sees it: every unplayed round counts as a draw."""
    return sum((DRAW if entry.unplayed else entry.score for entry in entries), 0.0)


def buchholz_values(player: PlayerId, table: Table) -> list[float]:
    """One value per round: the opponent's adjusted score, or the virtual opponent's."""
    entries = table[player]
    n = len(entries)
    values: list[float] = []
    before = 0.0
    for entry in entries:
        if entry.kind is Kind.PLAYED and entry.opponent is not None:
            values.append(adjusted_score(table[entry.opponent]))
        else:
            values.append(before + (WIN - entry.score) + DRAW * (n - entry.round))
        before += entry.score
    return values


def median_buchholz(values: Sequence[float]) -> float:
    """Buchholz without the highest and the lowest value."""
    return sum(sorted(values)[1:-1], 0.0) if len(values) > 2 else 0.0


def sonneborn_berger(player: PlayerId, table: Table, totals: Mapping[PlayerId, float]) -> float:
    """Each opponent's score times the player's result against him (1, ½ or 0)."""
    return sum(
        (
            entry.score * totals[entry.opponent]
            for entry in table[player]
            if entry.kind in (Kind.PLAYED, Kind.FORFEIT) and entry.opponent is not None
        ),
        0.0,
    )


def head_to_head(group: Collection[PlayerId], table: Table) -> dict[PlayerId, float]:
    """Points scored in the games among ``group``; all zero unless every pair of the
    group has met (a partial mini-table would favour whoever happened to meet more)."""
    members = set(group)
    met: set[frozenset[PlayerId]] = set()
    scored = dict.fromkeys(members, 0.0)
    for pid in members:
        for entry in table[pid]:
            decided = entry.kind in (Kind.PLAYED, Kind.FORFEIT)
            if decided and entry.opponent in members:
                met.add(frozenset((pid, entry.opponent)))
                scored[pid] += entry.score
    if any(frozenset(pair) not in met for pair in combinations(members, 2)):
        return dict.fromkeys(members, 0.0)
    return scored


def game_points(entries: Sequence[RoundEntry]) -> int:
    return sum(entry.game_points for entry in entries if entry.kind in (Kind.PLAYED, Kind.FORFEIT))
