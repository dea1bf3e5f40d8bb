"""Engine state <-> database: the event log, the cached state, and record export.

The log is the truth. ``Match.state`` caches the pickled engine after the last event
so that a command needs no replay; a missing or unreadable cache is rebuilt from
the log, and ``rebuild`` is also how tests prove the log reproduces the match.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

from games.engine.protocol import Illegal
from games.spectacular_bid import actions as A
from games.spectacular_bid.record import RecordAction, RecordHand, deal_from_dict, deal_to_dict
from games.spectacular_bid.record import export as export_record_doc
from games.spectacular_bid.rules import Rules
from games.spectacular_bid.state import Deal
from games.spectacular_bid.state import Match as Engine

from .models import Match, MatchEvent

STATE_FORMAT = 2  # bump when the engine's attributes change: old caches are rebuilt


def rules_of(match: Match) -> Rules:
    return Rules.from_dict(match.rules or None)


def save_engine(match: Match, engine: Engine) -> None:
    match.state = pickle.dumps((STATE_FORMAT, match.version, engine), pickle.HIGHEST_PROTOCOL)


def load_engine(match: Match) -> Engine:
    if match.state:
        try:
            fmt, version, engine = pickle.loads(bytes(match.state))
            if fmt == STATE_FORMAT and version == match.version and isinstance(engine, Engine):
                return engine
        except Exception:  # noqa: BLE001 - any unreadable cache is rebuilt from the log
            pass
    return rebuild(match)


@dataclass
class Replayed:
    engine: Engine
    hands: list[RecordHand] = field(default_factory=list)


def _replay_events(match: Match) -> Replayed:
    """Apply the whole log; also collect what a record needs (deals, actions, times)."""
    engine = Engine(rules_of(match))
    out = Replayed(engine)
    for event in MatchEvent.objects.filter(match=match).order_by("seq"):
        steps: list[Any] = []
        if event.kind == MatchEvent.Kind.DEAL:
            deal = deal_from_dict(event.payload)
            engine.deal(deal)
            out.hands.append(RecordHand(deal))
        elif event.kind == MatchEvent.Kind.ACTION:
            seat, code = A.action_from_dict(event.payload)
            outcome = engine.apply(seat, code, event.t_us)
            steps = [] if isinstance(outcome, Illegal) else outcome.steps
        elif event.kind == MatchEvent.Kind.TIME:
            steps = engine.advance(event.t_us)
        elif event.kind == MatchEvent.Kind.ANNUL:
            steps = engine.annul(event.t_us)
        for step in steps:
            if not out.hands:
                continue
            if step.action < A.EVENT_BASE:
                out.hands[-1].actions.append(RecordAction(step.seat, step.action, step.now_us))
            elif step.action == A.FLAG:
                # A record has no flag: an action at the deadline replays to the same loss.
                out.hands[-1].actions.append(RecordAction(step.seat, A.PASS, step.now_us))
    return out


def rebuild(match: Match) -> Engine:
    return _replay_events(match).engine


def export_record(match: Match) -> dict[str, Any]:
    replayed = _replay_events(match)
    return export_record_doc(match.players(), rules_of(match), replayed.hands)


def deal_payload(deal: Deal) -> dict[str, Any]:
    return deal_to_dict(deal)
