"""Arena tournaments, pure: scoring with a streak, the leaderboard, pairing who waits.

An arena runs for a set time. A player who finishes a game waits, and the waiting players
are paired at once, close in score, never with their last opponent while anyone else
waits. Scoring: 2 a win, 1 a draw, 0 a loss; after two wins in a row a player is on a
streak and scores double (4 a win, 2 a draw) until a game that is not a win (that game
still scores double: a draw on a streak is 2).

The leaderboard orders by score, then games won (a win on a streak and off it alike),
then fewer games played (the same score in fewer games is the better run), then the
rating at entry, then the player id (a stable order).

No Django, no clock: the times a player started waiting are numbers passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.formats.model import DRAW, LOSS, WIN, PlayerId, TournamentError

__all__ = [
    "ArenaRow",
    "Waiting",
    "game_points",
    "leaderboard",
    "on_streak",
    "pair_waiting",
    "score_of",
]

STREAK_AFTER = 2  # wins in a row that start a streak
OUTCOMES = frozenset({WIN, DRAW, LOSS})


def _check(outcomes: Iterable[float]) -> list[float]:
    found = list(outcomes)
    for outcome in found:
        if outcome not in OUTCOMES:
            raise TournamentError(f"an arena game is won (1), drawn (0.5) or lost (0): {outcome}")
    return found


def game_points(outcomes: Iterable[float]) -> list[int]:
    """The arena points of each of a player's games, in the order played."""
    points = []
    wins_in_a_row = 0
    for outcome in _check(outcomes):
        factor = 2 if wins_in_a_row >= STREAK_AFTER else 1
        points.append(factor * (2 if outcome == WIN else 1 if outcome == DRAW else 0))
        wins_in_a_row = wins_in_a_row + 1 if outcome == WIN else 0
    return points


def score_of(outcomes: Iterable[float]) -> int:
    return sum(game_points(outcomes))


def on_streak(outcomes: Sequence[float]) -> bool:
    """Whether the player's next game scores double: the last two games were won."""
    games = _check(outcomes)
    return len(games) >= STREAK_AFTER and all(o == WIN for o in games[-STREAK_AFTER:])


@dataclass(frozen=True, slots=True)
class ArenaRow:
    """One line of the leaderboard; ``rank`` starts at 1 and ties share none (the
    order is total)."""

    rank: int
    player: PlayerId
    score: int
    games: int
    wins: int
    draws: int
    losses: int
    streak: bool
    points: tuple[int, ...]  # each game's arena points, in order


def leaderboard(results: dict[PlayerId, Sequence[float]],
                ratings: dict[PlayerId, int] | None = None) -> list[ArenaRow]:
    """Every player of ``results`` (their outcomes in the order played; a player with
    none yet has an empty list), best first."""
    ratings = ratings or {}
    unranked = []
    for player, outcomes in results.items():
        games = _check(outcomes)
        points = game_points(games)
        unranked.append((player, sum(points), games, tuple(points)))
    unranked.sort(key=lambda item: (-item[1], -item[2].count(WIN), len(item[2]),
                                    -ratings.get(item[0], 0), item[0]))
    return [ArenaRow(rank=index, player=player, score=score, games=len(games),
                     wins=games.count(WIN), draws=games.count(DRAW),
                     losses=games.count(LOSS), streak=on_streak(games), points=points)
            for index, (player, score, games, points) in enumerate(unranked, start=1)]


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player waiting for a game: the score, the last opponent (None before a first
    game) and since when the player has waited (any clock: only the order matters)."""

    player: PlayerId
    score: int
    last_opponent: PlayerId | None = None
    since: float = 0.0


def _barred(a: Waiting, b: Waiting) -> bool:
    return a.last_opponent == b.player or b.last_opponent == a.player


def pair_waiting(waiting: Sequence[Waiting], others_coming: bool = False,
                 ) -> tuple[list[tuple[PlayerId, PlayerId]], list[PlayerId]]:
    """Pairs of waiting players and those left waiting.

    Players are taken best score first (ties: the longest waiting first) and each is
    paired with the nearest in score who is not its last opponent. Two last opponents
    meet again only when they are the only two waiting and no other player is still
    playing (``others_coming``): pairing runs the moment a game ends, when its two players
    are often the only two waiting, and would replay the same pairs all arena long. With
    an odd number the one who has waited least is left out (it waits on; everyone waits
    at most a pairing or two). Seat 0 goes to the first of the pair in that order; the
    server draws no colours (the bench and the tests want a fixed answer)."""
    ids = [w.player for w in waiting]
    if len(set(ids)) != len(ids):
        raise TournamentError("a player is waiting twice")
    if len(waiting) < 2:
        return [], ids
    order = sorted(waiting, key=lambda w: (-w.score, w.since, w.player))
    if len(order) == 2:
        if others_coming and _barred(order[0], order[1]):
            return [], ids
        return [(order[0].player, order[1].player)], []
    sit_out: list[Waiting] = []
    if len(order) % 2:
        last = max(order, key=lambda w: (w.since, w.player))
        order.remove(last)
        sit_out.append(last)
    pairs: list[tuple[Waiting, Waiting]] = []
    free = list(order)
    stuck: list[Waiting] = []
    while free:
        first = free.pop(0)
        partner = next((w for w in free if not _barred(first, w)), None)
        if partner is None:
            stuck.append(first)
            continue
        free.remove(partner)
        pairs.append((first, partner))
    stuck += sit_out
    _mend(pairs, stuck)
    left = sorted(stuck, key=lambda w: (w.since, w.player))
    return [(a.player, b.player) for a, b in pairs], [w.player for w in left]


def _mend(pairs: list[tuple[Waiting, Waiting]], stuck: list[Waiting]) -> None:
    """Pair the players the greedy pass left over: with each other where allowed, or
    by splitting a pair in two, nearest in score first (each swap pairs two more)."""
    changed = True
    while changed and len(stuck) >= 2:
        changed = False
        for i, a in enumerate(stuck):
            for b in stuck[i + 1:]:
                if not _barred(a, b):
                    stuck.remove(a)
                    stuck.remove(b)
                    pairs.append((a, b) if (-a.score, a.since) <= (-b.score, b.since)
                                 else (b, a))
                    changed = True
                    break
            if changed:
                break
        if changed:
            continue
        a, b = stuck[0], stuck[1]
        for index, (x, y) in enumerate(pairs):
            for p, q in ((x, y), (y, x)):
                if not _barred(a, p) and not _barred(b, q):
                    pairs[index] = (p, a) if p.score >= a.score else (a, p)
                    pairs.append((q, b) if q.score >= b.score else (b, q))
                    stuck.remove(a)
                    stuck.remove(b)
                    changed = True
                    break
            if changed:
                break
