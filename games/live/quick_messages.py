"""Quick messages at the table: a fixed set of codes a seated player sends, no free text.

The page words each code in the reader's language (games/web/views.py: TABLE_STRINGS
``say_<code>``); the server only checks and relays the code. Not part of the match: no
event in the log, no version.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.live.live_limits import TokenBucket

# The page's words for each code (the match page's strings ``say_<code>``).
LABELS = {
    "hello": gettext_lazy("Hello"),
    "good_game": gettext_lazy("Good game"),
    "thanks": gettext_lazy("Thanks"),
    "oops": gettext_lazy("Oops"),
}
CODES = tuple(LABELS)
# One message every 2 s per socket.
RATE_PER_S = 0.5
BURST = 1.0


def new_bucket() -> TokenBucket:
    return TokenBucket(RATE_PER_S, BURST)


class Refused(Exception):
    """A quick message not relayed: ``code`` and the message for the sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check(data: dict[str, Any], seats: list[int], bucket: TokenBucket) -> tuple[int, str]:
    """The (seat, code) to relay; ``Refused`` for a spectator, an unknown code or seat, or
    a sender faster than one message every two seconds."""
    if not seats:
        raise Refused("forbidden", _("Spectators cannot send messages at the table."))
    code = data.get("code")
    if not isinstance(code, str) or code not in CODES:
        raise Refused("bad_request",
                      _("'code' must be one of %(codes)s.") % {"codes": ", ".join(CODES)})
    seat = data.get("seat", seats[0])
    if isinstance(seat, bool) or seat not in seats:
        raise Refused("forbidden", _("You do not sit in that seat."))
    if not bucket.allow():
        raise Refused("rate_limited", _("One message every two seconds."))
    return seat, code


def said(seat: int, code: str) -> dict[str, Any]:
    return {"type": "said", "seat": seat, "code": code}
