"""A match played to its end through a plugin by the shared playout policy, logged the
way the server logs it (``LogEntry``: chance outcomes, actions, time), for the review."""

from __future__ import annotations

import random
from typing import Any

from games.engine.plugin import GamePlugin, LogEntry
from games.engine.protocol import GameState
from games.search.playout import greedy_policy

STEP_US = 1_000  # between two events: far inside any clock


def played_log(plugin: GamePlugin, seats: int, seed: int, rules: Any = None,
               limit: int = 20_000) -> tuple[GameState, list[LogEntry]]:
    rng = random.Random(seed)
    state = plugin.new_state(plugin.parse_rules(rules, seats), seats)
    policy = greedy_policy(plugin)
    log: list[LogEntry] = []
    t_us = 0
    for _ in range(limit):
        if state.result is not None:
            break
        t_us += STEP_US
        if state.needs_chance():
            outcome = plugin.sample_chance(state, rng)
            plugin.apply_chance(state, outcome, t_us)
            log.append(LogEntry("chance", None, outcome, t_us))
            continue
        seat = state.to_act()
        if seat is None:  # a Continue: every seat that has one takes it
            moved = False
            for other in range(seats):
                legal = state.legal_actions(other)
                if legal:
                    state.apply(other, legal[0], t_us)
                    log.append(LogEntry("action", other,
                                        plugin.action_to_dict(other, legal[0]), t_us))
                    moved = True
            if not moved:
                t_us = max(t_us, state.next_deadline_us() or t_us)
                state.advance(t_us)
                log.append(LogEntry("time", None, {}, t_us))
            continue
        code = policy(state, seat, state.legal_actions(seat), rng)
        state.apply(seat, code, t_us)
        log.append(LogEntry("action", seat, plugin.action_to_dict(seat, code), t_us))
    return state, log
