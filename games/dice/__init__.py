"""Five dice, five rounds (shared/spec/dice.md): the rules engine, pure Python."""

from .rules import Rules
from .scoring import reading, recorded, score
from .state import DiceGame

__all__ = ["DiceGame", "Rules", "reading", "recorded", "score"]
