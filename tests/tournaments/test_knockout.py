"""Knockout brackets: seeding, byes, advancing, the third-place match, placings."""

from __future__ import annotations

import pytest

from tournaments.formats import (
    Game,
    GameResult,
    Pairing,
    PlayerEntry,
    TournamentError,
    knockout_bracket,
    knockout_next_round,
    knockout_standings,
)
from tournaments.formats.knockout import Bracket, seed_order


def field(n: int) -> list[PlayerEntry]:
    # Player i has the i-th highest rating, so player id = seed.
    return [PlayerEntry(i, 2500 - 10 * i, f"S{i}") for i in range(1, n + 1)]


def higher_seed_wins(bracket: Bracket) -> list[Game]:
    round_no = bracket.current_round
    assert round_no is not None
    return [
        Game(p, GameResult.win(0 if p.seat0 < p.seat1 else 1))
        for p in bracket.pairings(round_no)
        if p.seat1 is not None
    ]


def test_seed_order() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16)[:4] == [1, 16, 8, 9]


def test_byes_go_to_the_top_seeds() -> None:
    bracket = knockout_bracket(field(6))
    assert bracket.round_count == 3
    assert bracket.pairings(1) == [
        Pairing(1, 1, None), Pairing(1, 4, 5), Pairing(1, 2, None), Pairing(1, 3, 6),
    ]
    # The byes already fill round 2.
    assert [(m.seat0, m.seat1) for m in bracket.rounds[1]] == [(1, None), (2, None)]


def test_withdrawn_players_are_left_out_and_seeding_follows_rating() -> None:
    players = [PlayerEntry(1, 1500), PlayerEntry(2, 1900), PlayerEntry(3, 1700, withdrawn=True)]
    bracket = knockout_bracket(players)
    assert bracket.seeds == (2, 1)
    assert bracket.pairings(1) == [Pairing(1, 2, 1)]


def test_a_full_run_with_third_place_match() -> None:
    bracket = knockout_bracket(field(8), third_place=True)
    assert [(p.seat0, p.seat1) for p in bracket.pairings(1)] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    # Round 1: 5 upsets 4 (by forfeit), the rest by seed.
    games = higher_seed_wins(bracket)
    games[1] = Game(games[1].pairing, GameResult.forfeit_win(1))
    bracket = knockout_next_round(bracket, games)
    assert [(p.seat0, p.seat1) for p in bracket.pairings(2)] == [(1, 5), (2, 3)]
    assert bracket.third_place is None
    bracket = knockout_next_round(bracket, higher_seed_wins(bracket))
    assert [(p.seat0, p.seat1) for p in bracket.pairings(3)] == [(1, 2), (5, 3)]
    # Final: 2 beats 1 on game points after a draw; third place: 3 beats 5.
    final = Game(Pairing(3, 1, 2), GameResult(0.5, 0.5, points0=100, points1=120))
    third = Game(Pairing(3, 5, 3), GameResult.win(1))
    bracket = knockout_next_round(bracket, [final, third])
    assert bracket.current_round is None
    assert bracket.champion == 2
    rows = knockout_standings(bracket, field(8))
    assert [(r.rank, r.player_id) for r in rows] == [
        (1, 2), (2, 1), (3, 3), (4, 5), (5, 6), (5, 7), (5, 8), (8, 4),
    ]
    # Seed 4 lost by forfeit and played nothing else: never showed up, so last.
    assert rows[-1].no_show and rows[-1].games_played == 0
    assert rows[0].points == 3.0


def test_without_third_place_both_semi_losers_share_third() -> None:
    bracket = knockout_bracket(field(5))
    while bracket.current_round is not None:
        bracket = knockout_next_round(bracket, higher_seed_wins(bracket))
    rows = knockout_standings(bracket, field(5))
    assert [(r.rank, r.player_id) for r in rows] == [(1, 1), (2, 2), (3, 3), (3, 4), (5, 5)]
    # Seeds 1 to 3 had byes (a bye scores 1): seed 1 has bye + semi + final.
    assert rows[0].points == 3.0 and rows[0].games_played == 2


def test_three_players_third_place_is_a_walkover() -> None:
    bracket = knockout_bracket(field(3), third_place=True)
    bracket = knockout_next_round(bracket, higher_seed_wins(bracket))  # 2 beats 3
    assert bracket.third_place is not None and bracket.third_place.bye
    assert bracket.third_place.winner == 3
    bracket = knockout_next_round(bracket, higher_seed_wins(bracket))
    assert bracket.champion == 1


def test_standings_mid_way_share_first_place() -> None:
    bracket = knockout_bracket(field(4))
    bracket = knockout_next_round(bracket, higher_seed_wins(bracket))
    rows = knockout_standings(bracket, field(4))
    assert [(r.rank, r.player_id) for r in rows] == [(1, 1), (1, 2), (3, 3), (3, 4)]


def test_results_must_decide_every_match() -> None:
    bracket = knockout_bracket(field(4))
    with pytest.raises(TournamentError, match="no result"):
        knockout_next_round(bracket, higher_seed_wins(bracket)[:1])
    tie = [Game(Pairing(1, 1, 4), GameResult.draw(50, 50)), *higher_seed_wins(bracket)[1:]]
    with pytest.raises(TournamentError, match="no winner"):
        knockout_next_round(bracket, tie)
    with pytest.raises(TournamentError):
        knockout_bracket(field(1))
