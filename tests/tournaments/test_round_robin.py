"""Berger tables: every pair meets once (twice when double), seats balanced."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.formats import PlayerEntry, TournamentError, berger_rounds, round_robin_schedule


def one_based(rounds: list[list[tuple[int, int | None]]]) -> list[set[tuple[int, int | None]]]:
    return [{(a + 1, None if b is None else b + 1) for a, b in r} for r in rounds]


def test_fide_berger_table_for_six() -> None:
    # FIDE Handbook, Berger tables, 5 or 6 players.
    assert one_based(berger_rounds(6)) == [
        {(1, 6), (2, 5), (3, 4)},
        {(6, 4), (5, 3), (1, 2)},
        {(2, 6), (3, 1), (4, 5)},
        {(6, 5), (1, 4), (2, 3)},
        {(3, 6), (4, 2), (5, 1)},
    ]


def test_fide_berger_table_for_eight_first_rounds() -> None:
    assert one_based(berger_rounds(8))[:3] == [
        {(1, 8), (2, 7), (3, 6), (4, 5)},
        {(8, 5), (6, 4), (7, 3), (1, 2)},
        {(2, 8), (3, 1), (4, 7), (5, 6)},
    ]


def test_odd_field_gives_each_player_one_bye() -> None:
    # Five players: table six is the dummy, its opponent has the bye.
    rounds = one_based(berger_rounds(5))
    assert [sorted(a for a, b in r if b is None) for r in rounds] == [[1], [4], [2], [5], [3]]


@pytest.mark.parametrize("n", range(2, 21))
@pytest.mark.parametrize("double", [False, True])
def test_every_pair_meets_once_or_twice_with_balanced_seats(n: int, double: bool) -> None:
    rounds = berger_rounds(n, double)
    assert len(rounds) == (n - 1 + n % 2) * (2 if double else 1)
    meetings: Counter[frozenset[int]] = Counter()
    seat0: Counter[int] = Counter()
    games: Counter[int] = Counter()
    for round_ in rounds:
        seated = [p for a, b in round_ for p in (a, b) if p is not None]
        assert sorted(seated) == sorted(set(seated))  # nobody twice in a round
        assert len(seated) == n  # everyone plays or has the bye
        assert sum(b is None for _, b in round_) == n % 2
        for a, b in round_:
            if b is None:
                continue
            meetings[frozenset((a, b))] += 1
            seat0[a] += 1
            games[a] += 1
            games[b] += 1
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {2 if double else 1}
    for player in range(n):
        difference = 2 * seat0[player] - games[player]  # seat-0 games minus seat-1 games
        assert difference == 0 if double or n % 2 else abs(difference) == 1
    if double:  # the second cycle repeats the first with the seats swapped
        half = len(rounds) // 2
        for first, second in zip(rounds[:half], rounds[half:], strict=True):
            assert [(b, a) if b is not None else (a, b) for a, b in first] == second


def test_schedule_seeds_by_rating_or_by_lot() -> None:
    players = [PlayerEntry(i, 1000 + 10 * i) for i in range(1, 6)]
    schedule = round_robin_schedule(players)
    # Table 1 is the highest rating (player 5); in round 1 table 1 meets the dummy (bye).
    assert schedule[0][0].seat0 == 5 and schedule[0][0].is_bye
    assert [p.round for p in schedule[2]] == [3, 3, 3]
    drawn = round_robin_schedule(players, double=True, rng=random.Random(4))
    assert len(drawn) == 10
    assert drawn == round_robin_schedule(players, double=True, rng=random.Random(4))


def test_withdrawn_players_are_not_scheduled() -> None:
    players = [PlayerEntry(1, 1500), PlayerEntry(2, 1500, withdrawn=True), PlayerEntry(3, 1500)]
    schedule = round_robin_schedule(players)
    assert all(2 not in p.players for r in schedule for p in r)
    assert len(schedule) == 1  # two players: one game


def test_too_small() -> None:
    with pytest.raises(TournamentError):
        berger_rounds(1)
