"""The plain records every format shares: entries, pairings, results, games.

Seat 0 is "white" (moves first, listed first); a pairing with no seat 1 is a bye.
Scores are match points as floats (1, 0.5, 0): halves and their sums are exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "DRAW",
    "LOSS",
    "WIN",
    "Format",
    "Game",
    "GameResult",
    "Pairing",
    "PlayerEntry",
    "PlayerId",
    "TournamentError",
]

PlayerId = int
"""A registered player (the user's primary key)."""

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
SCORES = frozenset({WIN, DRAW, LOSS})


class TournamentError(ValueError):
    """Input that no format can work with (unknown players, a player twice in a round...)."""


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """One entrant. ``rating`` is the rating at entry: seeds and pairing numbers follow it,
    so it should not change while the tournament runs. ``joined_at_round`` is the first
    round the player can be paired in (1 unless a late entrant)."""

    id: PlayerId
    rating: int
    name: str = ""
    withdrawn: bool = False
    joined_at_round: int = 1

    def __post_init__(self) -> None:
        if self.joined_at_round < 1:
            raise TournamentError(f"player {self.id}: joined_at_round must be at least 1")

    @property
    def label(self) -> str:
        return self.name or str(self.id)


@dataclass(frozen=True, slots=True)
class Pairing:
    """``seat0`` against ``seat1`` in ``round``; ``seat1`` None is a bye for ``seat0``."""

    round: int
    seat0: PlayerId
    seat1: PlayerId | None = None

    def __post_init__(self) -> None:
        if self.round < 1:
            raise TournamentError(f"round numbers start at 1, not {self.round}")
        if self.seat0 == self.seat1:
            raise TournamentError(f"player {self.seat0} paired with themselves")

    @property
    def is_bye(self) -> bool:
        return self.seat1 is None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.seat0,) if self.seat1 is None else (self.seat0, self.seat1)

    def pair_key(self) -> frozenset[PlayerId]:
        """The two players regardless of seats (for "have they met?")."""
        return frozenset(self.players)


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one game. ``forfeit`` marks a game not played over the board: the
    winner scores 1 (a forfeit win), a 0-0 is a double forfeit. ``points0``/``points1`` are
    the points won in the game itself (the last tiebreak)."""

    score0: float
    score1: float
    forfeit: bool = False
    points0: int = 0
    points1: int = 0

    def __post_init__(self) -> None:
        if self.score0 not in SCORES or self.score1 not in SCORES:
            raise TournamentError(f"scores must be 1, 0.5 or 0: {self.score0}-{self.score1}")
        total = self.score0 + self.score1
        if self.forfeit:
            if (self.score0, self.score1) not in {(WIN, LOSS), (LOSS, WIN), (LOSS, LOSS)}:
                raise TournamentError("a forfeit is 1-0, 0-1 or a double forfeit 0-0")
        elif total != WIN:
            raise TournamentError(f"a played game scores 1 in all: {self.score0}-{self.score1}")
        if self.points0 < 0 or self.points1 < 0:
            raise TournamentError("game points cannot be negative")

    @classmethod
    def win(cls, seat: int, points0: int = 0, points1: int = 0) -> GameResult:
        return cls(*_seat_scores(seat), points0=points0, points1=points1)

    @classmethod
    def draw(cls, points0: int = 0, points1: int = 0) -> GameResult:
        return cls(DRAW, DRAW, points0=points0, points1=points1)

    @classmethod
    def forfeit_win(cls, seat: int) -> GameResult:
        return cls(*_seat_scores(seat), forfeit=True)

    @classmethod
    def double_forfeit(cls) -> GameResult:
        return cls(LOSS, LOSS, forfeit=True)

    def score(self, seat: int) -> float:
        return self.score0 if seat == 0 else self.score1

    def points(self, seat: int) -> int:
        return self.points0 if seat == 0 else self.points1


def _seat_scores(seat: int) -> tuple[float, float]:
    if seat not in (0, 1):
        raise TournamentError(f"seat is 0 or 1, not {seat}")
    return (WIN, LOSS) if seat == 0 else (LOSS, WIN)


@dataclass(frozen=True, slots=True)
class Game:
    """A pairing and, once known, its result. A bye needs no result (it scores 1);
    a game whose result is None is still pending."""

    pairing: Pairing
    result: GameResult | None = None

    @property
    def round(self) -> int:
        return self.pairing.round

    @property
    def pending(self) -> bool:
        return not self.pairing.is_bye and self.result is None
