"""The conformance suite: every registered game, every seat count it allows.

Random complete games from random chance, through the plugin interface alone (what the
server knows of a game). For each: no view of any seat or spectator changes when what
that recipient may not see is dealt again (``determinize``), so no hidden tile leaks;
an illegal action changes nothing; the stored log exported as a record replays with
exit 0 to the same scores; rebuilding from the log gives the same state.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest

from games import registry
from games.engine.plugin import GamePlugin, LogEntry
from games.engine.protocol import GameState, Illegal

GAMES = registry.all_games()
CASES = [(plugin, seats) for plugin in GAMES for seats in plugin.seat_counts
         if seats <= 4 or seats == max(plugin.seat_counts)]
SEEDS = range(3)
MAX_STEPS = 20_000
STEP_US = 700_000  # 0.7 s between decisions: clocks run, rarely out


def _id(case: tuple[GamePlugin, int]) -> str:
    return f"{case[0].key}-{case[1]}"


class Game:
    """A game played through the plugin, its log kept as the server keeps it."""

    def __init__(self, plugin: GamePlugin, seats: int, seed: int) -> None:
        self.plugin = plugin
        self.seats = seats
        self.rng = random.Random(seed)
        self.rules = plugin.parse_rules(None, seats)
        self.state: GameState = plugin.new_state(self.rules, seats)
        self.log: list[LogEntry] = []
        self.now = 0
        self.chance()

    def chance(self) -> None:
        for _ in range(64):
            if not self.state.needs_chance() or self.state.result is not None:
                return
            outcome = self.plugin.sample_chance(self.state, self.rng)
            self.plugin.apply_chance(self.state, json.loads(json.dumps(outcome)), self.now)
            self.log.append(LogEntry("chance", None, outcome, self.now))

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return list(self.plugin.view(self.state, seat).get("legal") or [])

    def step(self) -> bool:
        """One decision by some seat (or time passing); False once the game is over."""
        if self.state.result is not None:
            return False
        self.now += STEP_US
        choices = [(seat, action) for seat in range(self.seats) for action in self.legal(seat)]
        if not choices:
            deadline = self.state.next_deadline_us()
            assert deadline is not None, "nobody can act and nothing is due: stuck"
            self.now = max(self.now, deadline)
            self.state.advance(self.now)
            self.log.append(LogEntry("time", None, {}, self.now))
        else:
            seat, action = self.rng.choice(choices)
            if self.rng.random() < 0.002:
                action = {"seat": seat, "type": "resign"}
            seat_code = self.plugin.action_from_dict(action)
            outcome = self.state.apply(*seat_code, self.now)
            assert not isinstance(outcome, Illegal), (action, outcome)
            self.log.append(LogEntry("action", seat_code[0],
                                     self.plugin.action_to_dict(*seat_code), self.now))
        self.chance()
        return self.state.result is None


def play(plugin: GamePlugin, seats: int, seed: int, check: Any = None) -> Game:
    game = Game(plugin, seats, seed)
    for _ in range(MAX_STEPS):
        if check is not None:
            check(game)
        if not game.step():
            break
    assert game.state.result is not None, "the game did not end"
    return game


@pytest.mark.parametrize("case", CASES, ids=_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_no_view_changes_when_the_hidden_is_dealt_again(case, seed) -> None:
    plugin, seats = case
    rng = random.Random(seed * 7919)

    def check(game: Game) -> None:
        if rng.random() > 0.15:
            return
        for seat in [*range(seats), None]:
            world = plugin.determinize(game.state, seat, rng)
            assert plugin.view(world, seat) == plugin.view(game.state, seat), seat
        json.dumps(plugin.view(game.state, None))  # every view is JSON

    play(plugin, seats, seed, check)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_an_illegal_action_changes_nothing(case) -> None:
    plugin, seats = case
    rng = random.Random(11)

    def check(game: Game) -> None:
        if rng.random() > 0.2:
            return
        seat = rng.randrange(seats)
        legal = {json.dumps(a, sort_keys=True) for a in game.legal(seat)}
        others = [a for s in range(seats) if s != seat for a in game.legal(s)]
        candidates = [{**a, "seat": seat} for a in others]
        candidates = [a for a in candidates if json.dumps(a, sort_keys=True) not in legal]
        if not candidates:
            return
        try:
            code = plugin.action_from_dict(rng.choice(candidates))
        except ValueError:
            return
        before = pickle.dumps(game.state)
        outcome = game.state.apply(*code, game.now)
        if isinstance(outcome, Illegal):
            assert pickle.dumps(game.state) == before

    play(plugin, seats, 5, check)


@pytest.mark.parametrize("case", CASES, ids=_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_exported_record_replays_to_the_same_scores(case, seed) -> None:
    plugin, seats = case
    game = play(plugin, seats, 100 + seed)
    players = [f"p{i}" for i in range(seats)]
    record = plugin.export_record(players, game.rules, game.log)
    assert record["format"] == plugin.record_format
    outcome = plugin.replay_document(json.dumps(record).encode(), with_legal=True)
    assert outcome.exit_status == 0, (outcome.error_line, outcome.report.get("error"))
    replayed = plugin.replayed_scores(outcome.report)
    if replayed is not None:
        assert replayed == plugin.scores(game.state)
    ranks = plugin.ranks(game.state)
    assert ranks is None or sorted(ranks)[0] == 1


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_log_rebuilds_the_same_state(case) -> None:
    from games.play.store import replay_log

    plugin, seats = case
    game = play(plugin, seats, 42)
    rebuilt = replay_log(plugin, plugin.new_state(game.rules, seats), game.log)
    for seat in [*range(seats), None]:
        assert plugin.view(rebuilt, seat) == plugin.view(game.state, seat)
    assert plugin.ranks(rebuilt) == plugin.ranks(game.state)


def test_every_game_declares_itself() -> None:
    keys = [plugin.key for plugin in GAMES]
    assert len(set(keys)) == len(keys)
    for plugin in GAMES:
        assert plugin.seat_counts and plugin.name and plugin.record_format.endswith("/1")
        assert registry.by_format(plugin.record_format) is plugin
        conventions = plugin.conventions()
        assert all(c.key and c.label for c in conventions)
        for seats in plugin.seat_counts:
            rules = plugin.parse_rules(None, seats)
            assert plugin.rated_allows(rules)
            assert plugin.parse_rules(plugin.rules_to_dict(rules), seats) == rules
