"""What a seat, or a spectator, sees of a dice game: the only way state leaves the engine.

Dice are public, so every view shows the whole game; the seat changes only ``legal``
(the decisions open to that seat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import actions as A
from .rules import US
from .scoring import reading

if TYPE_CHECKING:
    from .state import DiceGame, Standing, Turn

JSON = dict[str, Any]


def standing_dict(standing: Standing | None) -> JSON:
    """The result object of dice.md's replay contract (``null``s while running)."""
    if standing is None:
        return {"points_winner": None, "rounds_winner": None, "absolute": None, "reason": None}
    return {
        "points_winner": standing.points_winner,
        "rounds_winner": standing.rounds_winner,
        "absolute": standing.absolute,
        "reason": standing.reason,
    }


def turn_dict(turn: Turn) -> JSON:
    first = reading(turn.dice)
    return {
        "seat": turn.seat,
        "dice": list(turn.dice),
        "combination": first.name,
        "first": turn.first,
        "keep": list(turn.keep) if turn.keep is not None else None,
        "rerolled": list(turn.rerolled) if turn.rerolled is not None else None,
        "second": turn.second,
        "recorded": turn.recorded,
        "forced": turn.forced,
    }


def _table(game: DiceGame) -> JSON | None:
    """The roll on the table: what it scores, what a stand records, what a failed
    improvement falls back to."""
    turn = game.turn
    if turn is None:
        return None
    first = reading(turn.dice)
    return {
        "seat": turn.seat,
        "dice": list(turn.dice),
        "combination": first.name,
        "combination_dice": list(first.dice),
        "score": first.score,
        "stand_records": first.score,
        "fallback": first.plain_sum,
        "keep": list(turn.keep) if turn.keep is not None else None,
    }


def _sheet(game: DiceGame) -> list[JSON]:
    by_round: list[list[JSON]] = [[] for _ in game.rounds]
    for turn in game.turns:
        by_round[turn.round].append(turn_dict(turn))
    return [
        {"round": r, "scores": list(sheet.scores), "winner": sheet.winner, "over": sheet.over,
         "turns": by_round[r]}
        for r, sheet in enumerate(game.rounds)
    ]


def build_view(game: DiceGame, seat: int | None) -> JSON:
    deadline = game.next_deadline_us()
    due = game.chance_due() if game.result is None else None
    return {
        "game": "dice",
        "seat": seat,
        "players": game.num_seats,
        "phase": game.phase,
        "rules": game.rules.to_dict(),
        "round": game.round_no,
        "to_act": game.to_act(),
        "current": game.current,
        "dice_due": {"type": due.kind, "seat": due.seat, "count": due.count} if due else None,
        "order": {
            "rolls": [[{"seat": s, "die": d} for s, d in rolls] for rolls in game.order_rolls],
            "waiting": list(game.order_waiting),
            "first": game.first_seat,
        },
        "table": _table(game),
        "sheet": _sheet(game),
        "totals": None if game.rules.quick else list(game.totals),
        "round_wins": list(game.round_wins),
        "resigned": list(game.resigned),
        "clock": {
            "decision_s": game.rules.decision_s,
            "deadline": deadline / US if deadline is not None else None,
        },
        "result": standing_dict(game.standing) if game.standing is not None else None,
        "legal": (
            [A.action_to_dict(seat, code) for code in game.legal_actions(seat)]
            if seat is not None
            else []
        ),
    }
