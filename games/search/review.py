"""Game review: every decision of a finished match beside the best one, by playouts.

A match's stored log (``LogEntry``: chance outcomes, actions, time, an annulment) is
replayed through the plugin. Each action a seat took with at least two legal actions
(a *decision*, as ``drive.to_decision`` stops at one) is estimated from that seat's
information only: worlds are dealt for it (``worlds.Dealer``), and each action the
search considers (``candidates.considered``, plus the action played if it is not one of
them) is played in each world, then the hand is played to its end with the shared
playout policy (``playout.greedy_policy``). The estimate of an action is the mean of
the seat's points margin at the end of the hand (its points gained less the most
gained by any other seat, ``reward.margins``): expected points, not a reward.

Every action of a decision is tried in the same worlds with the same random numbers
after its own move (common random numbers), so that two actions differ by what they do,
not by their luck; and the whole review is a function of its ``seed``.

A decision is a *mistake* when the best estimate beats the played one by at least
``MISTAKE_POINTS`` (2). The domino games score in fives: a loss of 2 expected points is
already a scoring play missed two times out of five, or a hand's worth of risk, while
the noise of the default number of playouts, with common random numbers, is well below
it for the positions this was measured on.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.plugin import GamePlugin, LogEntry
from games.engine.protocol import JSON, GameState, Illegal

from .candidates import considered
from .drive import Horizon, apply_legal, hands_begun
from .playout import greedy_policy
from .reward import margins, play_to_horizon
from .worlds import Dealer

PLAYOUTS = 96  # per action of a decision: the default size (measured: docs/api.md)
MISTAKE_POINTS = 2.0
SEED = 0
ROUND_TO = 2  # decimals of the estimates as stored

Progress = Callable[[int, int], None]  # (decisions done, decisions in all)


@dataclass(slots=True)
class Decision:
    """A position where a seat chose among at least two legal actions."""

    state: GameState  # before the action, a copy
    seat: int
    code: int  # the action played
    action_index: int  # its place among the log's actions (0: the first action logged)


def decisions_of(plugin: GamePlugin, rules: Any, seats: int,
                 log: Sequence[LogEntry]) -> list[Decision]:
    """Every decision of a match's log, replayed through the plugin as the writer applied
    it (``games/play/store.py``). Meta actions (a resignation) are not decisions."""
    state = plugin.new_state(plugin.parse_rules(rules, seats), seats)
    found: list[Decision] = []
    actions = 0
    for event in log:
        if event.kind == "chance":
            plugin.apply_chance(state, event.payload, event.t_us)
        elif event.kind == "action":
            payload = dict(event.payload)
            if event.seat is not None:
                payload.setdefault("seat", event.seat)
            seat, code = plugin.action_from_dict(payload)
            legal = state.legal_actions(seat)
            if state.to_act() == seat and len(legal) > 1 and code in legal:
                found.append(Decision(copy.deepcopy(state), seat, code, actions))
            actions += 1
            outcome = state.apply(seat, code, event.t_us)
            if isinstance(outcome, Illegal) or not outcome.applied:
                break  # the writer applied it: a log of other rules, or its last word
        elif event.kind == "time":
            state.advance(event.t_us)
        elif event.kind == "annul":
            plugin.annul(state, event.t_us)
    return found


def _margin_after(plugin: GamePlugin, world: GameState, seat: int, before: list[int],
                  rng: random.Random, root: GameState) -> float:
    """The seat's points margin at the end of the hand under way in ``world``."""
    horizon = Horizon(root)
    if not horizon.reached(world):
        rollout = play_to_horizon(plugin, world, rng, horizon, greedy_policy(plugin))
        if rollout is not None:
            return margins(before, list(rollout.scores))[seat]
    after = plugin.scores(world)
    return margins(before, after)[seat] if after and before else 0.0


def estimates(plugin: GamePlugin, decision: Decision, playouts: int,
              seed: int) -> dict[int, float]:
    """The expected points margin of each action considered at ``decision`` (and of the
    one played), over ``playouts`` worlds seen from the deciding seat."""
    state, seat = decision.state, decision.seat
    legal = state.legal_actions(seat)
    actions = considered(plugin, state, seat, legal)
    if decision.code not in actions:
        actions.append(decision.code)
    before = plugin.scores(state)
    dealer = Dealer(plugin, state, seat)
    totals = dict.fromkeys(actions, 0.0)
    for world_no in range(playouts):
        world_seed = random.Random(f"{seed}:{decision.action_index}:{world_no}").getrandbits(64)
        for action in actions:
            rng = random.Random(world_seed)
            world = dealer.world(rng)
            apply_legal(world, seat, action)
            totals[action] += _margin_after(plugin, world, seat, before, rng, state)
    return {action: total / max(1, playouts) for action, total in totals.items()}


def record_action(plugin: GamePlugin, seat: int, code: int) -> JSON:
    """An action as a record writes it: its seat and the codec's fields."""
    return {"seat": seat, **plugin.action_to_dict(seat, code)}


def review_decision(plugin: GamePlugin, decision: Decision, playouts: int, seed: int,
                    threshold: float) -> JSON:
    """One decision's entry of the review (see ``review``)."""
    values = estimates(plugin, decision, playouts, seed)
    # The best: the highest estimate; among equals the one played, then the first legal.
    order = decision.state.legal_actions(decision.seat)
    best = max(values, key=lambda a: (values[a], a == decision.code, -order.index(a)))
    played = values[decision.code]
    loss = max(0.0, values[best] - played)
    return {
        "seat": decision.seat,
        "action_index": decision.action_index,
        "hand": hands_begun(decision.state) - 1 if hands_begun(decision.state) else None,
        "played": record_action(plugin, decision.seat, decision.code),
        "played_points": round(played, ROUND_TO),
        "best": record_action(plugin, decision.seat, best),
        "best_points": round(values[best], ROUND_TO),
        "loss": round(loss, ROUND_TO),
        "mistake": loss >= threshold,
        "options": len(values),
    }


def summary(entries: Sequence[JSON], seats: int) -> list[JSON]:
    """Per seat: its decisions, how many were the best, its mistakes, the points lost."""
    rows = []
    for seat in range(seats):
        own = [e for e in entries if e["seat"] == seat]
        rows.append({
            "seat": seat,
            "decisions": len(own),
            "best": sum(1 for e in own if e["played"] == e["best"]),
            "mistakes": sum(1 for e in own if e["mistake"]),
            "points_lost": round(sum(float(e["loss"]) for e in own), ROUND_TO),
        })
    return rows


def review(plugin: GamePlugin, rules: Any, seats: int, log: Sequence[LogEntry], *,
           playouts: int = PLAYOUTS, seed: int = SEED, threshold: float = MISTAKE_POINTS,
           progress: Progress | None = None) -> JSON:
    """The review of a match from its log: ``decisions`` in the order played, each with
    the seat, ``action_index`` (the action's place among the match's logged actions),
    ``hand`` (0-based; None for a game without hands), the action ``played`` and the
    ``best`` (record-shaped, with the seat) with their expected points margin to the end
    of the hand (``played_points``, ``best_points``), the ``loss`` between them and
    ``mistake``; a ``summary`` per seat; and the settings it was made with.

    ``progress(done, total)`` is called before the first decision and after each."""
    found = decisions_of(plugin, rules, seats, log)
    total = len(found)
    if progress is not None:
        progress(0, total)
    entries: list[JSON] = []
    for done, decision in enumerate(found, start=1):
        entries.append(review_decision(plugin, decision, playouts, seed, threshold))
        if progress is not None:
            progress(done, total)
    return {
        "decisions": entries,
        "summary": summary(entries, seats),
        "playouts": playouts,
        "threshold": threshold,
        "seed": seed,
    }


def frame_indices(entries: Sequence[JSON], frames: Sequence[JSON]) -> list[int | None]:
    """For each decision (in order), the index of its frame among a replay's ``frames``
    (``GamePlugin.frames``: each with the record-shaped ``action`` it shows), so that a
    page can show the position: the next frame, not forced, whose action has the
    played action's fields. None where none is found."""
    found: list[int | None] = []
    at = 0
    for entry in entries:
        played: JSON = entry["played"]
        index = next((i for i in range(at, len(frames)) if _shows(frames[i], played)), None)
        found.append(index)
        if index is not None:
            at = index + 1
    return found


def _shows(frame: JSON, played: JSON) -> bool:
    action = frame.get("action")
    if not isinstance(action, dict) or action.get("forced"):
        return False
    return all(action.get(key) == value for key, value in played.items())
