"""The careful dice player: decision speed and its mean score over seeded solo games.

``python -m bench.dice [--games 10000] [--seed 1]`` plays N solo games of five rounds
(dice from one seeded ``random.Random``), each decision taken by the careful bot from
the seat's view, and prints ``decisions_per_second``, ``mean_ms_per_decision`` (the
bot's ``choose`` alone, view building excluded, the odds cache starting cold),
``slowest_decision_ms`` and ``mean_total`` (the 5-round total). The best expectation
of a turn is about 43.77 points, so ``mean_total`` should come near 219.
"""

from __future__ import annotations

import argparse
import random
import time

from games.dice import bot, odds
from games.dice.plugin import GAME
from games.dice.rules import Rules
from games.dice.state import DiceGame


def play_solo(rng: random.Random, timings: list[float]) -> int:
    """One solo game of five rounds; returns its total."""
    game = GAME.new_state(Rules(), 1)
    assert isinstance(game, DiceGame)
    clock = time.perf_counter
    while game.result is None:
        if game.needs_chance():
            GAME.apply_chance(game, GAME.sample_chance(game, rng), 0)
            continue
        view = GAME.view(game, 0)
        start = clock()
        choice = bot.choose(view, rng, "careful")
        timings.append(clock() - start)
        assert choice is not None
        seat, code = GAME.action_from_dict(choice)
        game.apply(seat, code, 0)
    return game.totals[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="solo games (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    odds._options.cache_clear()  # the first decisions pay for the exact odds
    rng = random.Random(args.seed)
    timings: list[float] = []
    start = time.perf_counter()
    totals = [play_solo(rng, timings) for _ in range(args.games)]
    elapsed = time.perf_counter() - start
    spent = sum(timings)
    print(f"games: {args.games}")
    print(f"decisions: {len(timings)}")
    print(f"decisions_per_second: {len(timings) / spent:.0f}")
    print(f"mean_ms_per_decision: {spent / len(timings) * 1e3:.4f}")
    print(f"slowest_decision_ms: {max(timings) * 1e3:.2f}")
    print(f"games_per_second: {args.games / elapsed:.0f}")
    print(f"mean_total: {sum(totals) / len(totals):.2f}")


if __name__ == "__main__":
    main()
