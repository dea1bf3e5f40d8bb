"""Spectacular Bid: a two-player Fives duel with a first-move auction (pure Python)."""

from .actions import action_from_dict, action_to_dict
from .rules import Rules
from .state import Match

__all__ = ["Match", "Rules", "action_from_dict", "action_to_dict"]
