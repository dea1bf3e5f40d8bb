"""The TRF export: FIDE's column layout, and py4swiss reads it back strictly."""

from __future__ import annotations

from pathlib import Path

from py4swiss.engines import DutchEngine  # type: ignore[import-untyped]
from py4swiss.trf import TrfParser  # type: ignore[import-untyped]

from tests.tournaments.test_standings import SWISS_GAMES, SWISS_PLAYERS
from tournaments.formats import PlayerEntry, swiss_pair, to_trf
from tournaments.formats.trf import build_trf, starting_numbers

EXPECTED = """\
012 Club Swiss
062 6
092 Swiss (Dutch)
001    1      A                                 2000                             2.5    1     4 w 1     5 b 1     2 w =
001    2      B                                 1900                             2.0    3     3 w =  0000 - U     1 b =
001    3      C                                 1800                             2.5    2     2 b =     4 w +     5 w 1
001    4      D                                 1700                             0.0    5     1 b 0     3 b -  0000 - Z
001    5      E                                 1600                             1.0    4     6 w +     1 w 0     3 b 0
001    6      F                                 1500                             0.0    6     5 b -  0000 - Z  0000 - Z
XXR 5
XXC white1
XXZ 4 6
"""  # noqa: E501  (TRF lines are fixed-width)


def test_export_of_the_hand_worked_swiss() -> None:
    # Ranks are the standings' (A, C, B, E, D, F); withdrawn players are XXZ. The pairs
    # that met in a forfeit (C-D, E-F) are shown paired, with no XXP line saying they may
    # not meet: the file would contradict itself (the server's own pairing still forbids
    # them: test_swiss.py, test_players_who_met_by_forfeit_do_not_meet_again).
    assert to_trf(SWISS_PLAYERS, SWISS_GAMES, total_rounds=5, title="Club Swiss") == EXPECTED


def test_the_export_never_forbids_a_pair_it_shows_paired() -> None:
    text = to_trf(SWISS_PLAYERS, SWISS_GAMES, total_rounds=5)
    assert not [line for line in text.splitlines() if line.startswith("XXP")]


def test_py4swiss_parses_the_export_strictly_and_pairs_from_it(tmp_path: Path) -> None:
    path = tmp_path / "club.trf"
    path.write_text(EXPECTED, encoding="utf-8")
    parsed = TrfParser.parse(path, strict=True)
    assert [s.points_times_ten for s in parsed.player_sections] == [25, 20, 25, 0, 10, 0]
    assert [str(s.results[1].result.value) for s in parsed.player_sections] == [
        "1", "U", "+", "-", "0", "Z",
    ]
    pairs = {frozenset((p.white, p.black)) for p in DutchEngine.generate_pairings(parsed)}
    assert all(4 not in pair and 6 not in pair for pair in pairs)
    assert pairs == {frozenset((1, 3)), frozenset((2, 5))}  # A-C, B-E: the only new pairs


def test_starting_numbers_follow_rating_then_id() -> None:
    players = [PlayerEntry(7, 1500), PlayerEntry(3, 1500), PlayerEntry(9, 1800)]
    assert starting_numbers(players) == {9: 1, 3: 2, 7: 3}


def test_names_are_cut_to_the_column_and_cleaned() -> None:
    player = PlayerEntry(1, 12345, "A\nvery long name that does not fit the column at all")
    line = build_trf([player], [], rounds_played=0, total_rounds=1).text.splitlines()[2]
    assert line[14:47] == "A very long name that does not fi"
    assert line[48:52] == "9999"  # ratings are four digits in a TRF


def test_export_with_late_entrant_who_has_not_joined_yet() -> None:
    players = [*SWISS_PLAYERS, PlayerEntry(7, 2100, "G", joined_at_round=5)]
    assert "G" not in to_trf(players, SWISS_GAMES, total_rounds=5)


def test_round_one_export_lists_everyone_without_results() -> None:
    players = [PlayerEntry(i, 2000 - i) for i in range(1, 5)]
    text = to_trf(players, [], total_rounds=3)
    assert text.count("\n001 ") == 4 and "XXR 3" in text
    assert swiss_pair(players, [], 1)  # the same field pairs
