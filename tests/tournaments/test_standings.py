"""Standings and tiebreaks against tables worked out by hand (in the comments)."""

from __future__ import annotations

import pytest

from tournaments.formats import (
    Format,
    Game,
    GameResult,
    Pairing,
    PlayerEntry,
    TournamentError,
    crosstable,
    standings,
    to_csv,
    to_trf,
)

W0, W1, D = GameResult.win(0), GameResult.win(1), GameResult.draw()


def g(round_no: int, a: int, b: int | None, result: GameResult | None = None) -> Game:
    return Game(Pairing(round_no, a, b), result)


# --- A Swiss of six, three rounds -------------------------------------------------------
#
# A 2000, B 1900, C 1800, D 1700, E 1600, F 1500 (F never shows up; D withdraws).
#   R1: A-D 1-0 (100-60)  B-C ½-½ (80-80)  E-F forfeit, E wins
#   R2: E-A 0-1 (70-100)  C-D forfeit, C wins  B bye               (F withdrawn)
#   R3: A-B ½-½ (90-90)   C-E 1-0 (100-40)                         (D withdrawn)
#
# Points:  A 1+1+½ = 2.5   B ½+1+½ = 2   C ½+1+1 = 2.5   D 0   E 1+0+0 = 1   F 0
# Adjusted scores (unplayed rounds count ½, for the opponents' Buchholz):
#   A 2.5   B ½+½+½ = 1.5   C ½+½+1 = 2   D 0+½+½ = 1   E ½+0+0 = 0.5   F 1.5
# Virtual opponent for an unplayed round R (n = 3): SPR + (1 - SfPR) + ½(n - R)
#   B R2 bye:     0.5 + 0 + 0.5 = 1      C R2 forfeit win: 0.5 + 0 + 0.5 = 1
#   D R2 forfeit: 0 + 1 + 0.5 = 1.5      D R3 absent: 0 + 1 + 0 = 1
#   E R1 forfeit win: 0 + 0 + 1 = 1
#   F R1 forfeit: 0 + 1 + 1 = 2          F R2: 0 + 1 + 0.5 = 1.5     F R3: 0 + 1 + 0 = 1
# Buchholz (values per round)           median (without highest and lowest)
#   A D 1 + E 0.5 + B 1.5   = 3.0        1.0
#   B C 2 + v 1 + A 2.5     = 5.5        2.0
#   C B 1.5 + v 1 + E 0.5   = 3.0        1.0
#   D A 2.5 + v 1.5 + v 1   = 5.0        1.5
#   E v 1 + A 2.5 + C 2     = 5.5        2.0
#   F v 2 + v 1.5 + v 1     = 4.5        1.5
# A and C are level on points, Buchholz and median; they never met, so head to head
# does not apply (0 each); game points decide: A 100+100+90 = 290, C 80+0+100 = 180.
# F never showed up: last, whatever his numbers.
SWISS_PLAYERS = [
    PlayerEntry(1, 2000, "A"),
    PlayerEntry(2, 1900, "B"),
    PlayerEntry(3, 1800, "C"),
    PlayerEntry(4, 1700, "D", withdrawn=True),
    PlayerEntry(5, 1600, "E"),
    PlayerEntry(6, 1500, "F", withdrawn=True),
]
SWISS_GAMES = [
    g(1, 1, 4, GameResult.win(0, 100, 60)),
    g(1, 2, 3, GameResult.draw(80, 80)),
    g(1, 5, 6, GameResult.forfeit_win(0)),
    g(2, 5, 1, GameResult.win(1, 70, 100)),
    g(2, 3, 4, GameResult.forfeit_win(0)),
    g(2, 2, None),
    g(3, 1, 2, GameResult.draw(90, 90)),
    g(3, 3, 5, GameResult.win(0, 100, 40)),
]


def test_swiss_table_by_hand() -> None:
    rows = standings(Format.SWISS, SWISS_PLAYERS, SWISS_GAMES)
    got = [
        (r.rank, r.name, r.points, r.tiebreaks["buchholz"], r.tiebreaks["median_buchholz"],
         r.tiebreaks["head_to_head"], r.tiebreaks["game_points"], r.no_show)
        for r in rows
    ]
    assert got == [
        (1, "A", 2.5, 3.0, 1.0, 0.0, 290.0, False),
        (2, "C", 2.5, 3.0, 1.0, 0.0, 180.0, False),
        (3, "B", 2.0, 5.5, 2.0, 0.0, 170.0, False),
        (4, "E", 1.0, 5.5, 2.0, 0.0, 110.0, False),
        (5, "D", 0.0, 5.0, 1.5, 0.0, 60.0, False),
        (6, "F", 0.0, 4.5, 1.5, 0.0, 0.0, True),
    ]
    assert list(rows[0].tiebreaks) == ["buchholz", "median_buchholz", "head_to_head", "game_points"]
    assert [r.games_played for r in rows] == [3, 2, 2, 2, 1, 0]


def test_swiss_standings_part_way() -> None:
    # After round 1 (n = 1): A beat D (D's adjusted score 0); E's forfeit win meets a
    # virtual opponent of 0 + (1 - 1) + 0 = 0; level, and they never met: A's 100 game
    # points put him first. B and C drew: ½ each, level on everything, by rating.
    rows = standings(Format.SWISS, SWISS_PLAYERS, SWISS_GAMES, rounds=1)
    assert [(r.name, r.points) for r in rows][:3] == [("A", 1.0), ("E", 1.0), ("B", 0.5)]
    by_name = {r.name: r for r in rows}
    assert by_name["A"].tiebreaks["buchholz"] == 0.0
    assert by_name["E"].tiebreaks["buchholz"] == 0.0
    # F lost by forfeit: a virtual opponent of 0 + (1 - 0) + 0 = 1.
    assert by_name["F"].tiebreaks["buchholz"] == 1.0


def test_player_who_never_showed_up_is_below_everyone_who_played() -> None:
    # X beat Y; Z had the bye (1 point) and then withdrew: more points than Y, never played.
    players = [PlayerEntry(1, 1500, "X"), PlayerEntry(2, 1500, "Y"), PlayerEntry(3, 2000, "Z")]
    games = [g(1, 1, 2, W0), g(1, 3, None)]
    rows = standings(Format.SWISS, players, games)
    assert [(r.name, r.points, r.no_show) for r in rows] == [
        ("X", 1.0, False), ("Y", 0.0, False), ("Z", 1.0, True),
    ]


def test_forfeit_winner_showed_up() -> None:
    players = [PlayerEntry(1, 1500, "X"), PlayerEntry(2, 1500, "Y")]
    rows = standings(Format.SWISS, players, [g(1, 1, 2, GameResult.forfeit_win(0))])
    assert [(r.name, r.no_show) for r in rows] == [("X", False), ("Y", True)]


# --- A round robin of four ------------------------------------------------------------
#
# A 2000, B 1990, C 1980, D 1970.
#   R1: A-D 1-0   B-C 1-0      R2: D-C ½-½   A-B ½-½      R3: B-D 1-0   C-A 1-0
# Points: A 1+½+0 = 1.5   B 1+½+1 = 2.5   C 0+½+1 = 1.5   D 0+½+0 = 0.5
# Sonneborn-Berger (beaten opponents' points, half of drawn ones'):
#   A: D 0.5 + ½·B 2.5 = 1.75          B: C 1.5 + ½·A 1.5 + D 0.5 = 2.75
#   C: A 1.5 + ½·D 0.5 = 1.75          D: ½·C 1.5 = 0.75
# A and C are level on points and SB; C beat A: head to head C 1, A 0.
RR_PLAYERS = [
    PlayerEntry(1, 2000, "A"), PlayerEntry(2, 1990, "B"),
    PlayerEntry(3, 1980, "C"), PlayerEntry(4, 1970, "D"),
]
RR_GAMES = [
    g(1, 1, 4, W0), g(1, 2, 3, W0),
    g(2, 4, 3, D), g(2, 1, 2, D),
    g(3, 2, 4, W0), g(3, 3, 1, W0),
]


def test_round_robin_table_by_hand() -> None:
    rows = standings(Format.ROUND_ROBIN, RR_PLAYERS, RR_GAMES)
    got = [
        (r.rank, r.name, r.points, r.tiebreaks["sonneborn_berger"], r.tiebreaks["head_to_head"])
        for r in rows
    ]
    assert got == [
        (1, "B", 2.5, 2.75, 0.0),
        (2, "C", 1.5, 1.75, 1.0),
        (3, "A", 1.5, 1.75, 0.0),
        (4, "D", 0.5, 0.75, 0.0),
    ]
    assert list(rows[0].tiebreaks) == ["sonneborn_berger", "head_to_head", "game_points"]


def test_three_way_tie_shares_the_rank_when_nothing_separates() -> None:
    # A beats B, B beats C, C beats A, everyone beats D (all game points 0):
    # A, B, C 2 points each; SB 2 (the beaten tied player's 2 + D's 0) each; the
    # mini-table among them is 1 each: they share rank 1, listed by rating.
    games = [
        g(1, 1, 2, W0), g(1, 3, 4, W0), g(2, 2, 3, W0),
        g(2, 1, 4, W0), g(3, 3, 1, W0), g(3, 2, 4, W0),
    ]
    rows = standings(Format.ROUND_ROBIN, RR_PLAYERS, games)
    assert [(r.rank, r.name, r.tiebreaks["sonneborn_berger"]) for r in rows] == [
        (1, "A", 2.0), (1, "B", 2.0), (1, "C", 2.0), (4, "D", 0.0),
    ]
    assert all(r.tiebreaks["head_to_head"] == 1.0 for r in rows[:3])


def test_double_round_robin_sonneborn_berger_counts_each_game() -> None:
    # X and Y meet twice: X wins then draws. X 1.5, Y 0.5.
    # SB: X = 1·0.5 + ½·0.5 = 0.75; Y = ½·1.5 = 0.75.
    players = [PlayerEntry(1, 1500, "X"), PlayerEntry(2, 1400, "Y")]
    rows = standings(Format.ROUND_ROBIN, players, [g(1, 1, 2, W0), g(2, 2, 1, D)])
    assert [(r.name, r.points, r.tiebreaks["sonneborn_berger"]) for r in rows] == [
        ("X", 1.5, 0.75), ("Y", 0.5, 0.75),
    ]


def test_crosstable() -> None:
    table = crosstable(RR_PLAYERS, RR_GAMES)
    assert table.order == (2, 3, 1, 4)
    assert table.cells[(3, 1)] == ("1",) and table.cells[(1, 3)] == ("0",)
    assert table.cells[(4, 3)] == ("½",)
    assert table.grid() == [
        ["", "", "1", "2", "3", "4", "points"],
        ["1", "B", "X", "1", "½", "1", "2½"],
        ["2", "C", "0", "X", "1", "½", "1½"],
        ["3", "A", "½", "0", "X", "1", "1½"],
        ["4", "D", "0", "½", "0", "X", "½"],
    ]


def test_crosstable_marks_forfeits_and_double_meetings() -> None:
    players = [PlayerEntry(1, 1500, "X"), PlayerEntry(2, 1400, "Y")]
    games = [g(1, 1, 2, GameResult.forfeit_win(1)), g(2, 2, 1, D)]
    assert crosstable(players, games).cells[(1, 2)] == ("-", "½")


def test_csv() -> None:
    rows = standings(Format.SWISS, SWISS_PLAYERS, SWISS_GAMES)
    lines = to_csv(rows).splitlines()
    assert lines[0] == (
        "rank,player_id,start_rank,name,rating,points,games_played,buchholz,median_buchholz,"
        "head_to_head,game_points,status"
    )
    assert lines[1] == "1,1,1,A,2000,2.5,3,3,1,0,290,"
    assert lines[5] == "5,4,4,D,1700,0,1,5,1.5,0,60,withdrawn"
    assert lines[6] == "6,6,6,F,1500,0,0,4.5,1.5,0,0,no-show"
    # start_rank is the TRF's number of the same player: the two exports join on it.
    trf = to_trf(SWISS_PLAYERS, SWISS_GAMES, total_rounds=5)
    by_number = {line[4:8].strip(): line[14:47].strip() for line in trf.splitlines()
                 if line.startswith("001")}
    for line in lines[1:]:
        cells = line.split(",")
        assert by_number[cells[2]] == cells[3], line


def test_csv_quotes_names() -> None:
    rows = standings(Format.SWISS, [PlayerEntry(1, 1500, 'Smith, "Al"')], [])
    assert to_csv(rows).splitlines()[1] == '1,1,1,"Smith, ""Al""",1500,0,0,0,0,0,0,no-show'


def test_bad_input_is_refused() -> None:
    with pytest.raises(TournamentError, match="unknown player 9"):
        standings(Format.SWISS, RR_PLAYERS, [g(1, 1, 9, W0)])
    with pytest.raises(TournamentError, match="paired twice"):
        standings(Format.SWISS, RR_PLAYERS, [g(1, 1, 2, W0), g(1, 1, 3, W0)])
    with pytest.raises(TournamentError, match="bracket"):
        standings(Format.KNOCKOUT, RR_PLAYERS, [])
    with pytest.raises(TournamentError):
        GameResult(1.0, 1.0)
    with pytest.raises(TournamentError):
        GameResult(0.5, 0.5, forfeit=True)
