"""Table tournaments (pure): sizes, seating, table points, standings; hypothesis for the
seating over random fields and histories, against brute force on small fields."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import PlayerEntry, TournamentError
from tournaments.formats.tables import (
    TableEntrant,
    TableGame,
    TableResult,
    check_table_points,
    default_table_points,
    repeat_count,
    seat_round,
    table_plan,
    table_points_of,
    table_sizes_allowed,
    table_standings,
)

DICE = range(1, 7)
FIVES = (2, 4)
F = Fraction


def result(*places: int, points: tuple[int, ...] = (), forfeited: tuple[bool, ...] = ()
           ) -> TableResult:
    n = len(places)
    return TableResult(tuple(places), points or (0,) * n, forfeited or (False,) * n)


# ------------------------------------------------------------------ sizes

def test_sizes_allowed_are_the_games_counts_from_two_to_the_table() -> None:
    assert table_sizes_allowed(DICE, 4) == (4, 3, 2)
    assert table_sizes_allowed(FIVES, 4) == (4, 2)
    with pytest.raises(TournamentError):
        table_sizes_allowed((2,), 4)


@pytest.mark.parametrize(("count", "allowed", "plan"), [
    (12, (4, 3, 2), ([4, 4, 4], 0)),
    (13, (4, 3, 2), ([4, 3, 3, 3], 0)),
    (7, (3, 2), ([3, 2, 2], 0)),
    (7, (6, 5, 4, 3, 2), ([4, 3], 0)),
    (7, (4, 2), ([4, 2], 1)),
    (5, (4, 2), ([4], 1)),
    (6, (4, 2), ([4, 2], 0)),
    (1, (4, 2), ([], 1)),
    (0, (4, 2), ([], 0)),
])
def test_the_plan_has_fewest_byes_then_fewest_tables_then_even_ones(
        count: int, allowed: tuple[int, ...], plan: tuple[list[int], int]) -> None:
    assert table_plan(count, allowed) == plan


# ------------------------------------------------------------------ table points

def test_places_give_table_points_shared_when_level() -> None:
    points = default_table_points(4)
    assert points == [3, 2, 1, 0]
    assert table_points_of(result(2, 1, 4, 3), points) == [2, 3, 0, 1]
    assert table_points_of(result(1, 1, 3, 4), points) == [F(5, 2), F(5, 2), 1, 0]
    assert table_points_of(result(1, 2, 2, 2), points) == [3, 1, 1, 1]


def test_a_smaller_table_scales_the_list() -> None:
    points = default_table_points(4)
    assert table_points_of(result(1, 2, 3), points) == [3, F(3, 2), 0]
    assert table_points_of(result(2, 1), points) == [0, 3]
    assert table_points_of(result(1, 2, 3), [F(5), F(3), F(1), F(0)]) == [5, 2, 0]


def test_a_forfeit_scores_nothing_and_the_others_take_the_top_places() -> None:
    points = default_table_points(4)
    no_show = result(4, 1, 2, 3, forfeited=(True, False, False, False))
    assert table_points_of(no_show, points) == [0, 3, 2, 1]
    assert table_points_of(TableResult.annulled(4), points) == [0, 0, 0, 0]


def test_table_points_must_fit_the_table() -> None:
    check_table_points([F(3), F(2), F(1), F(0)], 4)
    with pytest.raises(TournamentError):
        check_table_points([F(3), F(2), F(1)], 4)
    with pytest.raises(TournamentError):
        check_table_points([F(1), F(2), F(1), F(0)], 4)


# ------------------------------------------------------------------ standings

def test_standings_by_table_points_then_game_points_then_opponents() -> None:
    players = [PlayerEntry(i, 1500 + i, f"p{i}") for i in range(1, 6)]
    games = [
        TableGame(1, (1, 2, 3, 4), result(1, 2, 3, 4, points=(90, 80, 70, 60))),
        TableGame(1, (5,)),
        TableGame(2, (5, 1, 2, 3), result(1, 2, 3, 4, points=(50, 40, 30, 20))),
        TableGame(2, (4,)),
    ]
    rows = table_standings(players, games, default_table_points(4))
    by_id = {row.player_id: row for row in rows}
    # 1: 3+2, 2: 2+1, 3: 1+0, 4: 0+1.5 (bye), 5: 1.5+3.
    assert [row.player_id for row in rows] == [1, 5, 2, 4, 3]
    assert by_id[5].points == 4.5 and by_id[4].points == 1.5
    assert by_id[1].tiebreaks["game_points"] == 130
    assert list(by_id[1].tiebreaks) == ["game_points", "opponents_table_points"]
    # Player 4's table: the others ended on 5, 3, 1: mean 3.
    assert by_id[4].tiebreaks["opponents_table_points"] == 3


def test_level_players_share_a_rank_and_no_shows_go_last() -> None:
    players = [PlayerEntry(i, 1500, f"p{i}") for i in range(1, 5)]
    games = [TableGame(1, (1, 2, 3, 4),
                       result(1, 1, 2, 4, forfeited=(False, False, False, True)))]
    rows = table_standings(players, games, default_table_points(4))
    assert [(row.player_id, row.rank) for row in rows] == [(1, 1), (2, 1), (3, 3), (4, 4)]
    assert rows[-1].no_show and rows[-1].points == 0


def test_a_bye_scores_the_organisers_value() -> None:
    players = [PlayerEntry(1, 1500)]
    rows = table_standings(players, [TableGame(1, (1,))], default_table_points(4), F(2))
    assert rows[0].points == 2 and not rows[0].no_show


# ------------------------------------------------------------------ seating

def entrants(count: int) -> list[TableEntrant]:
    return [TableEntrant(i, F(0), 0, 1500) for i in range(1, count + 1)]


def test_round_one_is_drawn_and_deterministic_per_seed() -> None:
    allowed = table_sizes_allowed(DICE, 4)
    one = seat_round(entrants(12), [], allowed, round_no=1, seed=7)
    again = seat_round(entrants(12), [], allowed, round_no=1, seed=7)
    other = seat_round(entrants(12), [], allowed, round_no=1, seed=8)
    assert one == again and one.tables != other.tables
    assert sorted(p for t in one.tables for p in t) == list(range(1, 13))


def test_later_rounds_go_by_standing() -> None:
    field = [TableEntrant(i, F(20 - i), 0, 1500) for i in range(1, 9)]
    seating = seat_round(field, [], (4, 3, 2), round_no=2, seed=1)
    assert [sorted(table) for table in seating.tables] == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_byes_go_to_the_lowest_with_fewest_byes() -> None:
    field = [TableEntrant(i, F(20 - i), 0, 1500, byes=1 if i == 7 else 0) for i in range(1, 8)]
    seating = seat_round(field, [], (4, 2), round_no=2, seed=1)
    assert seating.byes == (6,)
    assert sorted(len(t) for t in seating.tables) == [2, 4]


def test_a_repeat_is_avoided_when_a_swap_can() -> None:
    field = [TableEntrant(i, F(20 - i), 0, 1500) for i in range(1, 9)]
    history = [(1, 2, 3, 4), (5, 6, 7, 8)]
    seating = seat_round(field, history, (4, 3, 2), round_no=2, seed=1)
    # Each table takes two of each earlier table: two repeat pairs a table at least.
    assert seating.repeats == 4
    assert repeat_count(seating.tables, history) == 4


def test_no_repeat_when_avoidable_in_a_sixteen_field() -> None:
    field = entrants(16)
    history = [tuple(range(t * 4 + 1, t * 4 + 5)) for t in range(4)]
    seating = seat_round(field, history, (4, 3, 2), round_no=2, seed=3)
    assert seating.repeats == 0


def _partitions_any(players: list[int], sizes: list[int]) -> list[list[tuple[int, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (any table order)."""
    if not sizes:
        return [[]]
    found = []
    for index, size in enumerate(sizes):
        if size in sizes[:index]:
            continue
        first, rest = players[0], players[1:]
        for others in combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tail in _partitions_any(left, sizes[:index] + sizes[index + 1:]):
                found.append([(first, *others), *tail])
    return found


def _weighted(tables: list[tuple[int, ...]] | tuple[tuple[int, ...], ...],
              history: list[tuple[int, ...]]) -> int:
    met: dict[frozenset[int], int] = {}
    for table in history:
        for a, b in combinations(table, 2):
            met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    return sum(met.get(frozenset(pair), 0) for table in tables for pair in combinations(table, 2))


@st.composite
def small_fields(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, ...]], int, int]:
    count = draw(st.integers(3, 9))
    seats = draw(st.sampled_from([3, 4, 6]))
    rounds = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 1000))
    rng = random.Random(seed)
    history: list[tuple[int, ...]] = []
    ids = list(range(1, count + 1))
    for _ in range(rounds):
        rng.shuffle(ids)
        sizes, byes = table_plan(count, table_sizes_allowed(DICE, seats))
        position = byes
        for size in sizes:
            history.append(tuple(ids[position:position + size]))
            position += size
    return count, seats, history, seed, rounds + 1


@settings(max_examples=150, deadline=None)
@given(small_fields(), st.sampled_from([DICE, FIVES]))
def test_seating_is_complete_allowed_and_as_good_as_brute_force(
        case: tuple[int, int, list[tuple[int, ...]], int, int], game: range | tuple[int, ...],
) -> None:
    count, seats, history, seed, round_no = case
    if seats not in game:
        seats = 4
    allowed = table_sizes_allowed(game, seats)
    rng = random.Random(seed)
    field = [TableEntrant(i, F(rng.randrange(10)), rng.randrange(100), 1500,
                          rng.randrange(2)) for i in range(1, count + 1)]
    seating = seat_round(field, history, allowed, round_no=round_no, seed=seed)
    assert seating == seat_round(field, history, allowed, round_no=round_no, seed=seed)
    seated = [p for table in seating.tables for p in table]
    assert sorted(seated + list(seating.byes)) == list(range(1, count + 1))
    assert all(len(table) in allowed for table in seating.tables)
    sizes, byes = table_plan(count, allowed)
    assert len(seating.byes) == byes and sorted(map(len, seating.tables)) == sorted(sizes)
    best = min(_weighted(tables, history) for tables in _partitions_any(sorted(seated), sizes))
    assert _weighted(seating.tables, history) == best


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(10, 40), st.sampled_from([4, 6]))
def test_the_byes_go_round(seed: int, count: int, seats: int) -> None:
    """Nobody has a second bye while someone else has had none."""
    allowed = table_sizes_allowed(FIVES if seats == 4 else DICE, seats)
    byes = dict.fromkeys(range(1, count + 1), 0)
    history: list[tuple[int, ...]] = []
    for round_no in range(1, 6):
        field = [TableEntrant(i, F(i % 7), 0, 1500, byes[i]) for i in byes]
        seating = seat_round(field, history, allowed, round_no=round_no, seed=seed)
        for pid in seating.byes:
            byes[pid] += 1
        history.extend(seating.tables)
        assert max(byes.values()) - min(byes.values()) <= 1
