"""The arithmetic of Fives with the cross: placement points, hand bonuses, leads, ranks."""

from __future__ import annotations

from collections.abc import Sequence

from games.dominoes.points import placement_points, round_to_five
from games.dominoes.tiles import LO, PIPS

__all__ = ["fish_winner", "hand_bonus", "lot_key", "lot_leader", "placement_points",
           "ranks_by_score", "round_to_five"]


def hand_bonus(pips: Sequence[int], winner: int, full_record: bool) -> int:
    """What the hand's winner scores: the other hands' pips summed, rounded to 5, and
    divided by 5 unless the table keeps the full record."""
    rounded = round_to_five(sum(p for seat, p in enumerate(pips) if seat != winner))
    return rounded if full_record else rounded // 5


def fish_winner(pips: Sequence[int]) -> int | None:
    """The seat with the fewest pips in a blocked hand; None on a tie for fewest."""
    fewest = min(pips)
    holders = [seat for seat, p in enumerate(pips) if p == fewest]
    return holders[0] if len(holders) == 1 else None


def lot_key(tile: int) -> tuple[int, int]:
    """Lower pip sum first, then the lower smaller half (0-3 before 1-2)."""
    return (PIPS[tile], LO[tile])


def lot_leader(lots: Sequence[int]) -> int:
    """The seat whose lot tile is lowest leads the first hand."""
    return min(range(len(lots)), key=lambda seat: lot_key(lots[seat]))


def ranks_by_score(scores: Sequence[int], last: int | None = None) -> list[int]:
    """Rank of each seat, 1 = best, equal scores sharing a rank. ``last`` (a flagged or
    resigning seat) ranks last whatever its score; the others rank among themselves."""
    others = [seat for seat in range(len(scores)) if seat != last]
    ranks = [0] * len(scores)
    for seat in others:
        ranks[seat] = 1 + sum(1 for other in others if scores[other] > scores[seat])
    if last is not None:
        ranks[last] = len(scores)
    return ranks


def sole_first(ranks: Sequence[int]) -> int | None:
    """The seat ranked 1 alone, or None when the first rank is shared."""
    first = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return first[0] if len(first) == 1 else None
