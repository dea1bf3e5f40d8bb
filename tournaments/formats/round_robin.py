"""Round robin: Berger tables, the schedule of a field, the crosstable.

Berger tables, for an even number m of table numbers 1..m (an odd field adds a dummy
m that means a bye) and k = m - 1: in round r the numbers i, j other than m with
i + j = r + 1 (mod k) meet, and m meets the one i with 2i = r + 1 (mod k). The lower
number sits first when j - i is odd, the higher when it is even; m sits first in even
rounds. This gives FIDE's published tables (round 1 of six: 1-6, 2-5, 3-4; round 2:
6-4, 5-3, 1-2). A double round robin plays the table twice, seats swapped.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.formats.model import (
    DRAW,
    WIN,
    Format,
    Game,
    Pairing,
    PlayerEntry,
    PlayerId,
    TournamentError,
)
from tournaments.formats.record import Kind, RoundEntry, player_rounds
from tournaments.formats.standings import standings

__all__ = ["Crosstable", "berger_rounds", "crosstable", "round_robin_schedule"]

Seat = tuple[int, int | None]  # table indices from 0; None: a bye


def berger_rounds(n: int, double: bool = False) -> list[list[Seat]]:
    """The rounds of a round robin of ``n`` table numbers (0-based), each round a list of
    (seat 0, seat 1) with seat 1 None for the bye of an odd field."""
    if n < 2:
        raise TournamentError("a round robin needs at least two players")
    m = n + n % 2
    k = m - 1
    rounds: list[list[Seat]] = []
    for r in range(1, k + 1):
        target = (r + 1) % k
        fixed = next(i for i in range(1, k + 1) if (2 * i) % k == target)
        games: list[tuple[int, int]] = [(m, fixed) if r % 2 == 0 else (fixed, m)]
        for i in range(1, k + 1):
            j = (target - i) % k or k
            if i < j and i != fixed:
                games.append((i, j) if (j - i) % 2 == 1 else (j, i))
        rounds.append([_seat(a, b, n) for a, b in games])
    if double:
        rounds += [[_swapped(seat) for seat in round_] for round_ in rounds]
    return rounds


def _seat(a: int, b: int, n: int) -> Seat:
    """1-based table numbers to 0-based seats; the dummy (n + 1 of an odd field) is a bye."""
    if a > n:
        return (b - 1, None)
    if b > n:
        return (a - 1, None)
    return (a - 1, b - 1)


def _swapped(seat: Seat) -> Seat:
    first, second = seat
    return seat if second is None else (second, first)


def round_robin_schedule(
    players: Sequence[PlayerEntry], double: bool = False, rng: random.Random | None = None
) -> list[list[Pairing]]:
    """Every round's pairings. Table numbers go by entry rating (highest first), or are
    drawn with ``rng`` when given. Withdrawn players are left out."""
    field = sorted((p for p in players if not p.withdrawn), key=lambda p: (-p.rating, p.id))
    if rng is not None:
        rng.shuffle(field)
    ids = [p.id for p in field]
    return [
        [
            Pairing(r, ids[a], None if b is None else ids[b])
            for a, b in seats
        ]
        for r, seats in enumerate(berger_rounds(len(ids), double), start=1)
    ]


MARKS = {WIN: "1", DRAW: "½", 0.0: "0"}


@dataclass(frozen=True, slots=True)
class Crosstable:
    """``order``: the players in standings order; ``cells[(a, b)]``: a's results against
    b, one mark per meeting in round order ("1", "½", "0", "+"/"-" forfeits, "*" pending)."""

    order: tuple[PlayerId, ...]
    names: dict[PlayerId, str]
    cells: dict[tuple[PlayerId, PlayerId], tuple[str, ...]]
    points: dict[PlayerId, float]

    def grid(self) -> list[list[str]]:
        """Text rows: a header, then one row per player (position, name, cells, points)."""
        header = ["", "", *(str(i) for i in range(1, len(self.order) + 1)), "points"]
        rows = [header]
        for position, a in enumerate(self.order, start=1):
            cells = ["X" if a == b else " ".join(self.cells.get((a, b), ())) for b in self.order]
            rows.append([str(position), self.names[a], *cells, _points(self.points[a])])
        return rows


def crosstable(players: Sequence[PlayerEntry], games: Sequence[Game]) -> Crosstable:
    table = player_rounds(players, games)
    rows = standings(Format.ROUND_ROBIN, players, games)
    cells: dict[tuple[PlayerId, PlayerId], tuple[str, ...]] = {}
    for pid, entries in table.items():
        for entry in entries:
            if entry.opponent is not None:
                key = (pid, entry.opponent)
                cells[key] = (*cells.get(key, ()), _mark(entry))
    return Crosstable(
        order=tuple(row.player_id for row in rows),
        names={row.player_id: row.name for row in rows},
        cells=cells,
        points={row.player_id: row.points for row in rows},
    )


def _mark(entry: RoundEntry) -> str:
    if entry.kind is Kind.PENDING:
        return "*"
    if entry.kind is Kind.FORFEIT:
        return "+" if entry.score == WIN else "-"
    return MARKS[entry.score]


def _points(value: float) -> str:
    whole = int(value)
    return f"{whole or ''}½" if value - whole else str(whole)
