"""The engine's refusal reasons, translated for the user.

The engine is pure and speaks English; each reason it can give is listed here so
that Django's translation machinery can find and translate it.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

REASONS = [
    gettext_noop("the match is over"),
    gettext_noop("there is no such seat"),
    gettext_noop("a match can be aborted only before its first decision"),
    gettext_noop("there is nothing to continue now"),
    gettext_noop("you have already pressed Continue"),
    gettext_noop("a pass is never chosen: it is applied when you can neither play nor draw"),
    gettext_noop("the next hand has not been dealt"),
    gettext_noop("the hand starts when both players have pressed Continue"),
    gettext_noop("it is not your turn"),
    gettext_noop("reveal your tiles first"),
    gettext_noop("there is nothing to reveal now"),
    gettext_noop("you face a bid: accept it or raise"),
    gettext_noop("there is no bid to accept"),
    gettext_noop("bids are multiples of 5"),
    gettext_noop("you cannot afford that bid"),
    gettext_noop("the opening is being auctioned: bid, accept or decline"),
    gettext_noop("that is not an action of this game"),
    gettext_noop("there is no auction now"),
    gettext_noop("play the tile you drew"),
    gettext_noop("open the hand with a tile"),
    gettext_noop("you hold a playable tile, so you may not draw"),
    gettext_noop("the boneyard is empty"),
    gettext_noop("you do not hold that tile"),
    gettext_noop("you must play the tile you drew"),
    gettext_noop("the board is empty: the opening tile takes no target"),
    gettext_noop("name the tile and port to attach to"),
    gettext_noop("the tile does not match that place"),
    gettext_noop("that place is not open"),
]


def translate(reason: str) -> str:
    text = gettext(reason)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
