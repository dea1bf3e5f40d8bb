"""Five dice, five rounds as a platform game (``games/engine/plugin.py``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine.api_schema import GameApi
from games.engine.plugin import (
    Convention,
    GamePlugin,
    LogEntry,
    RecordError,
    ReplayOutcome,
    RulesError,
    gettext_noop,
)
from games.engine.protocol import JSON, ChanceSource, GameState, Illegal, RecordedChance

from . import actions as A
from . import bot, odds
from .api_schema import API
from .frames import frames as build_frames
from .record import FORMAT, chance_from_dict, chance_to_dict, export
from .record import parse as parse_record
from .replay import replay_document
from .replay_text import REPLAY_STRINGS
from .rules import CONVENTIONS, STANDARD_ROUNDS, Rules, check_seats, parse_rules
from .scoring import DiceError, fallback
from .state import DiceGame

# An expected cost this small is a decision as good as the best (a tie, or float noise).
BEST_TOLERANCE = 1e-9


class ChanceError(ValueError):
    """A chance outcome that is not the one due now."""


def _game(state: GameState) -> DiceGame:
    if not isinstance(state, DiceGame):
        raise TypeError("not a dice game")
    return state


def _rules(rules: Any) -> Rules:
    if not isinstance(rules, Rules):
        raise TypeError("not dice rules")
    return rules


class DicePlugin(GamePlugin):
    key = "dice"
    name = gettext_noop("Five dice, five rounds")
    summary = gettext_noop(
        "A dice game for one player or more: five dice, two tries a turn, and two ways to win.")
    record_format = FORMAT
    seat_counts = (1, 2, 3, 4, 5, 6)
    # The computer's levels (bots/levels.py reads them): bot.py's, careful by default.
    computer_levels = bot.LEVELS
    default_computer_level = bot.DEFAULT_LEVEL
    versionless = frozenset({"resign"})
    # The board on the shared match page (templates/games/table.html).
    replay_strings = REPLAY_STRINGS
    win_reasons = {"finished": gettext_noop("every round played"),
                   "time": gettext_noop("on time"), "resign": gettext_noop("by resignation")}
    average_label = gettext_noop("Points per game")

    # -- table conventions ------------------------------------------------------

    def conventions(self) -> list[Convention]:
        return list(CONVENTIONS)

    def parse_rules(self, data: Any, seats: int) -> Rules:
        check_seats(seats)
        return parse_rules(data)

    def rules_to_dict(self, rules: Any) -> JSON:
        return _rules(rules).to_dict()

    def rated_allows(self, rules: Any) -> bool:
        """The standard game: five rounds with point totals (any time limit)."""
        checked = _rules(rules)
        return checked.rounds == STANDARD_ROUNDS and not checked.quick

    # -- state and chance ---------------------------------------------------------

    def new_state(self, rules: Any, seats: int) -> DiceGame:
        if seats not in self.seat_counts:
            raise RulesError(f"seats must be a number of players from 1 to 6, got {seats!r}",
                             "seats", "seats")
        return DiceGame(_rules(rules), seats)

    def sample_chance(self, state: GameState, rng: ChanceSource) -> JSON:
        due = _game(state).chance_due()
        if due is None or state.result is not None:
            raise ChanceError("no dice are due now")
        return chance_to_dict(due.kind, due.seat, roll(rng, due.count))

    def recorded_chances(self, record_data: JSON) -> list[RecordedChance]:
        """Every die in the order rolled: an order die, a turn's five, a re-roll's
        others; each die is ``randint(1, 6)``."""
        events: list[RecordedChance] = []
        turn = 0
        for action in parse_record(record_data).actions:
            if action.kind == "order":
                where = f"order roll of seat {action.seat}"
            elif action.kind == "roll":
                turn += 1
                where = f"turn {turn} (seat {action.seat}): roll"
            elif action.kind == "improve":
                where = f"turn {turn} (seat {action.seat}): re-roll"
            else:
                continue
            events.append(RecordedChance(where, {"dice": list(action.dice)},
                                         _roller(len(action.dice))))
        return events

    def apply_chance(self, state: GameState, outcome: JSON, now_us: int) -> list[Any]:
        try:
            kind, seat, dice = chance_from_dict(outcome)
        except DiceError as exc:
            raise ChanceError(str(exc)) from None
        steps = _game(state).apply_chance(kind, seat, dice, now_us)
        if isinstance(steps, Illegal):
            raise ChanceError(steps.reason)
        return steps

    # -- actions ----------------------------------------------------------------------

    def action_from_dict(self, data: Any) -> tuple[int, int]:
        return A.action_from_dict(data)

    def action_to_dict(self, seat: int | None, code: int) -> JSON:
        return A.action_to_dict(seat, code)

    # -- what a seat may see ----------------------------------------------------------

    def api_schema(self) -> GameApi:
        return API

    def view(self, state: GameState, seat: int | None) -> JSON:
        view = _game(state).view(seat)
        if view["result"] is not None:
            # Each seat's rank beside the points and rounds results: the match page shows it.
            view["result"]["ranks"] = self.ranks(state)
        return view

    def ranks(self, state: GameState) -> list[int] | None:
        """By points total (quick version: rounds won); equal share a rank; a player who
        resigned ranks below every player who did not."""
        game = _game(state)
        result = game.result
        if result is None or result.reason == "annulled":
            return None
        values = game.round_wins if game.rules.quick else game.totals
        active = game.active_seats()
        ranks = []
        for seat in range(game.num_seats):
            if game.resigned[seat]:
                ranks.append(len(active) + 1)
            else:
                ranks.append(1 + sum(1 for other in active if values[other] > values[seat]))
        return ranks

    def scores(self, state: GameState) -> list[int]:
        return list(_game(state).scores())

    # -- records --------------------------------------------------------------------

    def export_record(self, players: list[str], rules: Any, log: list[LogEntry]) -> JSON:
        return export(players, _rules(rules), log)

    def frames(self, record: JSON) -> JSON:
        return build_frames(record)

    def replayed_scores(self, report: JSON) -> list[int] | None:
        totals = report.get("totals")
        values = totals if totals is not None else report.get("round_wins")
        return list(values) if isinstance(values, list) else None

    def replay_document(self, text: bytes, with_legal: bool) -> ReplayOutcome:
        return replay_document(text, with_legal)

    # -- advice and analysis ----------------------------------------------------------

    def advice(self, state: GameState, seat: int) -> JSON | None:
        """The odds of the roll on the table, for the seat to decide: the exact expected
        recorded score of standing and of every distinct keep, best first."""
        game = _game(state)
        turn = game.turn
        if game.result is not None or turn is None or game.to_act() != seat:
            return None
        ranked = odds.options(turn.dice)
        stand = next(option for option in ranked if option.is_stand)
        return {
            "seat": seat,
            "round": turn.round,
            "dice": list(turn.dice),
            "stand": float(stand.expected),
            "fallback": fallback(turn.dice),
            "best": ranked[0].to_dict(),
            "options": [option.to_dict() for option in ranked],
        }

    def analysis(self, record: JSON) -> JSON | None:
        """Each decision of the game beside the best one, with the expected points it cost,
        and each seat's summary (decisions, how many were the best, points given away)."""
        try:
            found = odds.analyse_record(record)
        except RecordError:
            return None
        players = record.get("players") or []
        seats = []
        for seat in range(len(players)):
            mine = [d for d in found["decisions"] if d["seat"] == seat]
            seats.append({
                "seat": seat,
                "decisions": len(mine),
                "best": sum(1 for d in mine if d["cost"] <= BEST_TOLERANCE),
                "cost": found["cost_by_seat"][seat],
            })
        return {"players": list(players), "decisions": found["decisions"], "seats": seats}

    # -- computer player ------------------------------------------------------------

    def bot_action(self, view: JSON, rng: random.Random) -> JSON | None:
        return bot.choose(view, rng, bot.DEFAULT_LEVEL)

    def bot_action_at(self, view: JSON, rng: random.Random, level: str) -> JSON | None:
        """A computer player of a named level (bot.LEVELS: careful, easy, to_win)."""
        return bot.choose(view, rng, level)


GAME = DicePlugin()


def _roller(count: int) -> Callable[[ChanceSource], JSON]:
    return lambda rng: {"dice": roll(rng, count)}


def roll(rng: ChanceSource, count: int) -> list[int]:
    """``count`` dice, each ``randint(1, 6)``."""
    return [rng.randint(1, 6) for _ in range(count)]
