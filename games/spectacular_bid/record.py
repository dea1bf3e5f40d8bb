"""The ``spectacular-bid/1`` match record (``shared/spec/match-record.md``): read and write.

Reading checks the form only (format, tiles, deals, action shapes, times); whether
each action is legal is the replay's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.dominoes.record import parse_tiles
from games.dominoes.tiles import tile_name
from games.engine import records
from games.engine.plugin import RecordError as RecordError
from games.engine.plugin import RulesError
from games.engine.records import RecordAction as RecordAction
from games.engine.records import load_json, read_actions, record_object, record_players

from .actions import ActionFormatError, action_fields, action_from_dict
from .rules import Rules
from .state import Deal, DealError

# RecordError and RecordAction are the engine's (imported "as" themselves: tests and the
# plugin read them here).
FORMAT = "spectacular-bid/1"


@dataclass(slots=True)
class RecordHand:
    deal: Deal
    actions: list[RecordAction] = field(default_factory=list)


@dataclass(slots=True)
class Record:
    players: list[str]
    rules: Rules
    hands: list[RecordHand]


def loads(text: str | bytes) -> Record:
    return parse(load_json(text))


def parse(data: Any) -> Record:
    """A record's document -> Record; RecordError (one line) when malformed."""
    data = record_object(data, FORMAT)
    players = record_players(data.get("players", ["seat 0", "seat 1"]), (2,),
                             "players must be a list of two names")
    try:
        rules = Rules.from_dict(data.get("rules"))
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    hands_data = data.get("hands")
    if not isinstance(hands_data, list):
        raise RecordError("hands must be a list")
    hands: list[RecordHand] = []
    last_us = 0
    for h, hand_data in enumerate(hands_data):
        hand, last_us = _parse_hand(h, hand_data, last_us)
        hands.append(hand)
    return Record(players=list(players), rules=rules, hands=hands)


def _parse_hand(h: int, data: Any, last_us: int) -> tuple[RecordHand, int]:
    if not isinstance(data, dict):
        raise RecordError(f"hand {h} must be an object")
    deal_data = data.get("deal")
    if not isinstance(deal_data, dict):
        raise RecordError(f"hand {h} has no deal")
    hands_data = deal_data.get("hands")
    if not isinstance(hands_data, list) or len(hands_data) != 2:
        raise RecordError(f"hand {h}: deal.hands must hold two hands")
    hands = (
        parse_tiles(hands_data[0], f"hand {h} deal.hands[0]"),
        parse_tiles(hands_data[1], f"hand {h} deal.hands[1]"),
    )
    boneyard = parse_tiles(deal_data.get("boneyard"), f"hand {h} deal.boneyard")
    try:
        deal = Deal.checked(hands, boneyard)
    except DealError as exc:
        raise RecordError(f"hand {h}: {exc}") from None
    actions, last_us = read_actions(data.get("actions", []), f"hand {h}", last_us,
                                    action_from_dict, ActionFormatError)
    return RecordHand(deal, actions), last_us


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    return {
        "hands": [[tile_name(t) for t in deal.hands[0]], [tile_name(t) for t in deal.hands[1]]],
        "boneyard": [tile_name(t) for t in deal.boneyard],
    }


def deal_from_dict(data: Any) -> Deal:
    """A ``deal`` object -> Deal (RecordError when malformed)."""
    hand, _ = _parse_hand(0, {"deal": data, "actions": []}, 0)
    return hand.deal


def action_record(seat: int, code: int, t_us: int | None) -> dict[str, Any]:
    return records.action_record(seat, code, t_us, action_fields)


def export(players: Sequence[str], rules: Rules, hands: Sequence[RecordHand]) -> dict[str, Any]:
    """A record document from deals and the actions the server applied."""
    return {
        "format": FORMAT,
        "players": list(players),
        "rules": rules.record_dict(),
        "hands": [
            {
                "deal": deal_to_dict(hand.deal),
                "actions": [action_record(a.seat, a.code, a.t_us) for a in hand.actions],
            }
            for hand in hands
        ],
    }
