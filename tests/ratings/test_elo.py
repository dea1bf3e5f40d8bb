"""Tests for the pure Elo module :mod:`ratings.elo`."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from ratings import elo
from ratings.elo import (
    MatchOutcome,
    MatchStatus,
    PlayerRating,
    RatingChange,
    RatingKey,
    display,
    expected_score,
    is_provisional,
    k_factor,
    recompute,
    round_half_away,
    update,
)

NEW = PlayerRating()  # 1500, no games
GAME = "spectacular_bid"


def established(rating: int, games: int = 100, reached_2400: bool = False) -> PlayerRating:
    return PlayerRating(rating=rating, games=games, reached_2400=reached_2400)


# --- purity -------------------------------------------------------------------------------------


def test_module_imports_only_pure_standard_library() -> None:
    tree = ast.parse(Path(elo.__file__).read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.module is not None
            imported.add(node.module.split(".")[0])
    assert imported <= {"__future__", "collections", "dataclasses", "enum", "math", "typing"}
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert not names & {"open", "print", "input"}


# --- building blocks ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (0.0, 0),
        (0.4, 0),
        (0.49999999999999994, 0),
        (0.5, 1),
        (2.5, 3),
        (-2.5, -3),
        (-0.5, -1),
        (-0.4, 0),
        (1538.7738627987314, 1539),
        (2061.2261372012686, 2061),
        (1499.5, 1500),
        (1500.4999999, 1500),
    ],
)
def test_round_half_away(x: float, expected: int) -> None:
    assert round_half_away(x) == expected


@pytest.mark.parametrize(
    ("rating_a", "rating_b", "expected"),
    [
        (1500, 1500, 0.5),
        (1500, 1900, 1 / 11),
        (1900, 1500, 10 / 11),
        (1500, 2100, 1 / (1 + 10**1.5)),
        (2100, 1500, 1 - 1 / (1 + 10**1.5)),
        (1500, 2300, 1 / 101),
    ],
)
def test_expected_score(rating_a: int, rating_b: int, expected: float) -> None:
    assert expected_score(rating_a, rating_b) == pytest.approx(expected, rel=1e-12)
    assert expected_score(rating_a, rating_b) + expected_score(rating_b, rating_a) == (
        pytest.approx(1.0, rel=1e-12)
    )


@pytest.mark.parametrize(
    ("state", "k"),
    [
        (NEW, 40),
        (PlayerRating(games=29), 40),  # 29 completed: the 30th match still uses 40
        (PlayerRating(games=30), 20),  # 30 completed: the 31st match uses 20
        (PlayerRating(games=500), 20),
        (established(2399), 20),
        (established(2400, reached_2400=True), 10),
        (established(2650, reached_2400=True), 10),
        (established(2300, reached_2400=True), 10),  # dropped below 2400: stays 10
        (established(1800, reached_2400=True), 10),
        (PlayerRating(rating=2410, games=25, reached_2400=True), 10),  # 2400 beats "new"
        (established(2450, reached_2400=False), 10),  # hand-built state over 2400
    ],
)
def test_k_factor(state: PlayerRating, k: int) -> None:
    assert k_factor(state) == k


# --- one live update ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state_a", "state_b", "score_a", "rating_a", "rating_b"),
    [
        # equal ratings, both new (K=40): win +20, draw 0, loss -20
        (NEW, NEW, 1, 1520, 1480),
        (NEW, NEW, 0.5, 1500, 1500),
        (NEW, NEW, 0, 1480, 1520),
        # equal ratings, both established (K=20)
        (established(1500), established(1500), 1, 1510, 1490),
        (established(1700), established(1700), 0, 1690, 1710),
        # equal ratings, each side uses its own K
        (established(1500, reached_2400=True), NEW, 1, 1505, 1480),
        # a 600-point gap, both K=40: E(a) = 1/(1+10**1.5) = 0.0307
        (NEW, PlayerRating(rating=2100), 1, 1539, 2061),  # +38.77 / -38.77
        (NEW, PlayerRating(rating=2100), 0.5, 1519, 2081),  # +18.77 / -18.77
        (NEW, PlayerRating(rating=2100), 0, 1499, 2101),  # -1.23 / +1.23
        # the same gap, favourite established (K=20)
        (NEW, established(2100), 1, 1539, 2081),  # +38.77 / -19.39
        (NEW, established(2100), 0.5, 1519, 2091),  # +18.77 / -9.39
        (NEW, established(2100), 0, 1499, 2101),  # -1.23 / +0.61
        (established(2100), NEW, 0, 2081, 1539),  # seats swapped
        # a 400-point gap, K=20: E(a) = 1/11
        (established(1500), established(1900), 1, 1518, 1882),  # +18.18 / -18.18
        (established(1500), established(1900), 0.5, 1508, 1892),  # +8.18 / -8.18
        (established(1500), established(1900), 0, 1498, 1902),  # -1.82 / +1.82
        # a 200-point gap, mixed K
        (established(1700), NEW, 1, 1705, 1490),  # +4.81 / -9.61
        (established(1700), NEW, 0, 1685, 1530),  # -15.19 / +30.39
        # an 800-point gap: the favourite's win is worth almost nothing
        (established(2300), established(1500), 1, 2300, 1500),  # +0.2 / -0.2
    ],
)
def test_update(
    state_a: PlayerRating, state_b: PlayerRating, score_a: float, rating_a: int, rating_b: int
) -> None:
    new_a, new_b, change_a, change_b = update(state_a, state_b, score_a)
    assert (new_a.rating, new_b.rating) == (rating_a, rating_b)
    assert (change_a, change_b) == (rating_a - state_a.rating, rating_b - state_b.rating)
    assert (new_a.games, new_b.games) == (state_a.games + 1, state_b.games + 1)
    assert isinstance(new_a.rating, int) and isinstance(new_b.rating, int)


@pytest.mark.parametrize("score", [2, -1, 0.25, 0.75, 1.5])
def test_invalid_score_is_refused(score: float) -> None:
    with pytest.raises(ValueError, match="score must be"):
        update(NEW, NEW, score)
    with pytest.raises(ValueError, match="score must be"):
        MatchOutcome(GAME, 1, 2, score)


def test_states_are_immutable() -> None:
    before = PlayerRating()
    update(before, PlayerRating(), 1)
    assert before == PlayerRating(1500, 0, False)
    with pytest.raises(AttributeError):
        before.rating = 1600  # type: ignore[misc]


# --- the K changes ------------------------------------------------------------------------------


def test_k_drops_from_40_to_20_after_30_matches() -> None:
    """Alternate win/loss against an equal-rated opponent: every change is exactly K/2."""
    state = PlayerRating()
    changes = []
    for i in range(32):
        opponent = established(state.rating)
        state, _, change, _ = update(state, opponent, 1 if i % 2 == 0 else 0)
        changes.append(abs(change))
    assert changes == [20] * 30 + [10] * 2
    assert state.games == 32


def test_k_change_at_30_in_recompute() -> None:
    """Player 1 draws 29 matches, then wins the 30th (K=40) and 31st (K=20), each
    against a fresh 1500 opponent."""
    outcomes = [MatchOutcome(GAME, 1, 100 + i, 0.5) for i in range(29)]
    outcomes += [MatchOutcome(GAME, 1, 200, 1), MatchOutcome(GAME, 1, 201, 1)]
    states, changes = recompute(outcomes)
    assert [c.change_a for c in changes] == [0] * 29 + [20, 9]  # 20 * (1 - E(1520, 1500))
    assert states[(GAME, 1)] == PlayerRating(1529, 31, False)
    assert changes[29].before_a.games == 29 and k_factor(changes[29].before_a) == 40
    assert changes[30].before_a.games == 30 and k_factor(changes[30].before_a) == 20


def test_k_10_once_2400_reached_and_stays_after_dropping_below() -> None:
    """From 2380, against opponents of equal rating: win, win (reaches 2400), win, then
    losses below 2400 — K is 20, 20, then 10 for good."""
    state = established(2380, games=40)
    scores = [1, 1, 1, 0, 0, 0, 0, 0]
    seen = []
    for score in scores:
        state, _, change, _ = update(state, established(state.rating), score)
        seen.append((change, state.rating, state.reached_2400))
    assert seen == [
        (10, 2390, False),
        (10, 2400, True),  # exactly 2400 counts as reached
        (5, 2405, True),
        (-5, 2400, True),
        (-5, 2395, True),
        (-5, 2390, True),
        (-5, 2385, True),
        (-5, 2380, True),
    ]
    assert k_factor(state) == 10


@pytest.mark.parametrize(
    ("before", "score", "after", "reached"),
    [
        (established(2390), 1, 2400, True),
        (established(2389), 1, 2399, False),
        (established(2398), 0.5, 2398, False),
        (established(2390, reached_2400=True), 0, 2385, True),
    ],
)
def test_reached_2400_flag(before: PlayerRating, score: float, after: int, reached: bool) -> None:
    new, _, _, _ = update(before, established(before.rating), score)
    assert (new.rating, new.reached_2400) == (after, reached)


# --- which matches count ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "outcome",
    [
        MatchOutcome(GAME, 1, 2, 1, status=MatchStatus.ANNULLED),
        MatchOutcome(GAME, 1, 2, 0.5, status=MatchStatus.ABORTED),
        MatchOutcome(GAME, 1, 2, 1, rated=False),
        MatchOutcome(GAME, None, 2, 1),  # guest
        MatchOutcome(GAME, 1, None, 0),  # guest
        MatchOutcome(GAME, 1, 1, 1),  # the same player in both seats
    ],
)
def test_matches_that_do_not_count(outcome: MatchOutcome) -> None:
    assert not outcome.counts
    assert recompute([outcome]) == ({}, [])


def test_annulled_and_aborted_are_skipped_in_sequence() -> None:
    outcomes = [
        MatchOutcome(GAME, 1, 2, 1),
        MatchOutcome(GAME, 1, 2, 1, status=MatchStatus.ANNULLED),
        MatchOutcome(GAME, 2, 1, 1, status=MatchStatus.ABORTED),
        MatchOutcome(GAME, 1, 2, 0.5),
    ]
    states, changes = recompute(outcomes)
    only_finished = recompute([outcomes[0], outcomes[3]])
    assert states == only_finished[0]
    assert [c.index for c in changes] == [0, 3]
    assert [(c.change_a, c.change_b) for c in changes] == [(20, -20), (-2, 2)]
    assert states[(GAME, 1)] == PlayerRating(1518, 2, False)
    assert states[(GAME, 2)] == PlayerRating(1482, 2, False)


# --- recompute ----------------------------------------------------------------------------------


def test_recompute_records_before_and_after() -> None:
    states, changes = recompute([MatchOutcome(GAME, 7, 9, 0), MatchOutcome(GAME, 9, 7, 0.5)])
    assert changes[0] == RatingChange(
        index=0,
        game=GAME,
        player_a=7,
        player_b=9,
        score_a=0,
        before_a=NEW,
        after_a=PlayerRating(1480, 1),
        before_b=NEW,
        after_b=PlayerRating(1520, 1),
    )
    assert (changes[0].change_a, changes[0].change_b) == (-20, 20)
    # the second match starts from where the first left off (player 9 now sits as A)
    assert changes[1].before_a == PlayerRating(1520, 1)
    assert changes[1].before_b == PlayerRating(1480, 1)
    assert (changes[1].change_a, changes[1].change_b) == (-2, 2)  # 40 * (0.5 - 0.557)
    assert states == {(GAME, 7): PlayerRating(1482, 2), (GAME, 9): PlayerRating(1518, 2)}


def random_outcomes(seed: int, count: int) -> list[MatchOutcome]:
    rng = random.Random(seed)
    games = ["spectacular_bid", "dominoes", "fives"]
    outcomes = []
    for _ in range(count):
        a, b = rng.sample(range(1, 13), 2)
        status = rng.choices(list(MatchStatus), weights=[85, 8, 7])[0]
        outcomes.append(
            MatchOutcome(
                game=rng.choice(games),
                player_a=a if rng.random() > 0.03 else None,
                player_b=b,
                score_a=rng.choice([1, 1, 0.5, 0, 0]),
                status=status,
                rated=rng.random() > 0.05,
            )
        )
    return outcomes


@pytest.mark.parametrize("seed", [0, 1, 2, 2024])
def test_recompute_equals_live_updates(seed: int) -> None:
    outcomes = random_outcomes(seed, 400)
    live: dict[RatingKey, PlayerRating] = {}
    live_changes: list[tuple[int, int, int]] = []
    counted = 0
    for index, outcome in enumerate(outcomes):
        if not outcome.counts:
            continue
        assert outcome.player_a is not None and outcome.player_b is not None
        counted += 1
        key_a, key_b = (outcome.game, outcome.player_a), (outcome.game, outcome.player_b)
        new_a, new_b, change_a, change_b = update(
            live.get(key_a, PlayerRating()), live.get(key_b, PlayerRating()), outcome.score_a
        )
        live[key_a], live[key_b] = new_a, new_b
        live_changes.append((index, change_a, change_b))

    states, changes = recompute(iter(outcomes))
    assert states == live
    assert [(c.index, c.change_a, c.change_b) for c in changes] == live_changes
    assert 250 < counted < 400  # the mix really has skipped matches
    assert sum(s.games for s in states.values()) == 2 * counted
    # recomputing again is exact, not merely close
    assert recompute(outcomes) == (states, changes)


def test_different_games_are_independent() -> None:
    outcomes = random_outcomes(7, 300)
    states, changes = recompute(outcomes)
    for game in {o.game for o in outcomes}:
        alone_states, alone_changes = recompute([o for o in outcomes if o.game == game])
        assert alone_states == {k: v for k, v in states.items() if k[0] == game}
        assert [(c.change_a, c.change_b, c.after_a, c.after_b) for c in alone_changes] == [
            (c.change_a, c.change_b, c.after_a, c.after_b) for c in changes if c.game == game
        ]


def test_same_players_in_two_games() -> None:
    states, _ = recompute(
        [
            MatchOutcome("spectacular_bid", 1, 2, 1),
            MatchOutcome("dominoes", 1, 2, 0),
            MatchOutcome("spectacular_bid", 1, 2, 1),
        ]
    )
    assert states == {
        ("spectacular_bid", 1): PlayerRating(1538, 2),  # 1520 + 40 * (1 - 0.557)
        ("spectacular_bid", 2): PlayerRating(1462, 2),
        ("dominoes", 1): PlayerRating(1480, 1),
        ("dominoes", 2): PlayerRating(1520, 1),
    }


# --- provisional display ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "shown", "provisional"),
    [
        (NEW, "1500?", True),
        (PlayerRating(1523, 1), "1523?", True),
        (PlayerRating(1523, 9), "1523?", True),
        (PlayerRating(1523, 10), "1523", False),
        (PlayerRating(1523, 11), "1523", False),
        (established(2401, reached_2400=True), "2401", False),
    ],
)
def test_display(state: PlayerRating, shown: str, provisional: bool) -> None:
    assert display(state) == shown
    assert is_provisional(state) is provisional


def test_provisional_ends_after_ten_rated_matches() -> None:
    outcomes = [MatchOutcome(GAME, 1, 2, 1)]
    outcomes += [MatchOutcome(GAME, 1, 2, 0.5, status=MatchStatus.ANNULLED)] * 5
    outcomes += [MatchOutcome(GAME, 1, 2, 0.5)] * 9
    states, changes = recompute(outcomes)
    assert display(changes[-1].before_a).endswith("?")  # 9 completed before the 10th
    assert states[(GAME, 1)].games == 9 + 1
    assert not display(states[(GAME, 1)]).endswith("?")
    assert display(states[(GAME, 1)]) == str(states[(GAME, 1)].rating)
