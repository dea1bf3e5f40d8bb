"""The ``fives/1`` record (fives.md, "Record and replay"): read and write.

Reading checks the form only (format, players, rules, lots, deals, action shapes,
times); whether each action is legal is the replay's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.dominoes.record import parse_tiles as parse_tiles
from games.dominoes.tiles import tile_name
from games.engine import records
from games.engine.plugin import ActionError, RecordError, RulesError
from games.engine.records import RecordAction as RecordAction
from games.engine.records import (
    load_json,
    read_actions,
    record_object,
    record_players,
    record_time,
    us_to_seconds,
)

from .actions import action_fields, action_from_dict
from .rules import SEAT_COUNTS, Rules, parse_rules
from .state import Deal, DealError, check_lots

# RecordAction (the engine's) and parse_tiles (the dominoes') are imported "as" themselves:
# the plugin reads them here.
FORMAT = "fives/1"


@dataclass(slots=True)
class Record:
    players: list[str]
    rules: Rules
    lots: list[int] | None
    hands: list[RecordHand]

    @property
    def seats(self) -> int:
        return len(self.players)


@dataclass(slots=True)
class RecordHand:
    deal: Deal
    start_us: int
    actions: list[RecordAction] = field(default_factory=list)


def loads(text: str | bytes) -> Record:
    return parse(load_json(text))


def _seat_count(data: dict[str, Any]) -> int:
    players = data.get("players")
    if players is not None:
        return len(record_players(players, SEAT_COUNTS, "players must be a list of 2 or 4 names"))
    # No players: as many seats as the first deal has hands (2 when there is none).
    hands = data.get("hands")
    if isinstance(hands, list) and hands and isinstance(hands[0], dict):
        deal = hands[0].get("deal")
        if isinstance(deal, dict) and isinstance(deal.get("hands"), list):
            count = len(deal["hands"])
            if count in SEAT_COUNTS:
                return count
    return 2


def parse(data: Any) -> Record:
    data = record_object(data, FORMAT)
    seats = _seat_count(data)
    players = data.get("players") or [f"seat {i}" for i in range(seats)]
    try:
        rules = parse_rules(data.get("rules"), seats)
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    lots = None
    if data.get("lots") is not None:
        try:
            lots = check_lots(parse_tiles(data["lots"], "lots"), seats)
        except DealError as exc:
            raise RecordError(str(exc)) from None
    hands_data = data.get("hands", [])
    if not isinstance(hands_data, list):
        raise RecordError("hands must be a list")
    hands: list[RecordHand] = []
    last_us = 0
    for h, hand_data in enumerate(hands_data):
        hand, last_us = _parse_hand(h, hand_data, last_us, seats)
        hands.append(hand)
    return Record(players=list(players), rules=rules, lots=lots, hands=hands)


def parse_deal(data: Any, seats: int, where: str = "deal") -> Deal:
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be an object")
    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or len(hands_data) != seats:
        raise RecordError(f"{where}.hands must hold {seats} hands, one per seat")
    hands = [parse_tiles(hand, f"{where}.hands[{i}]") for i, hand in enumerate(hands_data)]
    bazaar = parse_tiles(data.get("bazaar", []), f"{where}.bazaar")
    try:
        return Deal.checked(hands, bazaar, seats)
    except DealError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _parse_hand(h: int, data: Any, last_us: int, seats: int) -> tuple[RecordHand, int]:
    if not isinstance(data, dict):
        raise RecordError(f"hand {h} must be an object")
    if "deal" not in data:
        raise RecordError(f"hand {h} has no deal")
    deal = parse_deal(data["deal"], seats, f"hand {h} deal")
    last_us = record_time(data.get("start_t"), f"hand {h} start_t", last_us)
    start_us = last_us
    actions, last_us = read_actions(data.get("actions", []), f"hand {h}", last_us,
                                    lambda action: action_from_dict(action, seats), ActionError)
    return RecordHand(deal, start_us, actions), last_us


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    return {
        "hands": [[tile_name(t) for t in hand] for hand in deal.hands],
        "bazaar": [tile_name(t) for t in deal.bazaar],
    }


def action_record(seat: int, code: int, t_us: int | None) -> dict[str, Any]:
    return records.action_record(seat, code, t_us, action_fields)


def export(players: Sequence[str], rules: Rules, lots: Sequence[int] | None,
           hands: Sequence[RecordHand]) -> dict[str, Any]:
    """A record document from the lots, deals and the actions the server applied."""
    doc: dict[str, Any] = {"format": FORMAT, "players": list(players), "rules": rules.to_dict()}
    if lots is not None:
        doc["lots"] = [tile_name(t) for t in lots]
    doc["hands"] = [
        {
            "deal": deal_to_dict(hand.deal),
            "start_t": us_to_seconds(hand.start_us),
            "actions": [action_record(a.seat, a.code, a.t_us) for a in hand.actions],
        }
        for hand in hands
    ]
    return doc
