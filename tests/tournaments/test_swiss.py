"""Swiss pairing through py4swiss: the rules this platform adds, and the errors."""

from __future__ import annotations

import pytest

from tournaments.formats import (
    Game,
    GameResult,
    Pairing,
    PlayerEntry,
    SwissPairingError,
    TournamentError,
    late_entry_open,
    pairings_by_round,
    swiss_pair,
)

W0, W1, D = GameResult.win(0), GameResult.win(1), GameResult.draw()


def field(n: int) -> list[PlayerEntry]:
    return [PlayerEntry(i, 2500 - 10 * i, f"P{i}") for i in range(1, n + 1)]


def play_all(pairings: list[Pairing], result: GameResult = W0) -> list[Game]:
    return [Game(p, None if p.is_bye else result) for p in pairings]


def test_round_one_is_the_dutch_split_with_the_bye_to_the_lowest_seed() -> None:
    pairings = swiss_pair(field(9), [], 1)
    # Dutch round 1: top half against bottom half (1-5, 6-2, 3-7, 8-4), colours
    # alternating from white for seed 1; seed 9 has the bye.
    assert pairings == [
        Pairing(1, 1, 5), Pairing(1, 6, 2), Pairing(1, 3, 7), Pairing(1, 8, 4), Pairing(1, 9),
    ]


def test_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    players = field(5)
    # Round 1: 1-3 and 4-2, 5 has the bye. Seat 0 wins everywhere: 1 and 4 have 1 point,
    # 5 has 1 (bye), 2 and 3 have 0. The lowest-ranked is 3 (0 points, lower seed).
    history = play_all(swiss_pair(players, [], 1))
    assert next(g for g in history if g.pairing.is_bye).pairing.seat0 == 5
    second = swiss_pair(players, history, 2)
    assert second[-1] == Pairing(2, 3)
    history += play_all(second)
    third = swiss_pair(players, history, 3)
    byes = [p.seat0 for g in history for p in [g.pairing] if p.is_bye] + [third[-1].seat0]
    assert len(set(byes)) == 3


def test_withdrawn_and_absent_players_are_not_paired() -> None:
    players = field(8)
    history = play_all(swiss_pair(players, [], 1))
    players[2] = PlayerEntry(3, players[2].rating, "P3", withdrawn=True)
    pairings = swiss_pair(players, history, 2, absent={6})
    paired = {pid for p in pairings for pid in p.players}
    assert paired == {1, 2, 4, 5, 7, 8}
    assert len(pairings) == 3 and not any(p.is_bye for p in pairings)  # six active: no bye


def test_late_entrant_joins_and_counts_missed_rounds_as_absences() -> None:
    players = [*field(6), PlayerEntry(7, 2600, "Late", joined_at_round=2)]
    first = swiss_pair(players, [], 1, total_rounds=5)
    assert all(7 not in p.players for p in first)
    history = play_all(first)
    second = swiss_pair(players, history, 2, total_rounds=5)
    assert 7 in {pid for p in second for pid in p.players}
    # Seven active: one bye, never to someone who has one.
    assert sum(p.is_bye for p in second) == 1


def test_late_entries_close_once_half_the_rounds_have_started() -> None:
    assert late_entry_open(0, 5) and late_entry_open(2, 5) and not late_entry_open(3, 5)
    assert late_entry_open(2, 6) and not late_entry_open(3, 6)
    players = [*field(6), PlayerEntry(7, 2000, joined_at_round=4)]
    with pytest.raises(TournamentError, match="late entries close"):
        swiss_pair(players, [], 1, total_rounds=6)
    swiss_pair(players, [], 1, total_rounds=7)  # 3 of 7 started: still open


def test_players_who_met_by_forfeit_do_not_meet_again() -> None:
    players = field(4)
    history = [
        Game(Pairing(1, 1, 3), GameResult.forfeit_win(0)),
        Game(Pairing(1, 4, 2), W1),
    ]
    for round_no in (2, 3):
        pairings = swiss_pair(players, history, round_no)
        assert all(p.pair_key() != {1, 3} for p in pairings)
        history += play_all(pairings)


def test_a_field_with_no_valid_pairing_raises() -> None:
    # Three players, three rounds: everyone has met everyone and had the bye.
    players = field(3)
    history: list[Game] = []
    for round_no in (1, 2, 3):
        history += play_all(swiss_pair(players, history, round_no))
    with pytest.raises(SwissPairingError, match="round 4 cannot be paired"):
        swiss_pair(players, history, 4)
    # Two players who have met cannot be paired again.
    two = field(2)
    with pytest.raises(SwissPairingError, match="cannot be paired"):
        swiss_pair(two, [Game(Pairing(1, 1, 2), D)], 2)


def test_lone_player_gets_the_bye_once() -> None:
    players = field(1)
    assert swiss_pair(players, [], 1) == [Pairing(1, 1)]
    with pytest.raises(SwissPairingError):
        swiss_pair(players, [Game(Pairing(1, 1))], 2)
    assert swiss_pair([PlayerEntry(1, 1500, withdrawn=True)], [], 1) == []


def test_bad_history_is_refused() -> None:
    players = field(4)
    with pytest.raises(TournamentError, match="without a result"):
        swiss_pair(players, [Game(Pairing(1, 1, 3)), Game(Pairing(1, 2, 4), D)], 2)
    with pytest.raises(TournamentError, match="history holds round 2"):
        swiss_pair(players, [Game(Pairing(2, 1, 3), D)], 2)
    with pytest.raises(TournamentError, match="entered twice"):
        swiss_pair([*players, players[0]], [], 1)
    late = [*players[:3], PlayerEntry(4, 1000, joined_at_round=2)]
    with pytest.raises(TournamentError, match="not yet entered"):
        swiss_pair(late, [Game(Pairing(1, 1, 4), D), Game(Pairing(1, 2, 3), D)], 2)


def test_pairings_by_round() -> None:
    history = play_all(swiss_pair(field(4), [], 1))
    history += play_all(swiss_pair(field(4), history, 2))
    rounds = pairings_by_round(reversed(history))
    assert list(rounds) == [1, 2] and all(len(games) == 2 for games in rounds.values())
