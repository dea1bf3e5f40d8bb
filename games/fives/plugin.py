"""Fives with the cross as the platform sees it (``games/engine/plugin.py``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.dominoes.chance import cut, deal_outcome, shuffled_set
from games.dominoes.hidden import redealt
from games.dominoes.tiles import TILE_COUNT, tile_name
from games.engine.api_schema import GameApi
from games.engine.clock import MatchClock
from games.engine.plugin import (
    Convention,
    GamePlugin,
    LogEntry,
    RecordError,
    ReplayOutcome,
    gettext_noop,
)
from games.engine.protocol import JSON, ChanceSource, GameState, Illegal, RecordedChance, Step

from . import actions as A
from . import bot, frames, from_view, record, replay
from .api_schema import API
from .replay_text import REPLAY_STRINGS
from .rules import Rules, conventions, parse_rules, rated_allows
from .state import HAND_SIZE, Deal, DealError, FivesState


def _fives(state: GameState) -> FivesState:
    if not isinstance(state, FivesState):
        raise TypeError("not a Fives game")
    return state


def _rules(rules: Any, seats: int) -> Rules:
    return rules if isinstance(rules, Rules) else parse_rules(rules, seats)


class FivesPlugin(GamePlugin):
    key = "fives"
    name = gettext_noop("Fives with the cross")
    summary = gettext_noop(
        "A domino game for two or four players: make the open ends add up to a multiple of "
        "five, and be the first to reach the target.")
    record_format = record.FORMAT
    seat_counts = (2, 4)
    versionless = frozenset({"resign"})
    replay_strings = REPLAY_STRINGS
    win_reasons = {"target": gettext_noop("reaching the target"), "time": gettext_noop("on time"),
                   "resign": gettext_noop("by resignation")}

    # -- table conventions ------------------------------------------------------

    def conventions(self) -> list[Convention]:
        return conventions()

    def parse_rules(self, data: Any, seats: int) -> Rules:
        return parse_rules(data, seats)

    def rules_to_dict(self, rules: Any) -> JSON:
        assert isinstance(rules, Rules)
        return rules.to_dict()

    def rated_allows(self, rules: Any) -> bool:
        assert isinstance(rules, Rules)
        return rated_allows(rules)

    # -- state and chance ---------------------------------------------------------

    def new_state(self, rules: Any, seats: int) -> FivesState:
        return FivesState(_rules(rules, seats), seats)

    def sample_chance(self, state: GameState, rng: ChanceSource) -> JSON:
        """The next hand's deal; before the first hand also the lots (one tile a seat)."""
        game = _fives(state)
        if not game.needs_chance():
            raise ValueError("no chance outcome is due now")
        outcome: JSON = {}
        if game.hand_no < 0:
            outcome["lots"] = [tile_name(t) for t in _draw_lots(rng, game.num_seats)]
        hands, bazaar = cut(shuffled_set(rng), game.num_seats, HAND_SIZE)
        outcome["deal"] = record.deal_to_dict(Deal(hands, bazaar))
        return outcome

    def recorded_chances(self, record_data: JSON) -> list[RecordedChance]:
        """One deal a hand, the first after the lots: the lots are the first tiles of a
        partial shuffle of the set, then the whole set is shuffled and cut into hands of 7
        and the bazaar in draw order."""
        parsed = record.parse(record_data)
        seats = parsed.seats

        def drawer(first: bool) -> Callable[[ChanceSource], JSON]:
            def draw(rng: ChanceSource) -> JSON:
                lots = [tile_name(t) for t in _draw_lots(rng, seats)] if first else None
                hands, bazaar = cut(shuffled_set(rng), seats, HAND_SIZE)
                return {"lots": lots, **deal_outcome(hands, bazaar)}
            return draw

        lots = None if parsed.lots is None else [tile_name(t) for t in parsed.lots]
        return [RecordedChance(f"hand {h}",
                               {"lots": lots if h == 0 else None,
                                **deal_outcome(hand.deal.hands, hand.deal.bazaar)},
                               drawer(h == 0))
                for h, hand in enumerate(parsed.hands)]

    def apply_chance(self, state: GameState, outcome: JSON, now_us: int) -> list[Step]:
        """Deal the next hand at ``now_us``; RecordError (nothing changed) when the outcome
        does not fit the table or no deal is due."""
        game = _fives(state)
        if not isinstance(outcome, dict):
            raise RecordError("a chance outcome must be an object")
        deal = record.parse_deal(outcome.get("deal"), game.num_seats)
        lots_data = outcome.get("lots")
        lots = None if lots_data is None else record.parse_tiles(lots_data, "lots")
        try:
            return game.deal(deal, now_us, lots=lots)
        except DealError as exc:
            raise RecordError(str(exc)) from None

    # -- actions ----------------------------------------------------------------------

    def action_from_dict(self, data: Any) -> tuple[int, int]:
        return A.action_from_dict(data)

    def action_to_dict(self, seat: int | None, code: int) -> JSON:
        return A.action_to_dict(seat, code)

    # -- what a seat may see ----------------------------------------------------------

    def api_schema(self) -> GameApi:
        return API

    def view(self, state: GameState, seat: int | None) -> JSON:
        return _fives(state).view(seat)

    def ranks(self, state: GameState) -> list[int] | None:
        game = _fives(state)
        return list(game.ranks) if game.result is not None and game.ranks is not None else None

    def scores(self, state: GameState) -> list[int]:
        return list(_fives(state).scores)

    # -- records --------------------------------------------------------------------

    def clock(self, state: GameState) -> MatchClock:
        return _fives(state).clock

    def determinize(self, state: GameState, seat: int | None, rng: random.Random) -> GameState:
        return redealt(_fives(state), seat, rng, "bazaar")

    def export_record(self, players: list[str], rules: Any, log: list[LogEntry]) -> JSON:
        seats = len(players)
        parsed = _rules(rules, seats)
        state = FivesState(parsed, seats)
        hands: list[record.RecordHand] = []
        lots: list[int] | None = None
        for entry in log:
            steps: list[Step] = []
            if entry.kind == "chance":
                self.apply_chance(state, entry.payload, entry.t_us)
                if state.hand_no == 0:
                    lots = state.lots
                hands.append(record.RecordHand(record.parse_deal(entry.payload["deal"], seats),
                                               entry.t_us))
            elif entry.kind == "action":
                payload = dict(entry.payload)
                if entry.seat is not None:
                    payload["seat"] = entry.seat
                seat, code = A.action_from_dict(payload, seats)
                outcome = state.apply(seat, code, entry.t_us)
                steps = [] if isinstance(outcome, Illegal) else outcome.steps
            elif entry.kind == "time":
                steps = state.advance(entry.t_us)
            elif entry.kind == "annul":
                steps = state.annul(entry.t_us)
            for step in steps:
                # Before the first deal there is no hand to hold an action; the server
                # deals as soon as a game is created, so nothing is lost in practice.
                if not hands or step.seat is None:
                    continue
                if step.action < A.EVENT_BASE:
                    hands[-1].actions.append(record.RecordAction(step.seat, step.action,
                                                                 step.now_us))
                elif step.action == A.FLAG:
                    # A record has no flag: an action at the deadline replays to the same loss.
                    hands[-1].actions.append(record.RecordAction(step.seat, A.PASS,
                                                                 step.now_us))
        return record.export(players, parsed, lots, hands)

    def frames(self, record_doc: JSON) -> JSON:
        """Public positions for the replay viewer; RecordError when malformed."""
        return frames.frames(record.parse(record_doc))

    def replay_document(self, text: bytes, with_legal: bool) -> ReplayOutcome:
        return replay.replay_document(text, with_legal)

    # -- computer player ------------------------------------------------------------

    def state_from_view(self, view: JSON) -> FivesState | None:
        return from_view.state_from_view(self, view)

    def bot_action(self, view: JSON, rng: random.Random) -> JSON | None:
        return bot.choose(view, rng)


GAME = FivesPlugin()


def _draw_lots(rng: ChanceSource, seats: int) -> list[int]:
    """One tile a seat by lot, before the first hand (a partial shuffle of the set)."""
    return rng.sample(range(TILE_COUNT), seats)
