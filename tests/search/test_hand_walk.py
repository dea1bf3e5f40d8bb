"""A hand walked for a search's tree (``GameState.hand_walk``) is the hand the protocol
plays.

From random positions of the domino games, the same random choices are made on a walk
and through the protocol (``drive.to_decision`` resolving what is forced): at every
decision both name the same seat and the same choices, each choice's points at once are
the playout policy's reading of it, and at the hand's end both hold the same scores and
agree on whether the game ended. Low targets and balances make many hands end the game.
Then the search on walks and on the protocol: legal choices, and the same statistics in
a position whose hand cannot end inside the tree.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.search.budget import Budget
from games.search.drive import Horizon, apply_legal, to_decision
from games.search.ismcts import evaluate, search
from games.search.playout import immediate_points

from .test_rollout import DOMINO_TABLES, _position


@settings(max_examples=150, deadline=None)
@given(table=st.sampled_from(DOMINO_TABLES), seed=st.integers(0, 10**6),
       decisions=st.integers(0, 40), low=st.booleans(), variant=st.integers(0, 3),
       play_seed=st.integers(0, 10**6))
def test_a_walk_makes_the_protocols_decisions(table: tuple[str, int], seed: int,
                                              decisions: int, low: bool, variant: int,
                                              play_seed: int) -> None:
    game, seats = table
    plugin = registry.game(game)
    state = _position(game, seats, seed, decisions, low, variant)
    if state.result is not None:  # type: ignore[attr-defined]
        return
    walk = state.hand_walk()  # type: ignore[attr-defined]
    if state.phase != "play":  # type: ignore[attr-defined]
        assert walk is None  # Spectacular Bid's auction: the protocol's way
        return
    assert walk is not None
    rng = random.Random(play_seed)
    horizon = Horizon(state, hands=1)  # type: ignore[arg-type]
    while (seat := walk.decision()) is not None:
        assert to_decision(plugin, state, rng, horizon) == seat  # type: ignore[arg-type]
        legal = state.legal_actions(seat)  # type: ignore[attr-defined]
        assert walk.codes == legal
        for code in legal:
            known = immediate_points(plugin, state, code)  # type: ignore[arg-type]
            assert known is not None and walk.points_now(code) == known[0]
        code = legal[rng.randrange(len(legal))]
        walk.play(code)
        apply_legal(state, seat, code)  # type: ignore[arg-type]
    assert to_decision(plugin, state, rng, horizon) is None  # type: ignore[arg-type]
    assert walk.scores == plugin.scores(state)  # type: ignore[arg-type]
    assert walk.game_over == (state.result is not None)  # type: ignore[attr-defined]


def test_a_walk_is_a_copy() -> None:
    plugin = registry.game("fives")
    state = _position("fives", 4, 7, 3, False, 1)
    before = plugin.view(state, None)  # type: ignore[arg-type]
    walk = state.hand_walk()  # type: ignore[attr-defined]
    twin = walk.copy()
    walk.play_out(random.Random(1), 0.2)
    assert walk.hand_over
    assert plugin.view(state, None) == before  # type: ignore[arg-type]
    assert not twin.hand_over and twin.decision() is not None  # the copy is untouched


@pytest.mark.parametrize("table", DOMINO_TABLES)
def test_the_search_on_walks_chooses_legal_actions(table: tuple[str, int]) -> None:
    game, seats = table
    plugin = registry.game(game)
    for seed in range(8):
        state = _position(game, seats, seed, 6 + seed, False, 1)
        seat = state.to_act()  # type: ignore[attr-defined]
        if state.result is not None or seat is None:  # type: ignore[attr-defined]
            continue
        stats = evaluate(plugin, state, seat, random.Random(seed),  # type: ignore[arg-type]
                         iterations=60)
        assert set(stats) <= set(state.legal_actions(seat))  # type: ignore[attr-defined]


def test_walks_grow_the_protocols_tree() -> None:
    """Early in a hand of four (every hand holds five tiles or more, nothing drawn yet, so
    no hand ends inside a shallow tree), both ways use the same random numbers: the
    trees' root statistics are the same (the walks' rounds at the root off: the
    protocol's way deals a world for every iteration)."""
    plugin = registry.game("fives")
    for seed in range(20):
        state = _position("fives", 4, seed, 2, False, 1)
        seat = state.to_act()  # type: ignore[attr-defined]
        if seat is None or len(state.legal_actions(seat)) < 2:  # type: ignore[attr-defined]
            continue
        roots = [search(plugin, state, seat, random.Random(seed),  # type: ignore[arg-type]
                        Budget(iterations=40), shortcut=shortcut, rounds=False)
                 for shortcut in (True, False)]
        fast, slow = ({key: (child.visits, round(child.totals[seat], 9))
                       for key, child in root.children.items()} for root in roots)
        assert fast == slow
