"""FIDE Tournament Report File (TRF-16) text, with javafo's X lines (TRF(x)).

The same text is what the Swiss pairing feeds to py4swiss and what the export offers,
so what was paired is exactly what can be downloaded. Starting numbers follow the
entry ratings (highest first, then player id), late entrants slotting in by rating.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.model import DRAW, WIN, Game, PlayerEntry, PlayerId, TournamentError
from tournaments.formats.record import Kind, RoundEntry, player_rounds

__all__ = ["TrfDocument", "build_trf", "starting_numbers"]

NAME_WIDTH = 33
RESULTS_COLUMN = 91  # where round 1 starts on a player line
ROUND_WIDTH = 10  # two blanks, then "nnnn c r"


@dataclass(frozen=True, slots=True)
class TrfDocument:
    text: str
    numbers: Mapping[PlayerId, int]  # player -> starting number
    ids: Mapping[int, PlayerId]  # starting number -> player


def starting_numbers(players: Iterable[PlayerEntry]) -> dict[PlayerId, int]:
    ordered = sorted(players, key=lambda p: (-p.rating, p.id))
    return {player.id: number for number, player in enumerate(ordered, start=1)}


def build_trf(
    players: Sequence[PlayerEntry],
    games: Sequence[Game],
    *,
    rounds_played: int,
    total_rounds: int,
    zeroed: Collection[PlayerId] = (),
    forbidden: Iterable[tuple[PlayerId, PlayerId]] = (),
    ranks: Mapping[PlayerId, int] | None = None,
    title: str = "",
    top_seed_seat0: bool = True,
) -> TrfDocument:
    """The TRF of ``players`` after ``rounds_played`` rounds. ``zeroed`` players are left
    out of the next round (XXZ), ``forbidden`` pairs may not meet (XXP)."""
    if total_rounds < rounds_played:
        raise TournamentError(f"{rounds_played} rounds played of only {total_rounds}")
    numbers = starting_numbers(players)
    table = player_rounds(players, games, rounds_played)
    lines: list[str] = []
    if title:
        lines.append(f"012 {_clean(title)}")
    lines.append(f"062 {len(players)}")
    lines.append("092 Swiss (Dutch)")
    for player in sorted(players, key=lambda p: numbers[p.id]):
        rank = numbers[player.id] if ranks is None else ranks[player.id]
        lines.append(_player_line(player, numbers, table[player.id], rank))
    lines.append(f"XXR {total_rounds}")
    lines.append("XXC white1" if top_seed_seat0 else "XXC black1")
    zero_numbers = sorted(numbers[pid] for pid in zeroed)
    if zero_numbers:
        lines.append("XXZ " + " ".join(str(n) for n in zero_numbers))
    pairs = {tuple(sorted((numbers[a], numbers[b]))) for a, b in forbidden}
    lines.extend(f"XXP {a} {b}" for a, b in sorted(pairs))
    ids = {number: pid for pid, number in numbers.items()}
    return TrfDocument("\n".join(lines) + "\n", numbers, ids)


def _player_line(
    player: PlayerEntry, numbers: Mapping[PlayerId, int], entries: Sequence[RoundEntry], rank: int
) -> str:
    points = sum(entry.score for entry in entries)
    rating = max(0, min(9999, player.rating))
    head = (
        f"001 {numbers[player.id]:>4}  {'':3} {_clean(player.label)[:NAME_WIDTH]:<{NAME_WIDTH}}"
        f" {rating:>4} {'':3} {'':>11} {'':10} {points:>4.1f} {rank:>4}"
    )
    assert len(head) == RESULTS_COLUMN - 2
    rounds = "".join("  " + _round_token(entry, numbers) for entry in entries)
    return (head + rounds).rstrip()


def _round_token(entry: RoundEntry, numbers: Mapping[PlayerId, int]) -> str:
    if entry.kind is Kind.BYE:
        return "0000 - U"
    if entry.kind is Kind.ABSENT:
        return "0000 - Z"
    if entry.kind is Kind.PENDING or entry.opponent is None:
        raise TournamentError(f"round {entry.round} still has games without a result")
    colour = "w" if entry.seat == 0 else "b"
    if entry.kind is Kind.FORFEIT:
        mark = "+" if entry.score == WIN else "-"
    else:
        mark = "1" if entry.score == WIN else "=" if entry.score == DRAW else "0"
    return f"{numbers[entry.opponent]:>4} {colour} {mark}"


def _clean(text: str) -> str:
    """One line of printable text (names come from users)."""
    return "".join(ch if ch.isprintable() else " " for ch in text).strip()
