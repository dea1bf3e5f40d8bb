"""Determinization: the hidden part of a state drawn again, consistent with what a seat saw.

The plugin's ``determinize`` deals the hidden tiles again keeping each hand's size
(``games/dominoes/hidden.py``). A domino state (``hand_masks``, ``draw_pos``, a ``board``
and a ``boneyard`` or ``bazaar``) is dealt here instead, under what the seat also knows:
the numbers an opponent could not follow. An opponent who drew or passed while the
board's open values were V held no tile of V then; the tiles it holds now were all held
at each such moment that came after the last turn in which it drew (a draw brings in
unknown tiles), so none of its tiles now shows a value of those moments. That is sound
(the true deal always satisfies it) and covers every pass, and every draw of the last
turn that drew; the hand sizes, the seat's own tiles, the board and the tiles already
drawn stay as they are.

A tile an opponent drew and must play now (``drawn_tile``) stays where it is: only the
seat to act ever searches, and that is its own. A game without hidden information gets
the plugin's plain copy.
"""

from __future__ import annotations

import copy
import math
import random
from itertools import accumulate

from games.dominoes.hidden import voids
from games.dominoes.tiles import PLAYABLE_MASK, mask_of, tiles_in
from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState, HandWalk

from .belief import PlacementBelief

STOCK_NAMES = ("boneyard", "bazaar")
GREEDY_TRIES = 40
# Deals weighed for a belief: enough that the likely ones are there, few enough to deal in
# a few milliseconds (Fives for four, 2,140 decisions at 1,500 iterations: regret 32.5
# with 256, 32.6 with 1,024).
POOL = 256


def stock_name(state: GameState) -> str | None:
    """The name of a domino state's undrawn pile, or None for a state of another kind."""
    if not all(hasattr(state, name) for name in ("hand_masks", "draw_pos", "board", "moves")):
        return None
    return next((name for name in STOCK_NAMES if hasattr(state, name)), None)


def slack(pool: list[int], sizes: dict[int, int], allowed: dict[int, int]) -> dict[int, int]:
    """Per hidden seat, how many more tiles of ``pool`` it may hold than it must."""
    pool_mask = mask_of(pool)
    return {s: (allowed[s] & pool_mask).bit_count() - sizes[s] for s in sizes}


def _deal_under(pool: list[int], sizes: dict[int, int], allowed: dict[int, int],
                room_left: dict[int, int], rng: random.Random) -> dict[int, int] | None:
    """Hand masks for the hidden seats from ``pool`` (the rest is the stock), each seat
    taking only tiles in its ``allowed`` mask; None when this random try got stuck. The
    seats with the least ``room_left`` (``slack``) choose first, each taking its first
    allowed tiles in a shuffled order of the pool."""
    left = list(pool)
    rng.shuffle(left)
    masks: dict[int, int] = {}
    order = sorted(sizes, key=lambda s: (room_left[s], rng.random()))
    taken = 0
    for seat in order:
        room = allowed[seat] & ~taken
        need = sizes[seat]
        mask = count = 0
        if need:
            for tile in left:
                if room >> tile & 1:
                    mask |= 1 << tile
                    count += 1
                    if count == need:
                        break
        if count < need:
            return None
        masks[seat] = mask
        taken |= mask
    return masks


class Dealer:
    """Deals worlds for one seat's search: what the seat knows is read once, here.

    ``weighed``: the worlds are also weighed by the opponents' placements
    (``belief.PlacementBelief``): a pool of ``POOL`` deals of the hands under the
    constraints is made at the first world, and each world's hands are drawn from it by
    those weights."""

    def __init__(self, plugin: GamePlugin, state: GameState, seat: int | None,
                 weighed: bool = False) -> None:
        self.plugin, self.state, self.seat = plugin, state, seat
        self.pile = stock_name(state)
        self.belief: PlacementBelief | None = None
        self.pool_hands: list[list[int]] = []
        self.pool_weights: list[float] = []
        if self.pile is None:
            return
        hands: list[int] = list(state.hand_masks)  # type: ignore[attr-defined]
        stock: list[int] = list(getattr(state, self.pile))
        drawn: int = state.draw_pos  # type: ignore[attr-defined]
        kept = getattr(state, "drawn_tile", -1)
        holder = state.to_act()
        empty_of = voids(plugin, state)
        self.hands = hands
        self.hidden = [s for s in range(state.num_seats) if s != seat]
        self.fixed = {s: (1 << kept if s == holder and kept >= 0 else 0) for s in self.hidden}
        self.drawn_stock = stock[:drawn]
        self.pool = [t for s in self.hidden for t in tiles_in(hands[s] & ~self.fixed[s])]
        self.pool += stock[drawn:]
        self.sizes = {s: bin(hands[s] & ~self.fixed[s]).count("1") for s in self.hidden}
        self.allowed = {s: ~PLAYABLE_MASK[empty_of[s]] & ((1 << 28) - 1) for s in self.hidden}
        self.slack = slack(self.pool, self.sizes, self.allowed)
        if weighed and seat is not None:
            belief = PlacementBelief(plugin, state, seat)
            self.belief = belief if belief.placements else None

    def world(self, rng: random.Random) -> GameState:
        """A copy of the state that the seat cannot tell from it."""
        if self.pile is None:
            return self.plugin.determinize(self.state, self.seat, rng)
        world = quick_copy(self.state)
        hands, pile = self._deal(rng)
        world.hand_masks = hands  # type: ignore[attr-defined]
        setattr(world, self.pile, pile)
        return world

    def start_walk(self) -> HandWalk | None:
        """The state's ``hand_walk`` where this dealer can deal it (a domino state)."""
        return self.state.hand_walk() if self.pile is not None else None

    def walk(self, start: HandWalk, rng: random.Random) -> HandWalk:
        """A copy of ``start`` (from ``start_walk``) dealt as ``world`` deals the state,
        with the same random numbers."""
        walk = start.copy()
        walk.hands, walk.pile = self._deal(rng)  # type: ignore[attr-defined]
        return walk

    def _deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """Every seat's hand mask and the pile, the hidden tiles dealt again (drawn from
        the weighed pool when there is a belief)."""
        if self.belief is None:
            return self._with_pile(self._hands_under_constraints(rng), rng)
        if not self.pool_hands:
            self.pool_hands = [self._hands_under_constraints(rng) for _ in range(POOL)]
            logs = [self.belief.log_weight(hands) for hands in self.pool_hands]
            top = max(logs)
            self.pool_weights = list(accumulate(math.exp(log - top) for log in logs))
        hands = rng.choices(self.pool_hands, cum_weights=self.pool_weights)[0]
        # The pile is shuffled again for every world: the belief says nothing of its order.
        return self._with_pile(list(hands), rng)

    def _hands_under_constraints(self, rng: random.Random) -> list[int]:
        """Every seat's hand mask, the hidden tiles dealt again."""
        for _ in range(GREEDY_TRIES):
            masks = _deal_under(self.pool, self.sizes, self.allowed, self.slack, rng)
            if masks is not None:
                break
        else:  # the true deal always fits
            masks = {s: self.hands[s] & ~self.fixed[s] for s in self.hidden}
        new_hands = list(self.hands)
        for s in self.hidden:
            new_hands[s] = masks[s] | self.fixed[s]
        return new_hands

    def _with_pile(self, hands: list[int], rng: random.Random) -> tuple[list[int], list[int]]:
        """``hands`` and the pile: the hidden tiles that no hidden hand took, shuffled."""
        taken = 0
        for s in self.hidden:
            taken |= hands[s]
        rest = [t for t in self.pool if not taken >> t & 1]
        rng.shuffle(rest)
        return hands, self.drawn_stock + rest


_SHARED = (int, float, str, bool, type(None), tuple, frozenset)


def _is_shared(value: object) -> bool:
    """Never changed in place: immutable values, frozen dataclasses (rules, a result)."""
    if isinstance(value, _SHARED):
        return True
    params = getattr(value, "__dataclass_params__", None)
    return params is not None and bool(params.frozen)


def _copied_item(value: object) -> object:
    """An element of a state's list: shared when immutable, else a shallow copy (a hand's
    summary, whose board and moves never change once kept)."""
    return value if _is_shared(value) else copy.copy(value)


def quick_copy(state: GameState) -> GameState:
    """A copy for a search world, one level deep: immutable parts (the rules, the steps
    of the moves, results, tuples) shared; the board and the clock by their own
    ``copy()``; a list copied (its mutable elements shallowly: a hand's summary); any
    other small object (Spectacular Bid's auction) shallowly. A state whose fields are
    not all of these kinds, or that has no ``__dict__``, is deep-copied instead. Far
    cheaper than a deep copy, which a search makes for every one of its worlds."""
    fields = getattr(state, "__dict__", None)
    if fields is None:
        return copy.deepcopy(state)
    copied: dict[str, object] = {}
    for name, value in fields.items():
        if _is_shared(value):
            copied[name] = value
        elif type(value) is list:
            if all(_is_shared(item) for item in value):
                copied[name] = list(value)
            else:
                copied[name] = [_copied_item(item) for item in value]
        elif callable(getattr(value, "copy", None)) and not isinstance(value, (dict, set)):
            copied[name] = value.copy()
        elif getattr(value, "__dataclass_fields__", None) is not None and all(
                _is_shared(getattr(value, f)) for f in value.__dataclass_fields__):
            copied[name] = copy.copy(value)
        else:
            return copy.deepcopy(state)
    clone = object.__new__(type(state))
    clone.__dict__.update(copied)
    return clone


def determinize(plugin: GamePlugin, state: GameState, seat: int | None,
                rng: random.Random) -> GameState:
    """A copy of ``state`` that ``seat`` cannot tell from it (see the module's text). A
    domino state is copied and dealt here, under its voids (the plugin's own deal ignores
    them); any other goes through the plugin."""
    return Dealer(plugin, state, seat).world(rng)
