"""Each player's rounds, one entry per round, from the list of games.

Standings, tiebreaks, the crosstable and the TRF all read the same per-round view, so
a game is interpreted (played, forfeit, bye, absent) in one place only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.formats.model import WIN, Game, GameResult, PlayerEntry, PlayerId, TournamentError

__all__ = ["Kind", "RoundEntry", "index_players", "player_rounds", "rounds_in"]


class Kind(StrEnum):
    PLAYED = "played"  # over the board
    FORFEIT = "forfeit"  # scheduled, not played: a forfeit win or loss (score says which)
    BYE = "bye"  # the pairing-allocated bye
    ABSENT = "absent"  # not paired: not yet entered, withdrawn, or away for the round
    PENDING = "pending"  # paired, no result yet


@dataclass(frozen=True, slots=True)
class RoundEntry:
    round: int
    kind: Kind
    score: float = 0.0
    opponent: PlayerId | None = None
    seat: int | None = None  # 0 or 1 when paired
    game_points: int = 0

    @property
    def unplayed(self) -> bool:
        """No game over the board this round (FIDE's "unplayed game" for tiebreaks)."""
        return self.kind is not Kind.PLAYED

    @property
    def showed_up(self) -> bool:
        return self.kind is Kind.PLAYED or (self.kind is Kind.FORFEIT and self.score == WIN)


def index_players(players: Iterable[PlayerEntry]) -> dict[PlayerId, PlayerEntry]:
    index: dict[PlayerId, PlayerEntry] = {}
    for player in players:
        if player.id in index:
            raise TournamentError(f"player {player.id} entered twice")
        index[player.id] = player
    return index


def rounds_in(games: Iterable[Game]) -> int:
    return max((game.round for game in games), default=0)


def player_rounds(
    players: Sequence[PlayerEntry], games: Sequence[Game], rounds: int | None = None
) -> dict[PlayerId, list[RoundEntry]]:
    """``result[p][r - 1]`` is what player ``p`` did in round ``r``, for rounds 1..rounds
    (default: the last round with a game). Raises on games with unknown players, a player
    twice in a round, or games after ``rounds``."""
    index = index_players(players)
    count = rounds_in(games) if rounds is None else rounds
    table: dict[PlayerId, list[RoundEntry | None]] = {pid: [None] * count for pid in index}
    for game in games:
        pairing = game.pairing
        if pairing.round > count:
            raise TournamentError(f"a game in round {pairing.round}, after round {count}")
        for seat, pid in enumerate(pairing.players):
            if pid not in index:
                raise TournamentError(f"round {pairing.round}: unknown player {pid}")
            slot = table[pid]
            if slot[pairing.round - 1] is not None:
                raise TournamentError(f"player {pid} paired twice in round {pairing.round}")
            opponent = None if pairing.seat1 is None else pairing.players[1 - seat]
            slot[pairing.round - 1] = _entry(pairing.round, seat, opponent, game.result)
    return {
        pid: [entry or RoundEntry(r + 1, Kind.ABSENT) for r, entry in enumerate(slot)]
        for pid, slot in table.items()
    }


def _entry(
    round_no: int, seat: int, opponent: PlayerId | None, result: GameResult | None
) -> RoundEntry:
    if opponent is None:
        return RoundEntry(round_no, Kind.BYE, WIN)
    if result is None:
        return RoundEntry(round_no, Kind.PENDING, opponent=opponent, seat=seat)
    kind = Kind.FORFEIT if result.forfeit else Kind.PLAYED
    return RoundEntry(
        round_no, kind, result.score(seat), opponent, seat, result.points(seat)
    )
