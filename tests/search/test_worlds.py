"""Determinization: a world the seat cannot tell from the real one.

For every registered game with hidden information (a plugin that overrides
``determinize``), over random positions: the seat's view is unchanged, its own tiles and
the board stay, every hand keeps its size, the hidden tiles are the same set (so no tile
the seat has seen lands anywhere else), and no opponent holds a tile of a number it
could not follow (the voids tracked in ``positions``).
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.dominoes.tiles import PLAYABLE_MASK
from games.engine.plugin import GamePlugin
from games.search.worlds import determinize, stock_name

from .positions import random_position

HIDDEN = [(plugin, seats) for plugin in registry.all_games()
          if type(plugin).determinize is not GamePlugin.determinize
          for seats in plugin.seat_counts]


def hidden_tiles(state: object, seat: int, pile: str) -> set[int]:
    masks: list[int] = state.hand_masks  # type: ignore[attr-defined]
    tiles = {t for s, mask in enumerate(masks) if s != seat for t in range(28) if mask >> t & 1}
    stock: list[int] = getattr(state, pile)
    return tiles | set(stock[state.draw_pos:])  # type: ignore[attr-defined]


def test_some_game_has_hidden_information() -> None:
    assert HIDDEN


@pytest.mark.parametrize(("plugin", "seats"), HIDDEN, ids=lambda p: getattr(p, "key", p))
@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(0, 2**31), decisions=st.integers(0, 60), other=st.booleans())
def test_a_world_is_consistent_with_what_the_seat_saw(plugin: GamePlugin, seats: int, seed: int,
                                                      decisions: int, other: bool) -> None:
    position = random_position(plugin, seats, seed, decisions)
    state = position.state
    actor = state.to_act()
    if state.result is not None or actor is None:
        return
    drawn = getattr(state, "drawn_tile", -1)
    seat = (actor + 1) % seats if other and drawn < 0 else actor
    world = determinize(plugin, state, seat, random.Random(seed))
    assert plugin.view(world, seat) == plugin.view(state, seat)
    pile = stock_name(state)
    if pile is None:
        return
    real, dealt = state.hand_masks, world.hand_masks  # type: ignore[attr-defined]
    assert dealt[seat] == real[seat]
    assert world.board.links == state.board.links  # type: ignore[attr-defined]
    assert [bin(m).count("1") for m in dealt] == [bin(m).count("1") for m in real]
    assert hidden_tiles(world, seat, pile) == hidden_tiles(state, seat, pile)
    for other_seat in range(seats):
        if other_seat == seat:
            continue
        mask = dealt[other_seat] & ~(1 << drawn if drawn >= 0 else 0)
        assert mask & PLAYABLE_MASK[position.voids[other_seat]] == 0, (other_seat, position.voids)


@pytest.mark.parametrize(("plugin", "seats"), HIDDEN, ids=lambda p: getattr(p, "key", p))
def test_worlds_differ_from_the_real_deal(plugin: GamePlugin, seats: int) -> None:
    """The hidden information really is dealt again (not left where it is): worlds from
    different seeds differ (compared whole, so for any game)."""
    position = random_position(plugin, seats, 3, 2)
    state = position.state
    seat = state.to_act()
    assert seat is not None
    worlds = {pickle.dumps(determinize(plugin, state, seat, random.Random(i))) for i in range(10)}
    assert len(worlds) > 1


@pytest.mark.parametrize(("plugin", "seats"), HIDDEN, ids=lambda p: getattr(p, "key", p))
@settings(max_examples=30, deadline=None, database=None)
@given(seed=st.integers(0, 2**31), decisions=st.integers(0, 60))
def test_playing_a_world_leaves_the_real_state_as_it_was(plugin: GamePlugin, seats: int,
                                                         seed: int, decisions: int) -> None:
    """A world is a one-level copy (worlds.quick_copy): playing it to the end of the match,
    through hand ends and new deals, must not touch the state it was copied from."""
    state = random_position(plugin, seats, seed, decisions).state
    actor = state.to_act()
    if state.result is not None or actor is None:
        return
    before = pickle.dumps(state)
    world = determinize(plugin, state, actor, random.Random(seed))
    rng = random.Random(seed + 1)
    for _ in range(5000):
        if world.result is not None:
            break
        if world.needs_chance():
            plugin.apply_chance(world, plugin.sample_chance(world, rng), 0)
            continue
        moved = False
        for seat in range(seats):
            legal = world.legal_actions(seat)
            if legal:
                world.apply(seat, rng.choice(legal), 0)
                moved = True
                break
        if not moved:
            world.advance(world.next_deadline_us() or 0)
    assert pickle.dumps(state) == before
