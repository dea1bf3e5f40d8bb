"""What a hand of Fives scores, for a hand played out fast (``games/dominoes/rollout``):
the same arithmetic as the state's ``_place`` and ``_settle``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.dominoes.tiles import pip_total

from .scoring import fish_winner, hand_bonus


@dataclass(frozen=True, slots=True)
class FivesHandEnds:
    target: int
    full_record: bool

    def placed(self, scores: list[int], seat: int, points: int) -> bool:
        scores[seat] += points
        return scores[seat] >= self.target  # the game ends at once, no hand bonus

    def went_out(self, scores: list[int], seat: int, hands: Sequence[int]) -> bool:
        return self._bonus(scores, seat, [pip_total(mask) for mask in hands])

    def blocked(self, scores: list[int], hands: Sequence[int]) -> bool:
        pips = [pip_total(mask) for mask in hands]
        winner = fish_winner(pips)
        return winner is not None and self._bonus(scores, winner, pips)

    def _bonus(self, scores: list[int], winner: int, pips: Sequence[int]) -> bool:
        scores[winner] += hand_bonus(pips, winner, self.full_record)
        return scores[winner] >= self.target
