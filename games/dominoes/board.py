"""A Fives board: tiles joined at named ports, the spinner, and the counting ends.

Ports (spec §3): a non-double has ``high`` and ``low``; a double has ``line_a`` and
``line_b`` and, for the spinner only, ``branch_a`` and ``branch_b``. The open places
and the sum of the counting ends are kept up to date on every placement, so a
legal-move query or a score never walks the whole board.
"""

from __future__ import annotations

from typing import NamedTuple

from games.engine.protocol import gettext_noop

from .tiles import HI, IS_DOUBLE, LO, MAX_PIP, TILE_COUNT

HIGH, LOW, LINE_A, LINE_B, BRANCH_A, BRANCH_B = range(6)
PORT_NAMES: tuple[str, ...] = ("high", "low", "line_a", "line_b", "branch_a", "branch_b")
PORT_BY_NAME: dict[str, int] = {name: code for code, name in enumerate(PORT_NAMES)}
NO_TILE = -1
# The pseudo-port of a hand's first tile, whose target is the tile itself: a play is
# coded tile << 8 | target << 3 | port in both domino games.
FIRST_TILE_PORT = 7

Place = tuple[int, int, int]
"""An open place: (tile on the board, port code, pip value a tile must match)."""


class Link(NamedTuple):
    """How a placed tile joined the board (for drawing and records)."""

    tile: int
    own_port: int  # the port of ``tile`` that touches the target; -1 for the opening tile
    target: int  # NO_TILE for the opening tile
    target_port: int  # -1 for the opening tile


class Board:
    """The tiles in play and their open places.

    ``cross`` switches the spinner on (Spectacular Bid always; Fives when the table
    plays with the cross). Without it every double is ordinary.
    """

    __slots__ = (
        "cross",
        "ends_sum",
        "lines_taken",
        "links",
        "open_count",
        "open_values",
        "places",
        "spinner",
    )

    def __init__(self, cross: bool = True) -> None:
        self.cross = cross
        self.links: list[Link] = []
        self.places: list[Place] = []
        # For doubles: how many of line_a/line_b are occupied.
        self.lines_taken: list[int] = [0] * TILE_COUNT
        self.spinner = NO_TILE
        self.ends_sum = 0
        self.open_count: list[int] = [0] * (MAX_PIP + 1)
        self.open_values = 0  # bit v set when some open place takes the value v

    # -- queries -----------------------------------------------------------------

    @property
    def is_empty(self) -> bool:
        return not self.links

    def places_for(self, tile: int) -> list[Place]:
        lo, hi = LO[tile], HI[tile]
        return [p for p in self.places if p[2] == lo or p[2] == hi]

    def has_place(self, target: int, port: int, value: int) -> bool:
        for place in self.places:
            if place[0] == target and place[1] == port:
                return place[2] == value
        return False

    def find_place(self, target: int, port: int) -> Place | None:
        for place in self.places:
            if place[0] == target and place[1] == port:
                return place
        return None

    def sum_after(self, tile: int, target: int, port: int) -> int:
        """The counting-ends sum if ``tile`` were placed there (no change made)."""
        if not self.links:
            return 2 * LO[tile] if IS_DOUBLE[tile] else LO[tile] + HI[tile]
        value = self._value_at(target, port)
        total = self.sum_covering(target, port, value)
        if IS_DOUBLE[tile]:
            return total + 2 * value
        return total + (HI[tile] if LO[tile] == value else LO[tile])

    def sum_covering(self, target: int, port: int, value: int) -> int:
        """The counting-ends sum once the open place (target, port) of ``value`` is
        covered, before the covering tile's own free end counts."""
        return self.ends_sum - self._loss_when_covered(target, port, value)

    # -- changes -----------------------------------------------------------------

    def place_opening(self, tile: int) -> int:
        """Put the first tile down; returns the new counting-ends sum."""
        lo, hi = LO[tile], HI[tile]
        self.links.append(Link(tile, -1, NO_TILE, -1))
        if IS_DOUBLE[tile]:
            if self.cross:
                self.spinner = tile
            self._open(tile, LINE_A, lo)
            self._open(tile, LINE_B, lo)
            self.ends_sum = 2 * lo  # a lone double counts its two halves once
        else:
            self._open(tile, HIGH, hi)
            self._open(tile, LOW, lo)
            self.ends_sum = lo + hi
        return self.ends_sum

    def place(self, tile: int, target: int, port: int) -> int:
        """Attach ``tile`` at an open place (the caller checked it is legal).

        Returns the new counting-ends sum. This is the engine's hot path, so the
        bookkeeping of ``_open``/``_close`` is written out here.
        """
        places = self.places
        count = self.open_count
        opened_branches = False
        if IS_DOUBLE[target]:
            value = LO[target]
            if port in (BRANCH_A, BRANCH_B):
                loss = 0  # the spinner already counts 0 once its branches are open
            else:
                taken = self.lines_taken[target]
                self.lines_taken[target] = taken + 1
                # A double counts 2v while one of its lines is free, 0 once both are taken.
                loss = 2 * value if taken == 1 else 0
                opened_branches = taken == 1 and target == self.spinner
        else:
            value = HI[target] if port == HIGH else LO[target]
            loss = value
        places.remove((target, port, value))
        count[value] -= 1
        if opened_branches:
            places.append((target, BRANCH_A, value))
            places.append((target, BRANCH_B, value))
            count[value] += 2
        if IS_DOUBLE[tile]:
            self.links.append(Link(tile, LINE_A, target, port))
            self.lines_taken[tile] = 1
            if self.spinner == NO_TILE and self.cross:
                self.spinner = tile
            free_port, free_value, gain = LINE_B, value, 2 * value
        elif LO[tile] == value:
            self.links.append(Link(tile, LOW, target, port))
            free_port = HIGH
            free_value = gain = HI[tile]
        else:
            self.links.append(Link(tile, HIGH, target, port))
            free_port = LOW
            free_value = gain = LO[tile]
        places.append((tile, free_port, free_value))
        count[free_value] += 1
        if not count[value]:
            self.open_values &= ~(1 << value)
        self.open_values |= 1 << free_value
        self.ends_sum += gain - loss
        return self.ends_sum

    def copy(self) -> Board:
        clone = Board.__new__(Board)
        clone.cross = self.cross
        clone.links = list(self.links)
        clone.places = list(self.places)
        clone.lines_taken = list(self.lines_taken)
        clone.spinner = self.spinner
        clone.ends_sum = self.ends_sum
        clone.open_count = list(self.open_count)
        clone.open_values = self.open_values
        return clone

    # -- internals ---------------------------------------------------------------

    def _value_at(self, target: int, port: int) -> int:
        if IS_DOUBLE[target]:
            return LO[target]
        return HI[target] if port == HIGH else LO[target]

    def _loss_when_covered(self, target: int, port: int, value: int) -> int:
        """How much the target stops counting once ``port`` is covered."""
        if not IS_DOUBLE[target]:
            return value
        if port in (BRANCH_A, BRANCH_B):
            return 0  # the spinner already counts 0 once its branches are open
        # A double counts 2v while one of its lines is free, 0 once both are taken.
        return 2 * value if self.lines_taken[target] == 1 else 0

    def _open(self, target: int, port: int, value: int) -> None:
        self.places.append((target, port, value))
        self.open_count[value] += 1
        self.open_values |= 1 << value

    def _close(self, target: int, port: int, value: int) -> None:
        self.places.remove((target, port, value))
        self.open_count[value] -= 1
        if not self.open_count[value]:
            self.open_values &= ~(1 << value)


def placement_refusal(board: Board, hand_mask: int, drawn_tile: int, tile: int, target: int,
                      port: int) -> str | None:
    """Why ``tile`` may not go at ``(target, port)`` (None: it may). ``hand_mask`` is the
    player's tiles; ``drawn_tile`` the tile they just drew and must play (or NO_TILE)."""
    if not hand_mask >> tile & 1:
        return gettext_noop("you do not hold that tile")
    if drawn_tile >= 0 and tile != drawn_tile:
        return gettext_noop("you must play the tile you drew")
    places = board.places
    if not places:
        if port != FIRST_TILE_PORT or target != tile:
            return gettext_noop("the board is empty: the opening tile takes no target")
        return None
    if port == FIRST_TILE_PORT:
        return gettext_noop("name the tile and port to attach to")
    for place_tile, place_port, value in places:
        if place_tile == target and place_port == port:
            if value == LO[tile] or value == HI[tile]:
                return None
            return gettext_noop("the tile does not match that place")
    return gettext_noop("that place is not open")
