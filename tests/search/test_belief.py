"""The belief over deals read from the opponents' placements (games/search/belief.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import registry
from games.dominoes.board import Board
from games.dominoes.tiles import PLAYABLE_MASK, tile_from_name
from games.engine.protocol import Step
from games.fives import actions
from games.search.belief import PlacementBelief
from games.search.budget import Budget
from games.search.levels import LEVELS
from games.search.worlds import Dealer, stock_name

from .positions import random_position
from .test_worlds import HIDDEN, hidden_tiles

FIVES = registry.game("fives")


@dataclass
class Moves:
    """The little of a domino state that the belief reads: its board's kind and its moves."""

    board: Board = field(default_factory=lambda: Board(cross=False))
    moves: list[Step] = field(default_factory=list)

    def add(self, **fields: Any) -> Moves:
        seat, code = actions.action_from_dict(fields)
        self.moves.append(Step(seat, code, 0))
        return self


def mask(*names: str) -> int:
    return sum(1 << tile_from_name(name) for name in names)


def opening() -> Moves:
    """Seat 0 leads 4-6 (10 points); seat 1 puts 2-4 on the 4 (ends 6 + 2: nothing),
    where 1-6 on the 6 would have scored 5 (ends 1 + 4)."""
    return (Moves().add(seat=0, type="play", tile="4-6")
            .add(seat=1, type="play", tile="2-4", target="4-6", port="low"))


def hands_with(seat_one: int) -> list[int]:
    return [0, seat_one, mask("0-0", "0-1"), mask("0-2", "0-3")]


def test_a_hand_that_could_have_scored_and_did_not_is_less_likely() -> None:
    belief = PlacementBelief(FIVES, opening(), seat=0)  # type: ignore[arg-type]
    assert [p.seat for p in belief.placements] == [1]
    could_score = belief.log_weight(hands_with(mask("1-6", "3-3")))
    could_not = belief.log_weight(hands_with(mask("3-5", "3-3")))
    assert could_score < could_not - 3  # e^5 against nothing, less the other placements


def test_the_tiles_placed_since_count_in_the_hand_it_placed_from() -> None:
    """Its later placements were in its hand then: a deal is weighed with them."""
    moves = opening().add(seat=2, type="play", tile="0-6", target="4-6", port="high")
    moves.add(seat=1, type="play", tile="2-2", target="2-4", port="low")
    belief = PlacementBelief(FIVES, moves, seat=0)  # type: ignore[arg-type]
    first = next(p for p in belief.placements if p.seat == 1)
    assert first.placed_since == mask("2-4", "2-2")


def test_the_seats_own_placements_and_those_before_a_draw_are_not_read() -> None:
    def read_by(seat: int) -> list[int]:
        return [p.seat for p in PlacementBelief(FIVES, moves, seat).placements]  # type: ignore[arg-type]

    moves = opening().add(seat=2, type="draw")
    assert (read_by(0), read_by(1), read_by(2)) == ([1], [0], [0, 1])
    moves.add(seat=1, type="draw")
    assert (read_by(0), read_by(2)) == ([], [0])


@pytest.mark.parametrize(("plugin", "seats"), HIDDEN, ids=lambda p: getattr(p, "key", p))
@settings(max_examples=25, deadline=None, database=None)
@given(seed=st.integers(0, 2**31), decisions=st.integers(0, 60))
def test_a_weighed_world_keeps_every_constraint(plugin: Any, seats: int, seed: int,
                                               decisions: int) -> None:
    """The belief only weighs deals that the constraints allow: the seat's tiles, the
    hand sizes, the hidden set and the numbers an opponent could not follow all hold."""
    position = random_position(plugin, seats, seed, decisions)
    state = position.state
    seat = state.to_act()
    if state.result is not None or seat is None:
        return
    world = Dealer(plugin, state, seat, weighed=True).world(random.Random(seed))
    assert plugin.view(world, seat) == plugin.view(state, seat)
    pile = stock_name(state)
    if pile is None:  # not a domino game: the plugin's own deal, nothing to weigh
        return
    real, dealt = state.hand_masks, world.hand_masks  # type: ignore[attr-defined]
    assert dealt[seat] == real[seat]
    assert [bin(m).count("1") for m in dealt] == [bin(m).count("1") for m in real]
    assert hidden_tiles(world, seat, pile) == hidden_tiles(state, seat, pile)
    drawn = getattr(state, "drawn_tile", -1)
    for other in range(seats):
        if other != seat:
            held = dealt[other] & ~(1 << drawn if drawn >= 0 else 0)
            assert held & PLAYABLE_MASK[position.voids[other]] == 0


def test_against_players_who_score_the_belief_finds_the_holders_more_often() -> None:
    """Fives for four played by the greedy level (which scores when it can): over the
    worlds dealt at its decisions, the weighed deal puts more hidden tiles in the hand
    that really holds them than the deal under the constraints alone."""
    found = {True: 0, False: 0}
    for seed in range(3):
        state = FIVES.new_state(FIVES.parse_rules({"target": 100}, 4), 4)
        chance, mind = random.Random(seed), random.Random(seed + 100)
        for _ in range(60):
            if state.needs_chance():
                FIVES.apply_chance(state, FIVES.sample_chance(state, chance), 0)
                continue
            seat = state.to_act()
            if state.result is not None or seat is None:
                break
            for weighed in (True, False):
                dealer = Dealer(FIVES, state, seat, weighed=weighed)
                rng = random.Random(seed)
                for _ in range(20):
                    hands = dealer.world(rng).hand_masks  # type: ignore[attr-defined]
                    found[weighed] += sum(bin(hands[s] & state.hand_masks[s]).count("1")  # type: ignore[attr-defined]
                                          for s in range(4) if s != seat)
            state.apply(seat, LEVELS["easy"](FIVES, state, seat, mind, Budget(iterations=1)), 0)
    assert found[True] > 1.05 * found[False]
