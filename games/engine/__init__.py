"""What every game on the platform shares, in pure Python.

No Django, no clock reads, no randomness: times and chance outcomes (deals, dice)
are passed in by the caller, so a game replays exactly from its inputs.
"""

from .clock import MatchClock
from .protocol import GameState, Illegal, Outcome, Result, Step

__all__ = ["GameState", "Illegal", "MatchClock", "Outcome", "Result", "Step"]
