"""Building deals and driving a Fives game in tests.

Tiles are written as the spec writes them (``"1-4"``). A deal is given as each seat's
hand and the first bazaar tiles in draw order; the other tiles follow in set order.
A move is ``"draw"``, ``"resign"``, ``"3-6>6-6:line_a"`` (tile > target : port) or
``"5-5"`` (a lead).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from games.dominoes.board import PORT_NAMES
from games.dominoes.tiles import tile_name
from games.engine.plugin import LogEntry
from games.engine.protocol import Illegal, Outcome
from games.fives import actions as A
from games.fives.plugin import GAME
from games.fives.rules import Rules
from games.fives.state import Deal, FivesState
from tests.domino_moves import applied, pile, placement, placement_name, tiles, us


def make_deal(*hands: str, bazaar: str = "") -> Deal:
    """One hand of seven per seat; ``bazaar`` lists the first draws, the rest follow."""
    held = [tiles(hand) for hand in hands]
    return Deal.checked(held, pile(held, tiles(bazaar)), len(hands))


def code(move: str) -> int:
    if move in A.SIMPLE_TYPES:
        return A.SIMPLE_TYPES[move]
    return placement(move)


def move_name(action: int) -> str:
    if A.is_play(action):
        return placement_name(action)
    return A.action_type(action)


def start(*hands: str, bazaar: str = "", rules: Rules | None = None,
          lots: str | None = None, now_us: int = 0) -> FivesState:
    deal = make_deal(*hands, bazaar=bazaar)
    state = FivesState(rules or Rules(), len(hands))
    state.deal(deal, now_us, lots=tiles(lots) if lots is not None else None)
    return state


def apply_ok(state: FivesState, seat: int, move: str | int, now_us: int = 0) -> Outcome:
    return applied(state, seat, code(move) if isinstance(move, str) else move, move, now_us)


def play(state: FivesState, *moves: str, now_us: int = 0) -> list[int]:
    """Play ``moves`` by whoever is to act; returns the points of each placement."""
    points = []
    for move in moves:
        seat = state.to_act()
        assert seat is not None, f"nobody is to act for {move!r}"
        outcome = apply_ok(state, seat, move, now_us)
        mine = [s for s in outcome.steps if s.seat == seat and not s.forced]
        points.append(mine[0].points if mine else 0)
    return points


def places(state: FivesState) -> set[str]:
    return {f"{tile_name(t)}:{PORT_NAMES[p]}" for t, p, _ in state.board.places}


def play_to_the_end(rules: Rules, seats: int, rng: random.Random,
                    choose: Callable[[FivesState, int], int]) -> FivesState:
    """A game through the plugin to its end: chance drawn from ``rng``, each decision
    ``choose(state, seat)``, a millisecond apart."""
    state = GAME.new_state(rules, seats)
    t = 0
    while state.result is None:
        if state.needs_chance():
            GAME.apply_chance(state, GAME.sample_chance(state, rng), t)
            continue
        seat = state.to_act()
        assert seat is not None
        t += 1000
        state.apply(seat, choose(state, seat), t)
    return state


@dataclass
class Played:
    """A random game played through the plugin, with the log the server would store."""

    state: FivesState
    log: list[LogEntry] = field(default_factory=list)
    players: list[str] = field(default_factory=list)


def random_game(seed: int, seats: int = 2, rules: Rules | None = None, *,
                resign_chance: float = 0.0, max_think_s: float = 3.0,
                on_step: object = None) -> Played:
    """Random legal play, as the server would run it: time events logged when a clock
    runs out, then the command (logged only when applied)."""
    rng = random.Random(seed)
    state = GAME.new_state(rules or Rules(), seats)
    played = Played(state, [], [f"p{i}" for i in range(seats)])
    t = 0
    while state.result is None:
        if state.needs_chance():
            t += rng.randint(0, us(2))
            if state.hand_no >= 0 and rng.random() < resign_chance:
                seat = rng.randrange(seats)  # a resignation between hands
                resigned = state.apply(seat, A.RESIGN, t)
                assert isinstance(resigned, Outcome) and resigned.applied
                played.log.append(LogEntry("action", seat, GAME.action_to_dict(seat, A.RESIGN), t))
                break
            outcome = GAME.sample_chance(state, rng)
            GAME.apply_chance(state, outcome, t)
            played.log.append(LogEntry("chance", None, outcome, t))
        else:
            t += rng.randint(0, us(max_think_s))
            deadline = state.next_deadline_us()
            if deadline is not None and t >= deadline:
                state.advance(t)
                played.log.append(LogEntry("time", None, {}, t))
                break
            if rng.random() < resign_chance:
                seat, action = rng.randrange(seats), A.RESIGN
            else:
                seat = state.to_act()
                assert seat is not None
                action = rng.choice(state.legal_actions(seat))
            outcome = state.apply(seat, action, t)
            assert isinstance(outcome, Outcome) and outcome.applied
            played.log.append(LogEntry("action", seat, GAME.action_to_dict(seat, action), t))
        if callable(on_step):
            on_step(state)
    return played


def is_illegal(outcome: object) -> bool:
    return isinstance(outcome, Illegal)
