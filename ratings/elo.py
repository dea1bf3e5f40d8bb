"""Elo ratings, one per player per game, in pure Python.

No Django, no I/O, no clock reads: every rating follows from the ordered list of
match results alone, so ratings can be recomputed from history at any time.

Rules
-----
* Every player starts each game at :data:`INITIAL_RATING` (1500). Ratings of
  different games are independent of one another.
* The expected score of A against B is ``E = 1 / (1 + 10 ** ((Rb - Ra) / 400))``.
  A scores 1 for a win, 0.5 for a draw, 0 for a loss.
* After a match, ``R' = R + K * (S - E)``, **rounded half away from zero to an
  integer**. Ratings are stored and carried forward only as integers, so replaying
  the same history always reaches exactly the same ratings; nothing fractional is
  ever kept between matches. The rating change of a match is ``R' - R``.
* K is chosen from the player's state *before* the match (FIDE scheme):

  - 10 if the player has ever reached 2400 (a rating of 2400 or more after some
    match). This is permanent: K stays 10 even after the rating drops below 2400,
    and it takes precedence over the two rules below;
  - otherwise 40 while the player has completed fewer than 30 rated matches
    before this one (so matches 1 to 30 use K = 40);
  - otherwise 20 (match 31 onwards).

* A rating is provisional during the first 10 rated matches, i.e. while fewer
  than 10 have been completed; :func:`display` then marks it with ``?``.
* Only finished, rated matches between two different registered players count
  (:attr:`MatchOutcome.counts`). Annulled and aborted matches, unrated matches and
  matches with a guest never change a rating and are not counted as games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

__all__ = [
    "INITIAL_RATING",
    "K_ESTABLISHED",
    "K_MASTER",
    "K_NEW",
    "MASTER_THRESHOLD",
    "NEW_PLAYER_MATCHES",
    "PROVISIONAL_MATCHES",
    "MatchOutcome",
    "MatchStatus",
    "PlayerId",
    "PlayerRating",
    "RankedChange",
    "RankedOutcome",
    "RatingChange",
    "RatingKey",
    "display",
    "expected_score",
    "is_provisional",
    "k_factor",
    "pair_score",
    "recompute",
    "recompute_ranked",
    "round_half_away",
    "update",
    "update_ranked",
]

INITIAL_RATING = 1500
K_NEW = 40
K_ESTABLISHED = 20
K_MASTER = 10
NEW_PLAYER_MATCHES = 30  # K_NEW while fewer than this many rated matches are completed
MASTER_THRESHOLD = 2400  # once reached, K_MASTER for good
PROVISIONAL_MATCHES = 10  # provisional while fewer than this many rated matches are completed

VALID_SCORES = frozenset({0.0, 0.5, 1.0})

PlayerId: TypeAlias = int
"""A registered player (the user's primary key)."""

RatingKey: TypeAlias = tuple[str, PlayerId]
"""``(game, player)``: each player has one rating per game."""


class MatchStatus(StrEnum):
    """How a match ended, as far as ratings care."""

    FINISHED = "finished"
    ANNULLED = "annulled"
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's rating state in one game."""

    rating: int = INITIAL_RATING
    games: int = 0  # rated matches completed
    reached_2400: bool = False  # ever rated MASTER_THRESHOLD or more after a match


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """The result of one match, as fed to :func:`recompute` in playing order.

    ``player_a``/``player_b`` are None for a guest (unregistered) seat.
    ``score_a`` is A's score: 1 (A won), 0.5 (draw) or 0 (B won).
    """

    game: str
    player_a: PlayerId | None
    player_b: PlayerId | None
    score_a: float
    status: MatchStatus = MatchStatus.FINISHED
    rated: bool = True

    def __post_init__(self) -> None:
        _check_score(self.score_a)

    @property
    def counts(self) -> bool:
        """Whether this match changes ratings."""
        return (
            self.status is MatchStatus.FINISHED
            and self.rated
            and self.player_a is not None
            and self.player_b is not None
            and self.player_a != self.player_b
        )


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one counted match did to both players' ratings.

    ``index`` is the match's position in the sequence given to :func:`recompute`.
    """

    index: int
    game: str
    player_a: PlayerId
    player_b: PlayerId
    score_a: float
    before_a: PlayerRating
    after_a: PlayerRating
    before_b: PlayerRating
    after_b: PlayerRating

    @property
    def change_a(self) -> int:
        return self.after_a.rating - self.before_a.rating

    @property
    def change_b(self) -> int:
        return self.after_b.rating - self.before_b.rating


def _check_score(score: float) -> None:
    if score not in VALID_SCORES:
        raise ValueError(f"score must be 1, 0.5 or 0, not {score!r}")


def round_half_away(x: float) -> int:
    """Round to the nearest integer, halves away from zero (2.5 -> 3, -2.5 -> -3)."""
    magnitude = abs(x)
    whole = math.floor(magnitude)
    if magnitude - whole >= 0.5:  # exact: no rounding in the subtraction
        whole += 1
    return whole if x >= 0 else -whole


def expected_score(rating_a: int, rating_b: int) -> float:
    """A's expected score against B: ``1 / (1 + 10 ** ((Rb - Ra) / 400))``."""
    return 1.0 / (1.0 + math.pow(10.0, (rating_b - rating_a) / 400.0))


def k_factor(state: PlayerRating) -> int:
    """The K used for this player's next match (see the module docstring).

    A state rated 2400 or more counts as having reached 2400 even if its flag is
    unset (only possible for a state built by hand).
    """
    if state.reached_2400 or state.rating >= MASTER_THRESHOLD:
        return K_MASTER
    if state.games < NEW_PLAYER_MATCHES:
        return K_NEW
    return K_ESTABLISHED


def is_provisional(state: PlayerRating) -> bool:
    """True during the player's first :data:`PROVISIONAL_MATCHES` rated matches."""
    return state.games < PROVISIONAL_MATCHES


def display(state: PlayerRating) -> str:
    """The rating as shown to people: ``"1523?"`` while provisional, else ``"1523"``."""
    return f"{state.rating}?" if is_provisional(state) else str(state.rating)


def _after(state: PlayerRating, opponent: int, score: float) -> PlayerRating:
    expected = expected_score(state.rating, opponent)
    rating = round_half_away(state.rating + k_factor(state) * (score - expected))
    return PlayerRating(
        rating=rating,
        games=state.games + 1,
        reached_2400=state.reached_2400 or rating >= MASTER_THRESHOLD,
    )


def update(
    state_a: PlayerRating, state_b: PlayerRating, score_a: float
) -> tuple[PlayerRating, PlayerRating, int, int]:
    """Rate one finished rated match between A and B (in the same game).

    Returns ``(new_a, new_b, change_a, change_b)``; the changes are integer
    rating differences ``new - old``. Each side uses its own K.
    """
    _check_score(score_a)
    new_a = _after(state_a, state_b.rating, score_a)
    new_b = _after(state_b, state_a.rating, 1.0 - score_a)
    return new_a, new_b, new_a.rating - state_a.rating, new_b.rating - state_b.rating


def recompute(
    outcomes: Iterable[MatchOutcome],
    initial: Mapping[RatingKey, PlayerRating] | None = None,
) -> tuple[dict[RatingKey, PlayerRating], list[RatingChange]]:
    """Replay match results in order, from everyone at :class:`PlayerRating()`.

    ``initial`` gives the states to start from (a rebuild from a given match on);
    its players are included in the returned states.

    Returns the final state of every ``(game, player)`` that took part in at least
    one counted match, and one :class:`RatingChange` per counted match, in order.
    Matches that do not count (:attr:`MatchOutcome.counts`) are skipped.
    """
    states: dict[RatingKey, PlayerRating] = dict(initial or {})
    changes: list[RatingChange] = []
    for index, outcome in enumerate(outcomes):
        player_a, player_b = outcome.player_a, outcome.player_b
        if not outcome.counts or player_a is None or player_b is None:
            continue
        key_a, key_b = (outcome.game, player_a), (outcome.game, player_b)
        before_a = states.get(key_a, PlayerRating())
        before_b = states.get(key_b, PlayerRating())
        after_a, after_b, _, _ = update(before_a, before_b, outcome.score_a)
        states[key_a], states[key_b] = after_a, after_b
        changes.append(
            RatingChange(
                index=index,
                game=outcome.game,
                player_a=player_a,
                player_b=player_b,
                score_a=outcome.score_a,
                before_a=before_a,
                after_a=after_a,
                before_b=before_b,
                after_b=after_b,
            )
        )
    return states, changes


# ------------------------------------------------------------------ ranked matches
#
# Games with more than two players (four-player Fives, a dice table) are rated pairwise
# from the final ranks: each pair of players is one comparison, scored 1 / ½ / 0 by
# rank (equal ranks: ½). A player's change is ``K / (N - 1)`` times the sum over the
# others of ``S - E``, rounded once: so a match of four moves a rating about as far as a
# match of two, and with two players it is exactly :func:`update`.


def pair_score(rank_a: int, rank_b: int) -> float:
    """A's score against B from their final ranks (1 = best)."""
    if rank_a == rank_b:
        return 0.5
    return 1.0 if rank_a < rank_b else 0.0


def update_ranked(states: list[PlayerRating], ranks: list[int]) -> list[PlayerRating]:
    """Rate one finished rated match of N players (N >= 2) from their final ranks."""
    if len(states) != len(ranks) or len(states) < 2:
        raise ValueError("a ranked match needs two or more players, each with a rank")
    others = len(states) - 1
    out = []
    for i, state in enumerate(states):
        total = sum(pair_score(ranks[i], ranks[j]) - expected_score(state.rating, other.rating)
                    for j, other in enumerate(states) if j != i)
        rating = round_half_away(state.rating + k_factor(state) * total / others)
        out.append(PlayerRating(rating=rating, games=state.games + 1,
                                reached_2400=state.reached_2400 or rating >= MASTER_THRESHOLD))
    return out


@dataclass(frozen=True, slots=True)
class RankedOutcome:
    """One finished rated match of any number of distinct players, in playing order."""

    game: str
    players: tuple[PlayerId, ...]
    ranks: tuple[int, ...]

    @property
    def counts(self) -> bool:
        return len(self.players) >= 2 and len(set(self.players)) == len(self.players)


@dataclass(frozen=True, slots=True)
class RankedChange:
    """What one counted ranked match did: each player's state before and after."""

    index: int
    game: str
    players: tuple[PlayerId, ...]
    before: tuple[PlayerRating, ...]
    after: tuple[PlayerRating, ...]


def recompute_ranked(
    outcomes: Iterable[RankedOutcome],
    initial: Mapping[RatingKey, PlayerRating] | None = None,
) -> tuple[dict[RatingKey, PlayerRating], list[RankedChange]]:
    """:func:`recompute` for ranked outcomes (two players give exactly the same ratings)."""
    states: dict[RatingKey, PlayerRating] = dict(initial or {})
    changes: list[RankedChange] = []
    for index, outcome in enumerate(outcomes):
        if not outcome.counts:
            continue
        keys = [(outcome.game, player) for player in outcome.players]
        before = [states.get(key, PlayerRating()) for key in keys]
        after = update_ranked(before, list(outcome.ranks))
        for key, state in zip(keys, after, strict=True):
            states[key] = state
        changes.append(RankedChange(index, outcome.game, outcome.players, tuple(before),
                                    tuple(after)))
    return states, changes
