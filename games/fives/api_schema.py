"""Fives' actions and view as API clients read them (``games/engine/api_schema.py``)."""

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

from .actions import MAX_SEATS
from .rules import conventions
from .view import SPINNER_KEY


def _actions() -> JSON:
    seats = MAX_SEATS
    return actions("a Fives action (`legal` lists the ones open to you now)", [
        D.play_action(seats),
        action_kind("draw", "take a tile from the bazaar (only when no tile fits)", seats),
        action_kind("resign", "give the game up (always allowed; no version needed)", seats),
    ])


def _summary() -> JSON:
    return D.hand_summary_schema(SPINNER_KEY, {
        "leader": of("integer", "the seat that led the hand", minimum=0),
        "end": nullable(of("string", "how the hand ended: `domino` (a seat played out), "
                                     "`fish` (blocked) or `game_over`"), "while it runs"),
        "winner": nullable(of("integer", "the seat that won the hand"), "while it runs or "
                                                                        "when nobody did"),
        "pips": nullable(array("each seat's pips left when the hand ended",
                               of("integer", "", minimum=0)), "while it runs"),
        "bonus": nullable(of("integer", "the points the winner scored for the others' pips"),
                          "while it runs"),
    })


def _view() -> JSON:
    seats = MAX_SEATS
    return obj("what a seat (or a spectator, `seat` null) sees of a Fives game", {
        "game": {"const": "fives", "description": "the game's key"},
        "seat": nullable(of("integer", "your seat", minimum=0, maximum=seats - 1),
                         "for a spectator"),
        "seats": of("integer", "players at the table", enum=[2, 4]),
        "phase": {"enum": ["deal", "play", "over"], "description": "`deal`: the next hand is "
                  "being dealt; `play`: a hand runs; `over`: the game has ended"},
        "hand_no": of("integer", "the hand being played, from 0 (-1 before the first deal)",
                      minimum=-1),
        "rules": rules_schema(conventions()),
        "scores": array("each seat's points", of("integer", "")),
        "clock": clock_schema(),
        "to_act": nullable(of("integer", "the seat whose move it is"), "when nobody's"),
        "result": nullable(obj("how the game ended", {
            "winner": nullable(of("integer", "the winning seat"), "when nobody won"),
            "ranks": nullable(array("each seat's place, 1 the best", of("integer", "",
                                                                       minimum=1)),
                              "when the game was annulled"),
            "reason": of("string", "`target` (a seat reached the target), `time`, `resign` "
                                   "or `annulled`"),
        }), "while the game runs"),
        "lots": nullable(D.TILES | {"description": "the tile each seat drew for the first "
                                                   "lead"}, "before the lots are drawn"),
        "board": D.board_schema(SPINNER_KEY),
        "moves": array("this hand's moves", D.move_schema()),
        **D.hand_fields(),
        "bazaar_count": of("integer", "tiles left in the bazaar", minimum=0),
        "drawable": of("integer", "tiles of the bazaar that may still be drawn (two stay)",
                       minimum=0),
        "hands": array("the hand being played and the one before", _summary()),
        "hands_played": of("integer", "hands started so far", minimum=0),
        "legal": array("your actions now (none for a spectator or once over)", _actions()),
    }, required=["game", "seat", "seats", "phase", "hand_no", "rules", "scores", "clock",
                 "to_act", "result", "lots", "legal"])


API = GameApi(action=_actions(), view=_view())
