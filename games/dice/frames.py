"""Frames for the replay viewer: the game after every record action (all public)."""

from __future__ import annotations

from typing import Any

from .record import parse
from .replay import replay, report
from .state import DiceGame
from .view import turn_dict

JSON = dict[str, Any]


def _position(game: DiceGame) -> JSON:
    last = game.turns[-1] if game.turns else None
    return {
        "round": game.round_no,
        "phase": game.phase,
        "current": game.current,
        "turn": turn_dict(last) if last is not None else None,
        "scores": [list(sheet.scores) for sheet in game.rounds],
        "winners": [sheet.winner for sheet in game.rounds],
        "totals": None if game.rules.quick else list(game.totals),
        "round_wins": list(game.round_wins),
    }


def frames(document: Any) -> JSON:
    """Every position, action by action; RecordError when the record is malformed."""
    record = parse(document)
    steps: list[JSON] = []

    def observe(game: DiceGame, entries: list[JSON]) -> None:
        position = _position(game)
        steps.extend({"action": entry, **position} for entry in entries)

    rep = replay(record, observer=observe)
    summary = report(rep)
    return {
        "players": record.players,
        "rules": record.rules.to_dict(),
        "frames": steps,
        "rounds": summary["rounds"],
        "totals": summary["totals"],
        "round_wins": summary["round_wins"],
        "result": summary["result"],
        "error": summary.get("error"),
    }
