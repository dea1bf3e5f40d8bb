"""Spectacular Bid's actions and view as API clients read them
(``games/engine/api_schema.py``)."""

from __future__ import annotations

from games.dominoes import api_schema as D
from games.engine.api_schema import (
    JSON,
    GameApi,
    action_kind,
    actions,
    array,
    clock_schema,
    nullable,
    obj,
    of,
    rules_schema,
)

from .rules import record_conventions
from .view import SPINNER_KEY

SEATS = 2


def _actions() -> JSON:
    simple = {
        "draw": "take a tile from the boneyard (only when no tile fits)",
        "accept": "accept the other player's bid: they pay it and open the hand",
        "decline": "decline to bid (or let the auction end): the hand opens by the hierarchy",
        "continue": "ready for the hand just dealt (both players, or at the grace deadline)",
        "reveal": "one-device game: the next player shows their tiles on the shared screen",
        "resign": "give the match up (no version needed)",
        "abort": "end the match before its first decision, unrated (`can_abort`)",
    }
    return actions("a Spectacular Bid action (`legal` lists the ones open to you now)", [
        D.play_action(SEATS),
        action_kind("bid", "bid for the first move: `amount` points, paid if accepted (the "
                           "jockey pays less by the jockey discount)", SEATS,
                    {"amount": of("integer", "the points bid", minimum=0, maximum=16383)}),
        *(action_kind(kind, text, SEATS) for kind, text in simple.items()),
    ])


BID_MOVE = {"amount": of("integer", "a bid's amount", minimum=0)}


def _summary() -> JSON:
    seat = of("integer", "", minimum=0, maximum=SEATS - 1)
    return D.hand_summary_schema(SPINNER_KEY, {
        "end": nullable(of("string", "how the hand ended: `domino` (a player played out), "
                                     "`blocked` or `match_over`"), "while it runs"),
        "jockey": nullable(seat | {"description": "the jockey of the hand (who played out "
                                                  "the hand before)"}, "when there is none"),
        "opener": nullable(seat | {"description": "who played the first tile"},
                           "until it is played"),
        "winner": nullable(seat | {"description": "who played out, or the lower hand of a "
                                                  "blocked hand"}, "while it runs or on a tie"),
        "sums": nullable(array("each hand's pips at the end", of("integer", "", minimum=0)),
                         "while it runs"),
        "settlement": nullable(of("integer", "points the loser paid the winner at the end"),
                               "while it runs"),
    }, BID_MOVE)


def _view() -> JSON:
    seat = of("integer", "", minimum=0, maximum=SEATS - 1)
    return obj("what a seat (or a spectator, `seat` null) sees of a Spectacular Bid match", {
        "game": {"const": "spectacular-bid", "description": "the game's key"},
        "seat": nullable(seat | {"description": "your seat"}, "for a spectator"),
        "phase": {"enum": ["deal", "continue", "auction", "play", "over"],
                  "description": "`deal`: a deal is due; `continue`: dealt, waiting for both "
                                 "players' `continue`; `auction`: the first-move auction; "
                                 "`play`: the hand runs; `over`: the match has ended"},
        "hand_no": of("integer", "the hand being played, from 0 (-1 before the first deal)",
                      minimum=-1),
        "rules": rules_schema(record_conventions()),
        "balances": array("each player's points (the match is lost at 0)",
                          of("integer", "")),
        "clock": clock_schema(),
        "to_act": nullable(seat | {"description": "whose decision it is"}, "when nobody's"),
        "awaiting_reveal": nullable(seat | {"description": "one-device game: the player who "
                                                           "must reveal their tiles"},
                                    "otherwise"),
        "result": nullable(obj("how the match ended", {
            "winner": nullable(seat | {"description": "the winner"}, "when nobody won"),
            "reason": of("string", "`points` (the other ran out), `time`, `resign`, `abort` "
                                   "or `annulled`"),
        }), "while the match runs"),
        "can_abort": of("boolean", "the match may still be aborted (no decision yet)"),
        "jockey": nullable(seat | {"description": "the jockey of this hand"},
                           "when there is none"),
        "board": D.board_schema(SPINNER_KEY),
        "moves": array("this hand's moves", D.move_schema(BID_MOVE)),
        **D.hand_fields(),
        "boneyard_count": of("integer", "tiles left in the boneyard", minimum=0),
        "continued": array("who has sent `continue` for this hand", of("boolean", "")),
        "grace_deadline": of("number", "`continue` phase: when the hand starts anyway "
                                       "(match time)"),
        "auction": obj("the auction so far", {
            "bid": nullable(of("integer", "the standing bid", minimum=1), "before any bid"),
            "bidder": nullable(seat | {"description": "who made it"}, "before any bid"),
        }),
        "hands": array("the hand being played and the one before", _summary()),
        "hands_played": of("integer", "hands started so far", minimum=0),
        "legal": array("your actions now (none for a spectator)", _actions()),
    }, required=["game", "seat", "phase", "hand_no", "rules", "balances", "clock", "to_act",
                 "awaiting_reveal", "result", "can_abort", "legal"])


API = GameApi(action=_actions(), view=_view())
