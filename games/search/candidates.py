"""The actions a search considers: every legal action, less the bids it never makes.

Read through the plugin's codec (``action_to_dict``), so it holds for any game with an
auction: a bid whose payment would take the bidder's whole balance loses the match the
moment it is accepted, so it is never searched while anything else is legal; and only
the ``BID_LEVELS`` lowest affordable bids are searched (a higher bid only costs more for
the same opening), so that an auction's breadth does not starve the search of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState

BID_LEVELS = 4


@cache
def bid_amount(plugin: GamePlugin, code: int) -> int | None:
    """The amount of a bid action, None for any other action."""
    fields = plugin.action_to_dict(0, code)
    amount = fields.get("amount")
    if fields.get("type") != "bid" or not isinstance(amount, int):
        return None
    return amount


def payment(state: GameState, seat: int, amount: int) -> int:
    """What ``seat`` pays when its bid of ``amount`` is accepted (a discount included)."""
    net = getattr(state, "net_payment", None)
    return int(net(seat, amount)) if callable(net) else amount


def considered(plugin: GamePlugin, state: GameState, seat: int,
               legal: Sequence[int]) -> list[int]:
    """The subset of ``legal`` the search explores (never empty when ``legal`` is not)."""
    bids = [(amount, code) for code in legal
            if (amount := bid_amount(plugin, code)) is not None]
    if not bids:
        return list(legal)
    scores = plugin.scores(state)
    balance = scores[seat] if scores else None
    others = [code for code in legal if bid_amount(plugin, code) is None]
    payable = sorted((amount, code) for amount, code in bids
                     if balance is None or payment(state, seat, amount) < balance)
    kept = [code for _, code in payable[:BID_LEVELS]]
    return others + kept or list(legal)
