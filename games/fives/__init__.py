"""Fives with the cross: 2 or 4 players, each for themselves, to a target score (pure Python)."""

from .rules import Rules
from .state import FivesState

__all__ = ["FivesState", "Rules"]
