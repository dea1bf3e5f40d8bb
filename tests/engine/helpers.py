"""Building deals and driving a Match in tests.

Tiles are written as the spec writes them (``"1-4"``); a deal is given as the two
hands and the first tiles of the boneyard in draw order, the rest of the boneyard
following in set order. A *script* is a string of moves played by whoever is to act:
``"draw"``, ``"3-6>6-6:line_a"`` (tile > target : port), ``"5-5"`` (an opening tile),
``"bid15"``, ``"accept"``, ``"decline"``, ``"continue"``, ``"reveal"``.
"""

from __future__ import annotations

from games.engine.protocol import Illegal, Outcome
from games.spectacular_bid import actions as A
from games.spectacular_bid.rules import Rules
from games.spectacular_bid.state import Deal, Match
from tests.domino_moves import applied, pile, placement, placement_name, tiles
from tests.domino_moves import us as us


def make_deal(seat0: str, seat1: str, boneyard: str = "") -> Deal:
    """Seven tiles each; ``boneyard`` lists the first draws, the unnamed tiles follow."""
    hands = (tiles(seat0), tiles(seat1))
    return Deal.checked(hands, pile(list(hands), tiles(boneyard)))


def code(move: str) -> int:
    """One script move -> action code."""
    simple = {
        "draw": A.DRAW,
        "pass": A.PASS,
        "accept": A.ACCEPT,
        "decline": A.DECLINE,
        "continue": A.CONTINUE,
        "reveal": A.REVEAL,
        "resign": A.RESIGN,
        "abort": A.ABORT,
    }
    if move in simple:
        return simple[move]
    if move.startswith("bid"):
        return A.BID + int(move[3:])
    return placement(move)


def move_name(action: int) -> str:
    """Action code -> script move (the inverse of :func:`code`)."""
    if A.is_play(action):
        return placement_name(action)
    if A.is_bid(action):
        return f"bid{action - A.BID}"
    return A.action_type(action)


def apply_ok(match: Match, seat: int, move: str | int, now_us: int = 0) -> Outcome:
    return applied(match, seat, code(move) if isinstance(move, str) else move, move, now_us)


def refused(match: Match, seat: int, move: str | int, now_us: int = 0) -> str:
    """Apply a move that must be illegal; returns the reason."""
    action = code(move) if isinstance(move, str) else move
    outcome = match.apply(seat, action, now_us)
    assert isinstance(outcome, Illegal), f"{move!r} by seat {seat} was accepted"
    return outcome.reason


def play(match: Match, script: str, now_us: int = 0) -> None:
    """Play the moves of ``script``, each by the seat to act, all at ``now_us``.

    In a one-device game the seat to act reveals its tiles first when it has to and
    the script does not say so itself.
    """
    for move in script.split():
        seat = match.to_act()
        assert seat is not None, f"nobody is to act before {move!r}"
        if match.awaiting_reveal == seat and move != "reveal":
            apply_ok(match, seat, "reveal", now_us)
        apply_ok(match, seat, move, now_us)


def start(deal: Deal, rules: Rules | None = None, now_us: int = 0) -> Match:
    """A new match with ``deal`` dealt and both players' Start pressed at ``now_us``."""
    match = Match(rules or Rules())
    match.deal(deal)
    apply_ok(match, 0, "continue", now_us)
    apply_ok(match, 1, "continue", now_us)
    return match


def start_next(match: Match, deal: Deal, now_us: int = 0) -> None:
    """Deal the next hand and press Continue for both."""
    match.deal(deal)
    apply_ok(match, 0, "continue", now_us)
    apply_ok(match, 1, "continue", now_us)


def legal_moves(match: Match, seat: int) -> set[str]:
    return {move_name(action) for action in match.legal_actions(seat)}


# --- Hands found once by a search and kept as fixed positions -------------------------
# A hand that seat 0 plays out without any placement scoring (balances unchanged).
DOMINO_BY_0 = make_deal(
    "3-3 6-6 4-4 1-4 0-1 3-5 2-3",
    "0-2 2-4 3-6 3-4 0-4 0-6 4-5",
)
DOMINO_BY_0_SCRIPT = (
    "0-6>6-6:line_b 0-1>0-6:low 3-6>6-6:line_a 3-3>3-6:low 3-4>3-3:line_b 1-4>0-1:high"
    " 2-4>1-4:high 2-3>2-4:low 0-4>3-4:high 3-5>2-3:high 4-5>3-5:high 4-4>4-5:low"
)
# The same for seat 1.
DOMINO_BY_1 = make_deal(
    "0-3 3-5 2-6 2-4 0-0 4-6 0-4",
    "1-1 2-3 2-5 3-4 4-5 1-6 3-3",
)
DOMINO_BY_1_SCRIPT = (
    "0-3>3-3:line_b 3-4>3-3:line_a 3-5>3-3:branch_b 4-5>3-5:high 0-4>0-3:low 2-3>3-3:branch_a"
    " 4-6>4-5:low 2-5>2-3:low 2-4>3-4:high 1-6>4-6:high 2-6>2-4:low 1-1>1-6:low"
)
# Any deal will do for a hand opened by auction.
PLAIN_DEAL = make_deal("0-0 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2")


def after_domino(jockey: int, rules: Rules | None = None, now_us: int = 0) -> Match:
    """A match whose first hand ``jockey`` played out at ``now_us``, no points moved."""
    deal, script = (DOMINO_BY_0, DOMINO_BY_0_SCRIPT) if jockey == 0 else (
        DOMINO_BY_1, DOMINO_BY_1_SCRIPT)
    match = start(deal, rules, now_us)
    play(match, script, now_us)
    assert match.hands_summary[0].end == "domino"
    assert match.balances == [match.rules.start_points] * 2
    return match


def auction(jockey: int, rules: Rules | None = None, now_us: int = 0) -> Match:
    """The second hand dealt and continued at ``now_us``: the auction is on."""
    match = after_domino(jockey, rules, now_us)
    start_next(match, PLAIN_DEAL, now_us)
    assert match.phase == "auction"
    return match
