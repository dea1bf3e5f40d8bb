"""The game protocol every game implements (after OpenSpiel's game states).

A state knows whose decision it is, lists legal actions as small integers, applies
an action at a time passed in, and builds the view of one seat or of a spectator.
Illegal actions are answered with an :class:`Illegal` value; the state is unchanged.
Chance (a deal, a roll) is passed in from outside with the game's own method.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, TypeVar

JSON = dict[str, Any]
T = TypeVar("T")


def gettext_noop(text: str) -> str:
    """Marks a game's English words (its name, its conventions' labels, its refusal
    reasons) for the translation catalogue: ``makemessages`` finds the calls by this name.
    The text is returned as it is; the Django side translates it where it is shown."""
    return text


class Reason(str):
    """A refusal reason with numbers in it. As a ``str`` it is the English sentence; the
    Django side translates ``template`` (marked with ``gettext_noop``) and fills in
    ``values``, so the sentence reaches the user in their language."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, **values: Any) -> Reason:
        made = super().__new__(cls, template % values)
        made.template = template
        made.values = values
        return made


@dataclass(frozen=True, slots=True)
class Illegal:
    """Why an action was refused. Nothing about the state changed."""

    reason: str


@dataclass(frozen=True, slots=True)
class Result:
    """How a match ended. ``winner`` is None when there is none (abort, annulled)."""

    winner: int | None
    reason: str


class Step(NamedTuple):
    """One thing that happened: a player's action, a forced action, or a time event.

    ``action`` is the game's integer action code; ``seat`` is None for events that
    belong to nobody (a hand starting on its own at the grace deadline).
    ``scores`` are the balances (or scores) right after it.
    """

    seat: int | None
    action: int
    now_us: int
    forced: bool = False
    points: int = 0
    scores: tuple[int, ...] = ()


@dataclass(slots=True)
class Outcome:
    """What one call to :meth:`GameState.apply` did.

    ``applied`` is False when the match ended on time before the action counted
    (a command at or after the sender's deadline is not applied); ``steps`` then
    holds the time events that ended it.
    """

    applied: bool
    steps: list[Step] = field(default_factory=list)


class GameState(ABC):
    """One match of one game, advanced only by actions, chance outcomes and time."""

    num_seats: int

    @abstractmethod
    def to_act(self) -> int | None:
        """The seat whose decision it is, or None (between hands, over, or simultaneous)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[int]:
        """The game moves ``seat`` may make now (meta actions such as resign excluded)."""

    @abstractmethod
    def apply(self, seat: int, action: int, now_us: int) -> Outcome | Illegal:
        """Apply ``seat``'s action, received at ``now_us`` (microseconds since the match began)."""

    @abstractmethod
    def advance(self, now_us: int) -> list[Step]:
        """Let time pass: grace periods that ran out, clocks that reached their deadline."""

    @abstractmethod
    def next_deadline_us(self) -> int | None:
        """When the state next changes on its own if nobody acts (for the scheduler)."""

    @abstractmethod
    def needs_chance(self) -> bool:
        """True when the game waits for a chance outcome (a deal, a roll)."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """Everything ``seat`` (None: a spectator) may see, ready for JSON."""

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """The result once the match is over."""

    def hand_rollout(self, rng: random.Random, explore: float) -> HandRollout | None:
        """For a search: the current hand played to its end with the shared playout policy
        (``explore``: the chance of a uniform pick instead of the greedy one), without
        changing this state; None when the state offers no such shortcut, or not now."""
        walk = self.hand_walk()
        if walk is None:
            return None
        walk.play_out(rng, explore)
        return HandRollout(walk.scores, walk.game_over)

    def hand_walk(self) -> HandWalk | None:
        """For a search's tree: a copy of the rest of the current hand that plays step by
        step without the protocol's checks, clock and records; None when the state offers
        none, or not now."""
        return None


class HandWalk(Protocol):
    """The rest of a hand, for a search (``GameState.hand_walk``): the same decisions, in
    the same action codes, as the protocol's, to the end of the hand."""

    codes: list[int]  # the choices of the decision ``decision`` returned
    scores: list[int]  # as the plugin's ``scores`` gives them
    game_over: bool  # the game ended within the hand

    def copy(self) -> HandWalk: ...

    def decision(self) -> int | None:
        """Play the forced steps; the seat that chooses next, None at the hand's end."""

    def play(self, code: int) -> None:
        """The seat that chooses plays ``code``, one of ``codes``."""

    def points_now(self, code: int) -> int:
        """What ``code`` would score at once."""

    def play_out(self, rng: random.Random, explore: float) -> None:
        """Play to the hand's end with the shared playout policy."""


@dataclass(frozen=True, slots=True)
class HandRollout:
    """How a hand played out by ``GameState.hand_rollout`` ended."""

    scores: list[int]  # as the plugin's ``scores`` gives them, at the hand's end
    over: bool  # the game ended within the hand


class ChanceSource(Protocol):
    """What a game's ``sample_chance`` may ask of its source of chance (a ``random.Random``
    has these too, for the search's and the tests' own draws)."""

    def shuffle(self, x: MutableSequence[Any]) -> None: ...

    def sample(self, population: Sequence[T], k: int) -> list[T]: ...

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True, slots=True)
class RecordedChance:
    """One chance event as a record holds it, and how to derive it again.

    ``where`` names it for people ("hand 3", "turn 7: seat 1's roll"); ``recorded`` is
    the outcome in a form that compares equal to what ``draw`` derives from a source.
    """

    where: str
    recorded: JSON
    draw: Callable[[ChanceSource], JSON]
