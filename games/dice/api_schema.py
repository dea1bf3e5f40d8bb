"""The dice game's actions and view as API clients read them
(``games/engine/api_schema.py``)."""

from __future__ import annotations

from games.engine.api_schema import (
    JSON,
    GameApi,
    action_kind,
    actions,
    array,
    nullable,
    obj,
    of,
    rules_schema,
)

from . import scoring as S
from .actions import MAX_KEEP, MAX_SEAT
from .rules import CONVENTIONS

SEATS = MAX_SEAT + 1
DIE = of("integer", "a die", minimum=1, maximum=6)
COMBINATIONS = [S.NOTHING, S.PAIR, S.TWO_PAIRS, S.SET, S.FULL_HOUSE, S.SMALL_STRAIGHT,
                S.LARGE_STRAIGHT, S.FOUR, S.FIVE]
COMBINATION = {"enum": COMBINATIONS, "description": "the roll's best combination"}


def _seat(description: str) -> JSON:
    return of("integer", description, minimum=0, maximum=MAX_SEAT)


def _actions() -> JSON:
    return actions("a dice decision (`legal` lists the ones open to you now)", [
        action_kind("stand", "record the roll on the table as it is", SEATS),
        action_kind("improve", "keep `keep` and roll the other dice once more: the new roll "
                               "counts if it scores, else the first roll's plain sum", SEATS,
                    {"keep": array("the dice kept, by value (0 to 4 of the table's)", DIE,
                                   maxItems=MAX_KEEP)}),
        action_kind("resign", "leave the game (no version needed)", SEATS),
    ])


def _turn() -> JSON:
    return obj("a turn on the sheet", {
        "seat": _seat("whose turn"),
        "dice": array("the first roll", DIE, minItems=5, maxItems=5),
        "combination": COMBINATION,
        "first": of("integer", "what the first roll scores"),
        "keep": nullable(array("the dice kept to improve", DIE), "for a stand"),
        "rerolled": nullable(array("the new dice of the improvement", DIE),
                             "for a stand or until rolled"),
        "second": nullable(of("integer", "what the improved roll scores"),
                           "for a stand or until rolled"),
        "recorded": nullable(of("integer", "the points written on the sheet"),
                             "until decided"),
        "forced": of("boolean", "recorded by the server (the decision time ran out)"),
    })


def _view() -> JSON:
    return obj("what a seat (or a spectator, `seat` null) sees of a dice game: dice are "
               "public, so the views differ only in `seat` and `legal`", {
        "game": {"const": "dice", "description": "the game's key"},
        "seat": nullable(_seat("your seat"), "for a spectator"),
        "players": of("integer", "players at the table", minimum=1, maximum=SEATS),
        "phase": {"enum": ["order", "roll", "decide", "reroll", "over"],
                  "description": "`order`: one die each decides the order of play; `roll`: "
                                 "a turn's first roll is due; `decide`: stand or improve; "
                                 "`reroll`: an improvement's roll is due; `over`"},
        "rules": rules_schema(CONVENTIONS),
        "round": of("integer", "the round being played, from 0 (-1 while the order of play "
                               "is rolled)", minimum=-1),
        "to_act": nullable(_seat("whose decision it is"), "when nobody's"),
        "current": nullable(_seat("whose turn it is"), "between turns"),
        "dice_due": nullable(obj("the roll the server makes next", {
            "type": {"enum": ["order", "roll", "reroll"], "description": "which roll"},
            "seat": _seat("for whom"),
            "count": of("integer", "how many dice", minimum=1, maximum=5),
        }), "when none is due"),
        "order": obj("the rolls for the order of play", {
            "rolls": array("each order roll (repeated among tied seats)", array(
                "one die a seat", obj("a seat's die", {"seat": _seat("who"), "die": DIE}))),
            "waiting": array("seats still to roll in this order roll", _seat("")),
            "first": nullable(_seat("who plays first"), "until decided"),
        }),
        "table": nullable(obj("the roll on the table", {
            "seat": _seat("whose roll"),
            "dice": array("the dice", DIE, minItems=5, maxItems=5),
            "combination": COMBINATION,
            "combination_dice": array("the dice of the combination", DIE),
            "score": of("integer", "what the roll scores"),
            "stand_records": of("integer", "what a stand would record"),
            "fallback": of("integer", "what a failed improvement records (the plain sum)"),
            "keep": nullable(array("the dice kept", DIE), "before an improvement"),
        }), "between turns"),
        "sheet": array("the score sheet, a round a row", obj("a round", {
            "round": of("integer", "the round, from 0", minimum=0),
            "scores": array("each seat's points in the round",
                            nullable(of("integer", ""), "until the seat has played it")),
            "winner": nullable(_seat("who won the round"), "until over or on a tie"),
            "over": of("boolean", "the round has ended"),
            "turns": array("its turns, in order", _turn()),
        })),
        "totals": nullable(array("each seat's points in all", of("integer", "")),
                           "in the quick version (rounds only)"),
        "round_wins": array("rounds each seat has won", of("integer", "", minimum=0)),
        "resigned": array("who has left the game", of("boolean", "")),
        "clock": obj("the decision clock", {
            "decision_s": of("integer", "seconds per decision", minimum=1),
            "deadline": nullable(of("number", "when the decision is forced (match time)"),
                                 "when none is due"),
        }),
        "result": nullable(obj("the result (`shared/spec/dice.md`)", {
            "points_winner": nullable(_seat("the winner on points"), "on a tie or quick"),
            "rounds_winner": nullable(_seat("the winner on rounds"), "on a tie"),
            "absolute": nullable(of("boolean", "one seat won on both"), "while running"),
            "reason": nullable(of("string", "`finished`, `resign` or `annulled`"),
                               "while running"),
            "ranks": nullable(array("each seat's place, 1 the best", of("integer", "",
                                                                       minimum=1)),
                              "when there are none"),
        }), "while the game runs"),
        "legal": array("your decisions now (none for a spectator)", _actions()),
    })


API = GameApi(action=_actions(), view=_view())
