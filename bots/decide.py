"""One decision of the computer player: a seat's view and a level in, an action out.

It runs in the runner's process pool (``bots/runner.py``), apart from the event loop that
holds the sockets, so it takes and gives plain data. A game that rebuilds a state from a
view (``state_from_view``) is searched at the level (``games/search/levels.py``) until a
deadline on the wall clock, fixed when the decision was asked for: a decision that waited
in a busy pool has that much less time, and one whose time is gone falls back to the
game's quick ``bot_action``. The time a decision may take (``decision_seconds``) stays
under the table's delay per decision (or a small share of the bank where the table has no
delay), less a margin for the network.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from games import registry
from games.engine.plugin import GamePlugin
from games.search.budget import Budget
from games.search.levels import LEVELS

from .levels import levels_of, searches

JSON = dict[str, Any]
log = logging.getLogger("bots")

SEARCH_S = 1.0  # what a search level is given (medium spends a quarter of it)
MARGIN_S = 0.5  # kept back from the table's time for the network and the think pause
BANK_SHARE = 0.02  # a table without a delay: at most this share of the bank left
MIN_SEARCH_S = 0.05  # less than this left: the quick bot instead


def decision_seconds(view: JSON, most: float = SEARCH_S) -> float:
    """How long the decision on ``view`` may search: ``most``, less where the table's
    clock allows less (its delay per decision less the margin; with no delay, a share of
    the seat's bank); 0 where it allows nothing."""
    clock = view.get("clock") or {}
    seat = view.get("seat")
    limit = most
    delay = clock.get("delay")
    if isinstance(delay, (int, float)) and delay > 0:
        limit = min(limit, float(delay) - MARGIN_S)
    elif clock.get("running") == seat and seat is not None:
        banks = clock.get("banks") or []
        if isinstance(seat, int) and 0 <= seat < len(banks):
            bank = float(banks[seat])
            limit = min(limit, bank * BANK_SHARE, bank - MARGIN_S)
    return max(0.0, limit)


def warm() -> None:
    """A pool process's start: the games imported before the first decision."""
    registry.all_games()


def _searched(plugin: GamePlugin, view: JSON, level: str, deadline: float,
              rng: random.Random) -> JSON | None:
    seat = view.get("seat")
    state = plugin.state_from_view(view)
    if state is None or not isinstance(seat, int) or time.time() + MIN_SEARCH_S > deadline:
        return None
    budget = Budget(deadline=deadline, now=time.time)
    return plugin.action_to_dict(seat, LEVELS[level](plugin, state, seat, rng, budget))


def decide(game: str, view: JSON, level: str | None, deadline: float, seed: int) -> JSON | None:
    """The computer's record-shaped action on its own seat's ``view`` at ``level`` (None:
    the game's plain ``bot_action``), decided by ``deadline`` (``time.time()``); None when
    it has nothing to do."""
    plugin = registry.game(game)
    rng = random.Random(seed)
    legal = plugin.legal_actions(view)
    if not legal:
        return None
    if level is not None and level in LEVELS and searches(plugin):
        if len(legal) == 1:
            return legal[0]
        try:
            found = _searched(plugin, view, level, deadline, rng)
        except Exception:  # a view this code cannot read: play on, and say so
            log.warning("search failed on a %s view", game, exc_info=True)
            found = None
        if found is not None:
            return found
    if level is not None and level in levels_of(plugin):
        return plugin.bot_action_at(view, rng, level)
    return plugin.bot_action(view, rng)
