"""What a hand of Spectacular Bid moves between the balances, for a hand played out fast
(``games/dominoes/rollout``): the same arithmetic as the state's ``_place``, ``_pay``
and ``_settle_block`` (§5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.dominoes.points import round_to_five
from games.dominoes.tiles import pip_total


def _pay(balances: list[int], payer: int, amount: int) -> None:
    moved = min(amount, balances[payer])  # a payment never exceeds the payer's balance
    balances[payer] -= moved
    balances[1 - payer] += moved


@dataclass(frozen=True, slots=True)
class BidHandEnds:
    def placed(self, scores: list[int], seat: int, points: int) -> bool:
        _pay(scores, 1 - seat, points)
        return scores[1 - seat] == 0

    def went_out(self, scores: list[int], seat: int, hands: Sequence[int]) -> bool:
        return False  # going out moves no points

    def blocked(self, scores: list[int], hands: Sequence[int]) -> bool:
        sums = (pip_total(hands[0]), pip_total(hands[1]))
        if sums[0] == sums[1]:
            return False
        loser = 0 if sums[0] > sums[1] else 1
        _pay(scores, loser, round_to_five(sums[loser]))
        return scores[loser] == 0
