"""Table tournaments: rounds at tables of three to six for games that seat more than two.

Seating a round (:func:`seat_round`):

* The sizes (:func:`table_plan`): as few byes as the game's table sizes allow, then as
  few tables as possible, then tables as even as possible (least sum of squares of the
  sizes), larger tables first. Sizes are the game's allowed counts from 2 up to the
  tournament's table size: 7 players at tables of 6 sit 4 + 3, at tables of 3 they sit
  3 + 2 + 2; Fives (2 or 4 seats) seats 7 at 4 + 2 with one bye.
* Round 1 is drawn: the entrants shuffled with the round's seed. Later rounds go by
  standing (table points, game points, entry rating, id): the top of the field fills
  the first table, the next ones the second, and so on; byes go to the lowest-ranked
  entrants with the fewest byes so far.
* Then swaps between tables cut the repeat meetings (two players seated together who
  already sat together): a swap is taken when it lowers the repeats (weighted by how
  often each pair met) or, at equal repeats, moves players nearer their standing's
  table; a repeat always outweighs the displacement, so repeats are avoided wherever
  swaps can avoid them, with the nearest tables tried first. A few seeded restarts
  from shaken seatings keep the best, so small fields reach the fewest repeats.
* The seat order at each table is drawn (seeded), so that no seat of the game goes to
  the leader every round.

Scoring a table (:func:`table_points_of`): places by the game's ranks, 1 best. The
tournament's table points are a list for a full table (default n-1 ... 0: 3-2-1-0 for
four); a smaller table of k seats scales it linearly (its first place gets the list's
first value, its last the list's last, the others in between: 3-1.5-0 at three).
Players level at a table share the points of the places they cover. A seat that
forfeited (never moved, withdrew) scores 0 and the others take the places from the
top; an annulled table is a forfeit for everyone. A bye scores ``bye_points`` (default:
the mean of the list, 1.5 for 3-2-1-0) and no game points.

Standings (:func:`table_standings`): table points, then game points (points won in the
games, forfeits aside), then the opponents' table points (for each table the player
sat at, the mean total of the others at it, summed over the rounds). Players who sat
at tables and forfeited every one are listed last (``no_show``). Exact fractions
inside; the rows carry floats.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import pairwise

from tournaments.formats.model import PlayerEntry, PlayerId, TournamentError
from tournaments.formats.record import index_players
from tournaments.formats.standings import GAME_POINTS, Row

__all__ = [
    "OPPONENTS_TABLE_POINTS",
    "TABLE_TIEBREAKS",
    "Seating",
    "TableEntrant",
    "TableGame",
    "TableResult",
    "check_table_points",
    "default_table_points",
    "repeat_count",
    "seat_round",
    "table_entrants",
    "table_plan",
    "table_points_of",
    "table_sizes_allowed",
    "table_standings",
]

OPPONENTS_TABLE_POINTS = "opponents_table_points"
TABLE_TIEBREAKS = (GAME_POINTS, OPPONENTS_TABLE_POINTS)
RESTARTS = 6  # shaken seatings searched again after the first (seeded)


# ------------------------------------------------------------------ records

@dataclass(frozen=True, slots=True)
class TableResult:
    """Each seat's place (the game's rank, 1 best, equal share), game points, and
    whether it forfeited (scores 0, not a game played)."""

    places: tuple[int, ...]
    points: tuple[int, ...]
    forfeited: tuple[bool, ...]

    def __post_init__(self) -> None:
        if not len(self.places) == len(self.points) == len(self.forfeited):
            raise TournamentError("a table result has one place, score and flag per seat")
        if any(place < 1 for place in self.places) or any(p < 0 for p in self.points):
            raise TournamentError("places start at 1 and game points are not negative")

    @classmethod
    def annulled(cls, seats: int) -> TableResult:
        return cls((1,) * seats, (0,) * seats, (True,) * seats)


@dataclass(frozen=True, slots=True)
class TableGame:
    """One table of a round in seat order; a single player is a bye. ``result`` None:
    still being played (a bye needs none)."""

    round: int
    players: tuple[PlayerId, ...]
    result: TableResult | None = None

    def __post_init__(self) -> None:
        if not self.players or len(set(self.players)) != len(self.players):
            raise TournamentError(f"round {self.round}: a table of distinct players")
        if self.result is not None and len(self.result.places) != len(self.players):
            raise TournamentError(f"round {self.round}: a result for every seat")

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    @property
    def pending(self) -> bool:
        return not self.is_bye and self.result is None


@dataclass(frozen=True, slots=True)
class Seating:
    """A round's tables (seat order, the top table first) and its byes; ``repeats``: the
    pairs seated together who had already sat together."""

    tables: tuple[tuple[PlayerId, ...], ...]
    byes: tuple[PlayerId, ...]
    repeats: int
    sizes: tuple[int, ...] = field(default=())


# ------------------------------------------------------------------ sizes

def table_sizes_allowed(seat_counts: Iterable[int], seats: int) -> tuple[int, ...]:
    """The table sizes a round may use: the game's seat counts from 2 up to ``seats``."""
    allowed = tuple(sorted({n for n in seat_counts if 2 <= n <= seats}, reverse=True))
    if seats not in allowed:
        raise TournamentError(f"the game does not seat {seats} at a table")
    return allowed


def table_plan(count: int, allowed: Sequence[int]) -> tuple[list[int], int]:
    """(table sizes largest first, byes) for ``count`` players: fewest byes, then fewest
    tables, then the most even sizes."""
    sizes = sorted(set(allowed))
    if not sizes or sizes[0] < 2:
        raise TournamentError("tables seat at least two")
    if count < sizes[0]:
        return [], count
    # best[s]: {tables: (sum of squares, sizes)} for s players, tables of allowed sizes.
    best: list[dict[int, tuple[int, tuple[int, ...]]]] = [dict() for _ in range(count + 1)]
    best[0][0] = (0, ())
    for total in range(1, count + 1):
        row = best[total]
        for size in sizes:
            if size > total:
                break
            for tables, (squares, plan) in best[total - size].items():
                candidate = (squares + size * size, (*plan, size))
                known = row.get(tables + 1)
                if known is None or candidate[0] < known[0]:
                    row[tables + 1] = candidate
    for byes in range(count + 1):
        options = best[count - byes]
        if options:
            tables = min(options)
            return sorted(options[tables][1], reverse=True), byes
    return [], count  # unreachable: best[0] has the empty plan


# ------------------------------------------------------------------ seating

def repeat_count(tables: Iterable[Sequence[PlayerId]],
                 history: Iterable[Sequence[PlayerId]]) -> int:
    """Pairs seated together at ``tables`` who sat together at a table of ``history``."""
    met = _met(history)
    return sum(1 for table in tables for i, a in enumerate(table) for b in table[i + 1:]
               if met.get(frozenset((a, b)), 0))


def _met(history: Iterable[Sequence[PlayerId]]) -> dict[frozenset[PlayerId], int]:
    met: dict[frozenset[PlayerId], int] = {}
    for table in history:
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                key = frozenset((a, b))
                met[key] = met.get(key, 0) + 1
    return met


@dataclass(frozen=True, slots=True)
class TableEntrant:
    """What seating needs of an entrant: standing so far and byes had."""

    id: PlayerId
    table_points: Fraction = Fraction(0)
    game_points: int = 0
    rating: int = 0
    byes: int = 0


def seat_round(
    entrants: Sequence[TableEntrant],
    history: Sequence[Sequence[PlayerId]],
    allowed: Sequence[int],
    *,
    round_no: int,
    seed: int,
) -> Seating:
    """Seat the active ``entrants`` for ``round_no``. ``history``: every earlier table
    (its players; byes left out). ``allowed``: :func:`table_sizes_allowed`."""
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise TournamentError("an entrant listed twice")
    if round_no < 1:
        raise TournamentError(f"round numbers start at 1, not {round_no}")
    rng = random.Random(f"{seed}:{round_no}")
    if round_no == 1:
        order = sorted(entrants, key=lambda e: e.id)
        rng.shuffle(order)
    else:
        order = sorted(entrants, key=lambda e: (-e.table_points, -e.game_points,
                                                -e.rating, e.id))
    sizes, bye_count = table_plan(len(order), allowed)
    byes: list[TableEntrant] = []
    if bye_count:
        # The lowest-ranked among those with the fewest byes, ranked from the bottom.
        by_need = sorted(range(len(order)), key=lambda i: (order[i].byes, -i))
        chosen = set(by_need[:bye_count])
        byes = [order[i] for i in sorted(chosen)]
        order = [e for i, e in enumerate(order) if i not in chosen]
    seated = [e.id for e in order]
    tables = _search(seated, sizes, _met(history), rng)
    return Seating(tuple(tuple(t) for t in tables), tuple(e.id for e in byes),
                   repeat_count(tables, history), tuple(sizes))


def _search(players: list[PlayerId], sizes: Sequence[int],
            met_pairs: Mapping[frozenset[PlayerId], int], rng: random.Random
            ) -> list[list[PlayerId]]:
    """Fill the tables in order, then cut repeats by swaps (see the module's text)."""
    n = len(players)
    index = {pid: i for i, pid in enumerate(players)}
    met = [[0] * n for _ in range(n)]
    for pair, times in met_pairs.items():
        a, b = tuple(pair)
        if a in index and b in index:
            met[index[a]][index[b]] = met[index[b]][index[a]] = times
    home: list[int] = []
    for t, size in enumerate(sizes):
        home.extend([t] * size)
    start = [list(range(sum(sizes[:t]), sum(sizes[:t + 1]))) for t in range(len(sizes))]
    best = _improve([list(t) for t in start], home, met)
    best_cost = _cost(best, home, met)
    if best_cost[0] > 0:
        for _ in range(RESTARTS):
            shaken = [list(t) for t in best]
            _shake(shaken, rng)
            tried = _improve(shaken, home, met)
            cost = _cost(tried, home, met)
            if cost < best_cost:
                best, best_cost = tried, cost
            if best_cost[0] == 0:
                break
    seated = [[players[i] for i in sorted(table)] for table in best]
    for table in seated:  # who sits first is drawn: no seat goes to the leader each round
        rng.shuffle(table)
    return seated


def _cost(tables: list[list[int]], home: list[int], met: list[list[int]]) -> tuple[int, int]:
    repeats = sum(met[a][b] for table in tables for i, a in enumerate(table)
                  for b in table[i + 1:])
    moved = sum(abs(t - home[p]) for t, table in enumerate(tables) for p in table)
    return repeats, moved


def _shake(tables: list[list[int]], rng: random.Random) -> None:
    """Random swaps between tables that hold a repeat and any other table."""
    count = len(tables)
    if count < 2:
        return
    for _ in range(max(2, count)):
        t1, t2 = rng.sample(range(count), 2)
        i, j = rng.randrange(len(tables[t1])), rng.randrange(len(tables[t2]))
        tables[t1][i], tables[t2][j] = tables[t2][j], tables[t1][i]


def _improve(tables: list[list[int]], home: list[int], met: list[list[int]]
             ) -> list[list[int]]:
    """Swaps until none helps: a player with a repeat tries the tables nearest first;
    a swap that keeps the repeats but brings players nearer home is taken too."""
    count = len(tables)
    weight = 2 * count + 1  # a repeat outweighs any displacement a swap adds

    def at(p: int, table: list[int], without: int) -> int:
        row = met[p]
        return sum(row[q] for q in table if q != without and q != p)

    improved = True
    while improved:
        improved = False
        for t1 in range(count):
            for i in range(len(tables[t1])):
                a = tables[t1][i]
                own = at(a, tables[t1], a)
                for distance in range(1, count):
                    for t2 in (t1 - distance, t1 + distance):
                        if not 0 <= t2 < count:
                            continue
                        moved_a = abs(t2 - home[a]) - abs(t1 - home[a])
                        if own == 0 and moved_a >= 0 and distance > 1:
                            continue  # nothing to gain for a: keep the search short
                        for j in range(len(tables[t2])):
                            b = tables[t2][j]
                            before = own + at(b, tables[t2], b)
                            after = at(a, tables[t2], b) + at(b, tables[t1], a)
                            moved = moved_a + abs(t1 - home[b]) - abs(t2 - home[b])
                            if weight * (after - before) + moved < 0:
                                tables[t1][i], tables[t2][j] = b, a
                                improved = True
                                break
                        if tables[t1][i] != a:
                            break
                    if tables[t1][i] != a:
                        break
    return tables


# ------------------------------------------------------------------ scoring

def default_table_points(seats: int) -> list[Fraction]:
    """n-1 ... 0 for a table of n: 3-2-1-0 for four."""
    return [Fraction(seats - 1 - place) for place in range(seats)]


def _scaled(points: Sequence[Fraction], size: int) -> list[Fraction]:
    """The list for a full table, stretched over a table of ``size`` seats."""
    full = len(points)
    if size == full:
        return list(points)
    if size == 1:
        return [points[0]]
    values = []
    for place in range(size):
        x = Fraction(place * (full - 1), size - 1)
        low = int(x)
        high = min(low + 1, full - 1)
        values.append(points[low] + (x - low) * (points[high] - points[low]))
    return values


def table_points_of(result: TableResult, points: Sequence[Fraction]) -> list[Fraction]:
    """Each seat's table points (see the module's text)."""
    size = len(result.places)
    scale = _scaled(points, size)
    playing = sorted((place, seat) for seat, place in enumerate(result.places)
                     if not result.forfeited[seat])
    scored = [Fraction(0)] * size
    position = 0
    while position < len(playing):
        place = playing[position][0]
        group = [seat for p, seat in playing[position:] if p == place]
        share = sum(scale[position:position + len(group)], Fraction(0)) / len(group)
        for seat in group:
            scored[seat] = share
        position += len(group)
    return scored


def check_table_points(points: Sequence[Fraction], seats: int) -> None:
    if len(points) != seats:
        raise TournamentError(f"table points: one value for each of the {seats} places")
    if any(p < 0 for p in points) or any(a < b for a, b in pairwise(points)):
        raise TournamentError("table points are not negative and never rise down the places")


# ------------------------------------------------------------------ standings

@dataclass
class _Tally:
    """Each player's table points, game points, tables played and seated at (a forfeit
    is seated, not played) and byes, and every table with a result and its points."""

    totals: dict[PlayerId, Fraction]
    game_points: dict[PlayerId, int]
    played: dict[PlayerId, int]
    seated: dict[PlayerId, int]
    byes: dict[PlayerId, int]
    scored: list[tuple[TableGame, list[Fraction]]]


def _tally(players: Sequence[PlayerEntry], games: Sequence[TableGame],
           points: Sequence[Fraction], bye_points: Fraction | None) -> _Tally:
    index = index_players(players)
    bye = sum(points, Fraction(0)) / len(points) if bye_points is None else bye_points
    tally = _Tally(dict.fromkeys(index, Fraction(0)), dict.fromkeys(index, 0),
                   dict.fromkeys(index, 0), dict.fromkeys(index, 0), dict.fromkeys(index, 0), [])
    seen: set[tuple[int, PlayerId]] = set()
    for game in games:
        for pid in game.players:
            if pid not in index:
                raise TournamentError(f"round {game.round}: unknown player {pid}")
            if (game.round, pid) in seen:
                raise TournamentError(f"player {pid} seated twice in round {game.round}")
            seen.add((game.round, pid))
        if game.is_bye:
            tally.totals[game.players[0]] += bye
            tally.byes[game.players[0]] += 1
            continue
        if game.result is None:
            continue
        values = table_points_of(game.result, points)
        tally.scored.append((game, values))
        for seat, pid in enumerate(game.players):
            tally.totals[pid] += values[seat]
            tally.seated[pid] += 1
            if not game.result.forfeited[seat]:
                tally.played[pid] += 1
                tally.game_points[pid] += game.result.points[seat]
    return tally


def table_standings(
    players: Sequence[PlayerEntry],
    games: Sequence[TableGame],
    points: Sequence[Fraction],
    bye_points: Fraction | None = None,
) -> list[Row]:
    """The standings from every table with a result (pending tables count nothing)."""
    tally = _tally(players, games, points, bye_points)
    totals, game_points, played, seated = (tally.totals, tally.game_points, tally.played,
                                           tally.seated)
    opponents = dict.fromkeys(totals, Fraction(0))
    for game, _values in tally.scored:
        for pid in game.players:
            others = [totals[q] for q in game.players if q != pid]
            opponents[pid] += sum(others, Fraction(0)) / len(others)
    rows = [
        Row(rank=0, player_id=p.id, name=p.label, rating=p.rating,
            points=float(totals[p.id]), games_played=played[p.id],
            tiebreaks={GAME_POINTS: float(game_points[p.id]),
                       OPPONENTS_TABLE_POINTS: float(opponents[p.id])},
            withdrawn=p.withdrawn, no_show=seated[p.id] > 0 and played[p.id] == 0)
        for p in players
    ]
    exact = {p.id: (seated[p.id] > 0 and played[p.id] == 0,
                    -totals[p.id], -game_points[p.id], -opponents[p.id]) for p in players}
    ordered = sorted(rows, key=lambda row: (exact[row.player_id], -row.rating, row.player_id))
    ranked: list[Row] = []
    for position, row in enumerate(ordered, start=1):
        shared = ranked and exact[ranked[-1].player_id] == exact[row.player_id]
        ranked.append(replace(row, rank=ranked[-1].rank if shared else position))
    return ranked


def table_entrants(
    players: Sequence[PlayerEntry],
    games: Sequence[TableGame],
    points: Sequence[Fraction],
    bye_points: Fraction | None = None,
) -> list[TableEntrant]:
    """The players still in (not withdrawn) with their standing after ``games`` and the
    byes they have had: what :func:`seat_round` seats."""
    tally = _tally(players, games, points, bye_points)
    return [TableEntrant(p.id, tally.totals[p.id], tally.game_points[p.id], p.rating,
                         tally.byes[p.id])
            for p in players if not p.withdrawn]
