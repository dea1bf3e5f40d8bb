"""The computer player's decisions (``bots/decide.py``, ``bots/runner.py``): from a real
view of each domino game, each level chooses a legal action in the runner's process pool,
within the time the table's clock allows."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bots import decide
from bots.runner import Decisions
from games import registry

from .test_state_from_view import DOMINO_CASES, ids, played


def decision_views(game: str, seats: int, count: int) -> list[dict]:
    plugin = registry.game(game)
    views = []
    for seed in range(200):
        state = played(plugin, seats, 300 + seed, 4 + seed % 20)
        seat = state.to_act()
        if state.result is None and seat is not None and len(state.legal_actions(seat)) > 1:
            views.append(plugin.view(state, seat))
        if len(views) == count:
            break
    return views


@pytest.mark.parametrize(("game", "seats"), DOMINO_CASES, ids=ids)
def test_each_level_chooses_a_legal_action_in_the_pool(game: str, seats: int) -> None:
    views = decision_views(game, seats, 2)
    decisions = Decisions(workers=2)

    async def choose_all() -> list[tuple[dict, str, dict | None, float]]:
        async def one(view: dict, level: str) -> tuple[dict, str, dict | None, float]:
            started = time.monotonic()
            action = await decisions.action(game, view, level, most_s=0.3)
            return view, level, action, time.monotonic() - started

        return await asyncio.gather(*(one(view, level) for view in views
                                      for level in ("easy", "medium", "hard")))

    try:
        chosen = asyncio.run(choose_all())
    finally:
        decisions.close()
    for view, level, action, _seconds in chosen:
        assert action in view["legal"], (level, action)


def test_the_search_keeps_to_its_deadline_and_falls_back_when_it_is_gone() -> None:
    view = decision_views("fives", 2, 1)[0]
    started = time.time()
    action = decide.decide("fives", view, "hard", started + 0.2, seed=1)
    assert action in view["legal"]
    assert time.time() - started < 1.0
    late = decide.decide("fives", view, "hard", time.time() - 1, seed=1)  # the quick bot
    assert late in view["legal"]


def test_a_decision_stays_under_the_tables_delay() -> None:
    clock = {"banks": [120.0, 120.0], "running": 0, "started": 5.0, "delay": 10.0,
             "deadline": 135.0}
    assert decide.decision_seconds({"seat": 0, "clock": clock}) == decide.SEARCH_S
    short = {**clock, "delay": 0.8}
    assert decide.decision_seconds({"seat": 0, "clock": short}) == pytest.approx(0.3)
    no_delay = {"banks": [10.0, 900.0], "running": 0, "started": 5.0, "delay": 0.0,
                "deadline": 15.0}
    assert decide.decision_seconds({"seat": 0, "clock": no_delay}) == pytest.approx(0.2)
    flagging = {**no_delay, "banks": [0.3, 900.0]}
    assert decide.decision_seconds({"seat": 0, "clock": flagging}) == 0.0


def test_the_dice_game_plays_its_own_levels() -> None:
    plugin = registry.game("dice")
    state = plugin.new_state(plugin.parse_rules(None, 1), 1)
    rng = random.Random(3)
    while state.needs_chance():
        plugin.apply_chance(state, plugin.sample_chance(state, rng), 0)
    view = plugin.view(state, 0)
    for level in ("careful", "easy", "to_win"):
        action = decide.decide("dice", view, level, time.time() + 1, seed=2)
        assert action in plugin.legal_actions(view)
