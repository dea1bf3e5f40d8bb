"""Spectacular Bid as the platform sees it (``games/engine/plugin.py``)."""

from __future__ import annotations

import json
import random
from typing import Any

from games.dominoes.chance import cut, deal_outcome, shuffled_set
from games.dominoes.hidden import redealt
from games.engine.api_schema import GameApi
from games.engine.clock import MatchClock
from games.engine.plugin import (
    ActionError,
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
from . import bot, frames, from_view, record, replay
from .api_schema import API
from .replay_text import REPLAY_STRINGS
from .rules import Rules, table_conventions
from .state import BONEYARD_SIZE, HAND_SIZE, Deal
from .state import Match as Engine


def _engine(state: GameState) -> Engine:
    assert isinstance(state, Engine)
    return state


class SpectacularBid(GamePlugin):
    key = "spectacular-bid"
    name = gettext_noop("Spectacular Bid")
    summary = gettext_noop(
        "A Fives domino duel for two players, with an auction for the lead and a match clock.")
    record_format = record.FORMAT
    seat_counts = (2,)
    versionless = frozenset({"continue", "resign", "abort"})
    has_one_device = True
    rated_standard = True
    headline_convention = "start_points"
    replay_strings = REPLAY_STRINGS
    win_reasons = {"points": gettext_noop("on points"), "time": gettext_noop("on time"),
                   "resign": gettext_noop("by resignation")}
    average_label = gettext_noop("Points won per match")
    average_detail = gettext_noop("on average, against the {baseline} each player starts with")
    terminal_actions = frozenset({"resign", "abort"})
    abort_action = "abort"  # before the first decision: no result

    def conventions(self) -> list[Convention]:
        return table_conventions()

    def parse_rules(self, data: Any, seats: int) -> Rules:
        if seats != 2:
            raise RulesError("Spectacular Bid is played by 2 players", "seats", "seats")
        return Rules.from_dict(data)

    def rules_to_dict(self, rules: Any) -> JSON:
        assert isinstance(rules, Rules)
        return rules.record_dict()

    def rated_allows(self, rules: Any) -> bool:
        assert isinstance(rules, Rules)
        return bool(rules.to_dict() == Rules(one_device=rules.one_device).to_dict())

    def new_state(self, rules: Any, seats: int) -> GameState:
        return Engine(rules)

    def sample_chance(self, state: GameState, rng: ChanceSource) -> JSON:
        return record.deal_to_dict(deal_from_order(shuffled_set(rng)))

    def recorded_chances(self, record_data: JSON) -> list[RecordedChance]:
        """One deal a hand: the shuffled set, 7 + 7, then the boneyard in draw order."""
        def draw(rng: ChanceSource) -> JSON:
            deal = deal_from_order(shuffled_set(rng))
            return deal_outcome(deal.hands, deal.boneyard)

        return [RecordedChance(f"hand {h}", deal_outcome(hand.deal.hands, hand.deal.boneyard),
                               draw)
                for h, hand in enumerate(record.parse(record_data).hands)]

    def apply_chance(self, state: GameState, outcome: JSON, now_us: int) -> list[Any]:
        return _engine(state).deal(record.deal_from_dict(outcome))

    def action_from_dict(self, data: Any) -> tuple[int, int]:
        try:
            return A.action_from_dict(data)
        except A.ActionFormatError as exc:
            raise ActionError(str(exc)) from None

    def action_to_dict(self, seat: int | None, code: int) -> JSON:
        return A.action_to_dict(seat, code)

    def api_schema(self) -> GameApi:
        return API

    def view(self, state: GameState, seat: int | None) -> JSON:
        return state.view(seat)

    def ranks(self, state: GameState) -> list[int] | None:
        result = state.result
        if result is None or result.winner is None:
            return None
        return [1 if seat == result.winner else 2 for seat in (0, 1)]

    def scores(self, state: GameState) -> list[int]:
        return list(_engine(state).balances)

    def clock(self, state: GameState) -> MatchClock:
        return _engine(state).clock

    def determinize(self, state: GameState, seat: int | None, rng: random.Random) -> GameState:
        return redealt(_engine(state), seat, rng, "boneyard")

    def export_record(self, players: list[str], rules: Any, log: list[LogEntry]) -> JSON:
        engine = Engine(rules)
        hands: list[record.RecordHand] = []
        for event in log:
            steps: list[Any] = []
            if event.kind == "chance":
                deal = record.deal_from_dict(event.payload)
                engine.deal(deal)
                hands.append(record.RecordHand(deal))
            elif event.kind == "action":
                seat, code = A.action_from_dict(event.payload)
                outcome = engine.apply(seat, code, event.t_us)
                steps = [] if isinstance(outcome, Illegal) else outcome.steps
            elif event.kind == "time":
                steps = engine.advance(event.t_us)
            elif event.kind == "annul":
                steps = engine.annul(event.t_us)
            for step in steps:
                if not hands:
                    continue
                if step.action < A.EVENT_BASE:
                    hands[-1].actions.append(
                        record.RecordAction(step.seat, step.action, step.now_us))
                elif step.action == A.FLAG:
                    # A record has no flag: an action at the deadline replays to the same loss.
                    hands[-1].actions.append(record.RecordAction(step.seat, A.PASS, step.now_us))
        return record.export(players, rules, hands)

    def frames(self, record_doc: JSON) -> JSON:
        try:
            parsed = record.parse(record_doc)
        except record.RecordError as exc:
            raise RecordError(str(exc)) from None
        return frames.frames(parsed)

    def score_baseline(self, rules: JSON) -> int:
        start = rules.get("start_points", Rules().start_points)
        return int(start) if isinstance(start, int) else Rules().start_points

    def replayed_scores(self, report: JSON) -> list[int] | None:
        return list(report["balances"]) if "balances" in report else None

    def replay_document(self, text: bytes, with_legal: bool) -> ReplayOutcome:
        try:
            doc = record.loads(text)
        except record.RecordError as exc:
            return ReplayOutcome(replay.EXIT_MALFORMED, {}, "", str(exc))
        except RecursionError:
            return ReplayOutcome(replay.EXIT_MALFORMED, {}, "", "the record is nested too deeply")
        rep = replay.replay(doc)
        data = replay.report(rep, with_legal=with_legal)
        text_out = replay.describe(rep, doc.players)
        if with_legal:
            lines = [f"To act: {data['to_act']}"]
            lines += ["  " + json.dumps(action) for action in data["legal"]]
            text_out += "\n" + "\n".join(lines)
        return ReplayOutcome(rep.exit_status, data, text_out)

    def state_from_view(self, view: JSON) -> Engine | None:
        return from_view.state_from_view(self, view)

    def bot_action(self, view: JSON, rng: random.Random) -> JSON | None:
        return bot.choose(view)


def deal_from_order(tiles: list[int]) -> Deal:
    """A deal from a shuffled set: two hands of 7, then the boneyard in draw order."""
    hands, boneyard = cut(tiles[:2 * HAND_SIZE + BONEYARD_SIZE], 2, HAND_SIZE)
    return Deal((hands[0], hands[1]), boneyard)


GAME = SpectacularBid()
