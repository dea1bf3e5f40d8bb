"""Arena tournaments (pure): the streak arithmetic, the leaderboard's order, and the
pairing of the waiting players (hypothesis: nobody twice, never the last opponent when
anyone else waits, everyone paired who can be)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import DRAW, LOSS, WIN, TournamentError
from tournaments.formats.arena import (
    Waiting,
    game_points,
    leaderboard,
    on_streak,
    pair_waiting,
    score_of,
)

outcome = st.sampled_from([WIN, DRAW, LOSS])


def reference_points(outcomes: list[float]) -> list[int]:
    """Streak scoring spelled out: double while the two games before were both wins."""
    points = []
    for index, result in enumerate(outcomes):
        streak = index >= 2 and outcomes[index - 1] == WIN and outcomes[index - 2] == WIN
        base = {WIN: 2, DRAW: 1, LOSS: 0}[result]
        points.append(base * 2 if streak else base)
    return points


def test_streak_examples() -> None:
    assert game_points([WIN, WIN, WIN, WIN]) == [2, 2, 4, 4]
    assert game_points([WIN, WIN, DRAW, WIN]) == [2, 2, 2, 2]  # the draw ends the streak
    assert game_points([WIN, WIN, LOSS, WIN, WIN, WIN]) == [2, 2, 0, 2, 2, 4]
    assert game_points([DRAW, DRAW, DRAW]) == [1, 1, 1]
    assert on_streak([WIN, WIN]) and not on_streak([WIN, DRAW]) and not on_streak([WIN])
    with pytest.raises(TournamentError):
        game_points([0.25])


@given(st.lists(outcome, max_size=40))
def test_streak_arithmetic(outcomes: list[float]) -> None:
    points = game_points(outcomes)
    assert points == reference_points(outcomes)
    wins, draws = outcomes.count(WIN), outcomes.count(DRAW)
    assert 2 * wins + draws <= score_of(outcomes) <= 4 * wins + 2 * draws
    assert on_streak(outcomes) == (outcomes[-2:] == [WIN, WIN])
    # Without two wins in a row nothing is doubled.
    if not any(a == b == WIN for a, b in pairwise(outcomes)):
        assert score_of(outcomes) == 2 * wins + draws


def test_leaderboard_order() -> None:
    rows = leaderboard({1: [WIN, LOSS], 2: [DRAW, DRAW], 3: [WIN], 4: [], 5: [WIN, WIN, WIN]},
                       ratings={4: 1600})
    # 5: 8 points; 3 and 1: 2 points and a win each, 3 in fewer games; 2: 2 points, no win.
    assert [r.player for r in rows] == [5, 3, 1, 2, 4]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    top = rows[0]
    assert (top.score, top.games, top.wins, top.streak, top.points) == (8, 3, 3, True, (2, 2, 4))


def waiting_lists() -> st.SearchStrategy[list[Waiting]]:
    def build(ids: list[int], data: st.DataObject) -> list[Waiting]:
        found = []
        for player in ids:
            others = [p for p in ids if p != player]
            last = data.draw(st.none() | st.sampled_from([*others, 999])) if others else None
            found.append(Waiting(player, data.draw(st.integers(0, 30)), last,
                                 data.draw(st.floats(0, 100))))
        return found

    return st.builds(lambda ids, data: build(ids, data),
                     st.lists(st.integers(1, 60), unique=True, max_size=24), st.data())


def barred(a: Waiting, b: Waiting) -> bool:
    return a.last_opponent == b.player or b.last_opponent == a.player


def max_pairs(waiting: list[Waiting]) -> int:
    """The most pairs without a barred one (brute force, small lists only)."""
    if len(waiting) < 2:
        return 0
    first, rest = waiting[0], waiting[1:]
    best = max_pairs(rest)
    for other in rest:
        if not barred(first, other):
            best = max(best, 1 + max_pairs([w for w in rest if w is not other]))
    return best


@settings(max_examples=300)
@given(waiting_lists())
def test_pairing_invariants(waiting: list[Waiting]) -> None:
    pairs, left = pair_waiting(waiting)
    seen = [p for pair in pairs for p in pair] + left
    assert sorted(seen) == sorted(w.player for w in waiting)  # nobody twice, nobody lost
    by_id = {w.player: w for w in waiting}
    if len(waiting) > 2:
        assert not any(barred(by_id[a], by_id[b]) for a, b in pairs)
    if len(waiting) <= 10:
        best = max_pairs(waiting) if len(waiting) > 2 else len(waiting) // 2
        assert len(pairs) == best
    elif not any(barred(a, b) for a in waiting for b in waiting):
        assert len(left) == len(waiting) % 2


@given(st.lists(st.integers(0, 40), min_size=2, max_size=30))
def test_pairs_are_neighbours_in_score(scores: list[int]) -> None:
    waiting = [Waiting(index + 1, score, None, float(index)) for index, score in
               enumerate(scores)]
    pairs, left = pair_waiting(waiting)
    by_id = {w.player: w for w in waiting}
    kept = sorted((w for w in waiting if w.player not in left),
                  key=lambda w: (-w.score, w.since))
    expected = [(kept[i].player, kept[i + 1].player) for i in range(0, len(kept), 2)]
    assert sorted(pairs) == sorted(expected) or len(waiting) == 2
    for a, b in pairs:
        assert by_id[a].score >= by_id[b].score


def test_last_opponent_waits_for_another() -> None:
    pairs, left = pair_waiting([Waiting(1, 4, 2, 0), Waiting(2, 4, 1, 1), Waiting(3, 0, None, 2)])
    assert pairs == [(1, 3)] and left == [2]
    # Only the two of them waiting: they play again.
    assert pair_waiting([Waiting(1, 4, 2, 0), Waiting(2, 4, 1, 1)]) == ([(1, 2)], [])
    # ... unless somebody still playing can come: then they wait for that game.
    assert pair_waiting([Waiting(1, 4, 2, 0), Waiting(2, 4, 1, 1)], others_coming=True) == (
        [], [1, 2])
    assert pair_waiting([Waiting(1, 4, 3, 0), Waiting(2, 4, 4, 1)], others_coming=True) == (
        [(1, 2)], [])
    assert pair_waiting([Waiting(1, 0)]) == ([], [1])
    with pytest.raises(TournamentError):
        pair_waiting([Waiting(1, 0), Waiting(1, 2)])
