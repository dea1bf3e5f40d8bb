"""Engine state <-> database: the event log, the cached state, and record export.

The log is the truth. ``Match.state`` caches the pickled engine after the last event
so that a command needs no replay; a missing or unreadable cache is rebuilt from
the log, and ``rebuild`` is also how tests prove the log reproduces the match. Any
registered game: its plugin (``games/registry.py``) applies the log's entries.
"""

from __future__ import annotations

import pickle
from typing import Any

from games import registry
from games.engine.plugin import GamePlugin, LogEntry
from games.engine.protocol import GameState, Illegal
from games.models import Match, MatchEvent
from games.play.deals import record_block

STATE_FORMAT = 2  # bump when the engine's attributes change: old caches are rebuilt


def plugin_of(match: Match) -> GamePlugin:
    return registry.game(match.game)


def rules_of(match: Match) -> Any:
    return plugin_of(match).parse_rules(match.rules or None, match.seat_count)


def save_engine(match: Match, engine: GameState) -> None:
    match.state = pickle.dumps((STATE_FORMAT, match.version, engine), pickle.HIGHEST_PROTOCOL)


def load_engine(match: Match) -> GameState:
    if match.state:
        try:
            fmt, version, engine = pickle.loads(bytes(match.state))
            if fmt == STATE_FORMAT and version == match.version and isinstance(engine, GameState):
                return engine
        except Exception:  # noqa: BLE001 - any unreadable cache is rebuilt from the log
            pass
    return rebuild(match)


def log_of(match: Match) -> list[LogEntry]:
    return [LogEntry(event.kind, event.seat, event.payload, event.t_us)
            for event in MatchEvent.objects.filter(match=match).order_by("seq")]


def replay_log(plugin: GamePlugin, engine: GameState, log: list[LogEntry]) -> GameState:
    """Apply a stored log to a new engine, exactly as the writer applied it."""
    for event in log:
        if event.kind == MatchEvent.Kind.CHANCE:
            plugin.apply_chance(engine, event.payload, event.t_us)
        elif event.kind == MatchEvent.Kind.ACTION:
            seat, code = plugin.action_from_dict(event.payload)
            outcome = engine.apply(seat, code, event.t_us)
            assert not isinstance(outcome, Illegal), outcome  # the writer applied it
        elif event.kind == MatchEvent.Kind.TIME:
            engine.advance(event.t_us)
        elif event.kind == MatchEvent.Kind.ANNUL:
            plugin.annul(engine, event.t_us)
    return engine


def rebuild(match: Match) -> GameState:
    plugin = plugin_of(match)
    engine = plugin.new_state(rules_of(match), match.seat_count)
    return replay_log(plugin, engine, log_of(match))


def export_record(match: Match) -> dict[str, Any]:
    """The match's record (its game's format), with the seeds its chance came from."""
    plugin = plugin_of(match)
    record = plugin.export_record(match.players(), rules_of(match), log_of(match))
    fairness = record_block(match)
    if fairness is not None:
        record["fairness"] = fairness.as_dict()
    return record
