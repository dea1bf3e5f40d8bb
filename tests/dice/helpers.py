"""Drivers for dice tests: games played from seeded randomness, records built by hand."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from games.dice import actions as A
from games.dice.plugin import GAME
from games.dice.record import parse
from games.dice.replay import replay, report
from games.dice.rules import Rules
from games.dice.state import DiceGame
from games.engine.plugin import LogEntry
from games.engine.protocol import Outcome

S = 1_000_000  # microseconds in a second


def doc(players: list[str], actions: list[dict[str, Any]],
        rules: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"format": "dice/1", "players": players, "actions": actions}
    if rules is not None:
        out["rules"] = rules
    return out


def run(document: dict[str, Any], with_legal: bool = False) -> dict[str, Any]:
    """The --json report of a record (through JSON text, as the command reads it)."""
    return report(replay(parse(json.loads(json.dumps(document)))), with_legal)


def outcome(document: dict[str, Any] | bytes, with_legal: bool = False) -> Any:
    text = document if isinstance(document, bytes) else json.dumps(document).encode()
    return GAME.replay_document(text, with_legal)


def roll(game: DiceGame, dice: list[int], now_us: int = 0) -> None:
    """Apply the chance outcome due now with these dice (order, roll or re-roll)."""
    due = game.chance_due()
    assert due is not None
    payload: dict[str, Any] = ({"type": "order", "seat": due.seat, "die": dice[0]}
                               if due.kind == "order"
                               else {"type": due.kind, "seat": due.seat, "dice": dice})
    GAME.apply_chance(game, payload, now_us)


def act(game: DiceGame, seat: int, code: int, now_us: int = 0) -> Outcome:
    out = game.apply(seat, code, now_us)
    assert isinstance(out, Outcome), out
    return out


def improve(keep: list[int]) -> int:
    return A.improve_code(keep)


def snapshot(game: DiceGame) -> dict[str, Any]:
    return copy.deepcopy(vars(game))


def play(seed: int, seats: int, rules: Rules, *, level: str | None = None,
         late: float = 0.1, resign: float = 0.0) -> tuple[DiceGame, list[LogEntry]]:
    """A whole game as the server would run it, with its stored log.

    Decisions come from a bot ``level`` or uniformly among the legal ones; with
    probability ``late`` nobody decides and time passes past the deadline; with
    probability ``resign`` a random seat still playing resigns.
    """
    rng = random.Random(seed)
    game = GAME.new_state(rules, seats)
    log: list[LogEntry] = []
    now = 0
    while game.result is None:
        now += rng.randrange(1, 3 * S)
        if game.needs_chance():
            payload = GAME.sample_chance(game, rng)
            GAME.apply_chance(game, payload, now)
            log.append(LogEntry("chance", payload["seat"], payload, now))
            continue
        if resign and rng.random() < resign:
            leaver = rng.choice(game.active_seats())
            act(game, leaver, A.RESIGN, now)
            log.append(LogEntry("action", leaver, A.action_to_dict(leaver, A.RESIGN), now))
            continue
        seat = game.to_act()
        assert seat is not None
        deadline = game.next_deadline_us()
        assert deadline is not None
        if rng.random() < late:
            now = deadline + rng.randrange(0, 2 * S)
            game.advance(now)
            log.append(LogEntry("time", None, {}, now))
            continue
        now = min(now, deadline - 1)
        if level is None:
            code = rng.choice(game.legal_actions(seat))
            data = A.action_to_dict(seat, code)
        else:
            chosen = GAME.bot_action_at(GAME.view(game, seat), rng, level)
            assert chosen is not None
            data = chosen
            _, code = GAME.action_from_dict(data)
        out = act(game, seat, code, now)
        assert out.applied
        log.append(LogEntry("action", seat, data, now))
    return game, log
