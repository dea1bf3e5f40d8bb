"""Hidden Nim as a platform game (``games/engine/plugin.py``), registered only in tests."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from games.engine.plugin import (
    Convention,
    GamePlugin,
    LogEntry,
    ReplayOutcome,
    RulesError,
    gettext_noop,
)
from games.engine.protocol import JSON, ChanceSource, GameState, RecordedChance

from . import record as R
from .rules import CONVENTIONS, DECK, SEATS, Rules, check_seats, parse_rules
from .state import DealError, HiddenNim

REPLAY_STRINGS: dict[str, str] = {
    "hn_deal": gettext_noop("The bonuses are dealt; {name} starts"),
    "hn_take": gettext_noop("{name} takes {count}: {pile} left"),
    "hn_resign": gettext_noop("{name} resigns"),
    "hn_pile": gettext_noop("Tokens in the pile: {n}"),
}


def _game(state: GameState) -> HiddenNim:
    if not isinstance(state, HiddenNim):
        raise TypeError("not a Hidden Nim game")
    return state


def _rules(rules: Any) -> Rules:
    if not isinstance(rules, Rules):
        raise TypeError("not Hidden Nim rules")
    return rules


def draw_deal(rng: ChanceSource, seats: int = SEATS) -> JSON:
    """The deal: the cards 1 to 10 shuffled (seat s's bonus is ``deck[s]``), then the
    first seat ``randint(0, seats - 1)``."""
    deck = list(range(1, DECK + 1))
    rng.shuffle(deck)
    return {"deck": deck, "first": rng.randint(0, seats - 1)}


class HiddenNimPlugin(GamePlugin):
    key = "hidden-nim"
    name = gettext_noop("Hidden Nim")
    summary = gettext_noop(
        "Two players take tokens from one pile; each holds a secret bonus.")
    record_format = R.FORMAT
    seat_counts = (SEATS,)
    versionless = frozenset({"resign"})
    replay_strings = REPLAY_STRINGS

    # -- table conventions ------------------------------------------------------

    def conventions(self) -> list[Convention]:
        return list(CONVENTIONS)

    def parse_rules(self, data: Any, seats: int) -> Rules:
        check_seats(seats)
        return parse_rules(data)

    def rules_to_dict(self, rules: Any) -> JSON:
        return _rules(rules).to_dict()

    def rated_allows(self, rules: Any) -> bool:
        return True

    # -- state and chance ---------------------------------------------------------

    def new_state(self, rules: Any, seats: int) -> HiddenNim:
        if seats not in self.seat_counts:
            raise RulesError(f"seats must be {SEATS}, got {seats!r}", "seats", "seats")
        return HiddenNim(_rules(rules), seats)

    def sample_chance(self, state: GameState, rng: ChanceSource) -> JSON:
        game = _game(state)
        if not game.needs_chance():
            raise DealError("no deal is due now")
        return {"type": "deal", **draw_deal(rng, game.num_seats)}

    def apply_chance(self, state: GameState, outcome: JSON, now_us: int) -> list[Any]:
        deck, first = R.deal_from_dict(outcome)
        return _game(state).deal(deck, first, now_us)

    def recorded_chances(self, record: JSON) -> list[RecordedChance]:
        """The one deal, when the record has it."""
        deal = R.parse(record).deal
        if deal is None:
            return []
        draw: Callable[[ChanceSource], JSON] = draw_deal
        return [RecordedChance("the deal", {"deck": list(deal.deck), "first": deal.first},
                               draw)]

    # -- actions ----------------------------------------------------------------------

    def action_from_dict(self, data: Any) -> tuple[int, int]:
        return R.action_from_dict(data)

    def action_to_dict(self, seat: int | None, code: int) -> JSON:
        return R.action_to_dict(seat, code)

    # -- what a seat may see ----------------------------------------------------------

    def view(self, state: GameState, seat: int | None) -> JSON:
        view = _game(state).view(seat)
        if view["result"] is not None:
            view["result"]["ranks"] = self.ranks(state)
        return view

    def ranks(self, state: GameState) -> list[int] | None:
        game = _game(state)
        result = game.result
        if result is None or result.reason == "annulled":
            return None
        if game.resigned is not None:
            return [2 if seat == game.resigned else 1 for seat in range(game.num_seats)]
        totals = game.totals()
        return [1 + sum(1 for other in totals if other > mine) for mine in totals]

    def scores(self, state: GameState) -> list[int]:
        return _game(state).public_scores()

    def determinize(self, state: GameState, seat: int | None, rng: random.Random) -> GameState:
        """The cards the seat has not seen shuffled again: every card but its own (all
        are seen once the game is over)."""
        world = copy.deepcopy(_game(state))
        if world.deck is not None and world.result is None:
            hidden = [i for i in range(len(world.deck)) if i != seat]
            cards = [world.deck[i] for i in hidden]
            rng.shuffle(cards)
            for i, card in zip(hidden, cards, strict=True):
                world.deck[i] = card
        return world

    # -- records --------------------------------------------------------------------

    def annul(self, state: GameState, now_us: int) -> list[Any]:
        return _game(state).annul(now_us)

    def export_record(self, players: list[str], rules: Any, log: list[LogEntry]) -> JSON:
        return R.export(players, _rules(rules), log)

    def frames(self, record: JSON) -> JSON:
        return R.frames(record)

    def replay_document(self, text: bytes, with_legal: bool) -> ReplayOutcome:
        return R.replay_document(text, with_legal)

    # -- computer player ------------------------------------------------------------

    def bot_action(self, view: JSON, rng: random.Random) -> JSON | None:
        """Leaves the pile at a multiple of four when it can, else takes at random."""
        legal = list(view.get("legal") or [])
        if not legal:
            return None
        pile = int(view["pile"])
        for action in legal:
            if (pile - int(action["count"])) % 4 == 0:
                return dict(action)
        return dict(rng.choice(legal))


GAME = HiddenNimPlugin()
