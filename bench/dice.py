"""The careful dice player: decision speed and its mean score over seeded solo games.

``python -m bench.dice [--games 10000] [--seed 1]`` plays N solo games of five rounds
(dice from one seeded ``random.Random``), each decision taken by the careful bot from
the seat's view, and prints ``decisions_per_second``, ``mean_ms_per_decision`` (the
bot's ``choose`` alone, view building excluded, the odds cache starting cold),
``slowest_decision_ms`` and ``mean_total`` (the 5-round total). The best expectation
of a turn is about 43.77 points, so ``mean_total`` should come near 219.

``--table N`` plays N duplicate pairs of two-player games instead (each pair on the same
dice, the seats swapped), the player that plays to win against careful, and prints
``to_win_vs_careful: win_rate R ci L-H games G draws D p95_ms M`` (a draw counts half;
the interval is 95%, normal, over the pairs). An exact computation puts the best
possible result against careful at about 52%, so a few thousand pairs are needed to
tell it from 50%.
"""

from __future__ import annotations

import argparse
import random
import time

from games.dice import bot, odds
from games.dice.plugin import GAME
from games.dice.record import chance_to_dict
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


class Dice:
    """The dice of a pair of games: the same seat's roll (or re-roll) of the same round
    gets the same dice in both, whichever player sits there, and whatever was kept."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def roll(self, kind: str, seat: int, round_no: int, count: int) -> list[int]:
        rng = random.Random(f"{self.seed}/{kind}/{seat}/{round_no}")
        return [rng.randint(1, 6) for _ in range(5)][:count]


def play_table(levels: tuple[str, str], dice: Dice, timings: list[float]) -> float:
    """One two-player game of five rounds; the points result for seat 0 (draw 0.5)."""
    rng = random.Random(0)
    game = GAME.new_state(Rules(), 2)
    assert isinstance(game, DiceGame)
    clock = time.perf_counter
    while game.result is None:
        if game.needs_chance():
            due = game.chance_due()
            assert due is not None
            if due.kind == "order":  # seat 0 goes first in both games of a pair
                rolled = [6 if due.seat == 0 else 1]
            else:
                rolled = dice.roll(due.kind, due.seat, game.round_no, due.count)
            GAME.apply_chance(game, chance_to_dict(due.kind, due.seat, rolled), 0)
            continue
        seat = game.to_act()
        assert seat is not None
        start = clock()
        choice = bot.choose(GAME.view(game, seat), rng, levels[seat])
        if levels[seat] == bot.TO_WIN:
            timings.append(clock() - start)
        assert choice is not None
        game.apply(*GAME.action_from_dict(choice), 0)
    winner = game.result.winner
    return 0.5 if winner is None else float(winner == 0)


def play_pairs(pairs: int, seed: int) -> None:
    timings: list[float] = []
    scores: list[float] = []
    draws = 0
    for pair in range(pairs):
        first = play_table((bot.TO_WIN, "careful"), Dice(seed * 1_000_003 + pair), timings)
        second = 1.0 - play_table(("careful", bot.TO_WIN), Dice(seed * 1_000_003 + pair),
                                  timings)
        draws += (first == 0.5) + (second == 0.5)
        scores.append((first + second) / 2)
    mean = sum(scores) / len(scores)
    spread = (sum((s - mean) ** 2 for s in scores) / max(1, len(scores) - 1)) ** 0.5
    half = 1.96 * spread / len(scores) ** 0.5
    p95 = sorted(timings)[int(0.95 * (len(timings) - 1))] * 1e3 if timings else 0.0
    print(f"to_win_vs_careful: win_rate {mean:.3f} ci {mean - half:.3f}-{mean + half:.3f} "
          f"games {2 * pairs} draws {draws} p95_ms {p95:.1f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="solo games (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table", type=int, default=0,
                        help="duplicate pairs of two-player games: to_win against careful")
    args = parser.parse_args(argv)
    if args.table:
        play_pairs(args.table, args.seed)
        return
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
