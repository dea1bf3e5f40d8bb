"""Computer-player levels against each other on duplicate deals (``games/search/levels.py``).

``.venv/bin/python -m bench.bots [--game G] [--seats N] [--pairs N] [--move-ms M]
[--iterations K] [--pairings hard_vs_easy,hard_vs_medium] [--jobs J]``

Each pair is one seed played twice with the levels' seats swapped: the chance outcomes
(deals, rolls) come from their own ``random.Random(seed)``, so both matches get the same
deals in the same order, and each level's own rng is seeded apart. At 2 seats the levels
hold one seat each; at more seats they alternate (first level at the even seats, then at
the odd ones). Casual short tables: Spectacular Bid from 50 points, Fives to 100, dice of
3 rounds. Per pairing one line::

    hard_vs_easy: win_rate 0.78 ci 0.73-0.83 margin 4.2 p95_ms 96

win_rate: the first level's share of the matches won (a win shared with the other level
counts its share), with its 95% Wilson interval; margin: the first level's mean final
score less the second's, per match; p95_ms: the 95th percentile of the first level's
decision times. A decision's budget is ``--move-ms`` of this process's clock
(``time.perf_counter``, passed to the search as ``now``), or ``--iterations`` when given.
Pure: the plugins are driven directly, no Django. ``--jobs J`` plays the pairs in J
processes, one match at a time each, so that every decision still has one core to itself
(J no more than the cores); the figures are those of a single process, sooner.

``--concurrent N [--seconds S] [--level L] [--ramp R]``: instead, N games against the
computer at once on the running platform, and the computer's slowest decision against the
table's delay (``bench/bots_live.py``, which alone imports Django).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from games import registry
from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState
from games.search.budget import Budget
from games.search.levels import LEVELS

SHORT_RULES = {
    "spectacular-bid": {"start_points": 50},
    "fives": {"target": 100},
    "dice": {"rounds": 3},
}
DECISION_LIMIT = 5_000  # a match guard, far above any short match
Z95 = 1.959964


@dataclass
class Tally:
    wins: float = 0.0
    matches: int = 0
    margin: float = 0.0
    times_ms: list[float] = field(default_factory=list)


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def budget(args: argparse.Namespace) -> Budget:
    if args.iterations:
        return Budget(iterations=args.iterations)
    return Budget(deadline=time.perf_counter() + args.move_ms / 1000, now=time.perf_counter)


def step_free(plugin: GamePlugin, state: GameState, chance: random.Random) -> bool:
    """Apply chance and non-decisions; False when a seat has a decision (or it is over)."""
    if state.needs_chance():
        plugin.apply_chance(state, plugin.sample_chance(state, chance), 0)
        return True
    if state.to_act() is not None:
        return False
    moved = False
    for seat in range(state.num_seats):
        legal = state.legal_actions(seat)
        if legal:
            state.apply(seat, legal[0], 0)
            moved = True
    return moved


def play_match(plugin: GamePlugin, seats: int, levels: list[str], seed: int,
               args: argparse.Namespace, first_times: list[float],
               watch: Callable[[GameState, int], None] | None = None) -> GameState:
    """One match, ``levels[s]`` playing seat ``s``; the first pairing level is levels' own.
    ``watch(state, seat)`` is called at each decision before the seat decides."""
    state = plugin.new_state(plugin.parse_rules(SHORT_RULES.get(plugin.key), seats), seats)
    chance = random.Random(seed)
    minds = [random.Random(seed * 31 + s + 7) for s in range(seats)]
    for _ in range(DECISION_LIMIT):
        if state.result is not None:
            break
        if step_free(plugin, state, chance):
            continue
        seat = state.to_act()
        if seat is None:
            break
        if watch is not None:
            watch(state, seat)
        start = time.perf_counter()
        action = LEVELS[levels[seat]](plugin, state, seat, minds[seat], budget(args))
        if levels[seat] == args.first:
            first_times.append((time.perf_counter() - start) * 1000)
        state.apply(seat, action, 0)
    return state


def score_match(plugin: GamePlugin, state: GameState, mine: list[int], tally: Tally) -> None:
    ranks = plugin.ranks(state) or [1] * state.num_seats
    firsts = [s for s, rank in enumerate(ranks) if rank == min(ranks)]
    tally.wins += sum(1 for s in firsts if s in mine) / len(firsts)
    scores = plugin.scores(state)
    theirs = [s for s in range(state.num_seats) if s not in mine]
    if scores and theirs:
        tally.margin += (sum(scores[s] for s in mine) / len(mine)
                         - sum(scores[s] for s in theirs) / len(theirs))
    tally.matches += 1


def play_pair(plugin: GamePlugin, seats: int, first: str, second: str, seed: int,
              args: argparse.Namespace) -> Tally:
    """One duplicate pair: the seed's deals played twice, the levels' seats swapped."""
    tally = Tally()
    args.first = first
    for swap in (0, 1):
        mine = [s for s in range(seats) if (s + swap) % 2 == 0]
        levels = [first if s in mine else second for s in range(seats)]
        state = play_match(plugin, seats, levels, seed, args, tally.times_ms)
        score_match(plugin, state, mine, tally)
    return tally


def _pair_job(job: tuple[str, int, str, str, int, argparse.Namespace]) -> Tally:
    key, seats, first, second, seed, args = job
    return play_pair(registry.game(key), seats, first, second, seed, args)


def merged(tallies: list[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.wins += tally.wins
        total.matches += tally.matches
        total.margin += tally.margin
        total.times_ms += tally.times_ms
    return total


def run_pairing(plugin: GamePlugin, seats: int, first: str, second: str,
                args: argparse.Namespace) -> Tally:
    seeds = [args.seed + pair for pair in range(args.pairs)]
    jobs = max(1, getattr(args, "jobs", 1))
    if jobs == 1:
        return merged([play_pair(plugin, seats, first, second, seed, args) for seed in seeds])
    work = [(plugin.key, seats, first, second, seed, args) for seed in seeds]
    with ProcessPoolExecutor(jobs) as pool:
        return merged(list(pool.map(_pair_job, work)))


def line(name: str, tally: Tally) -> str:
    rate = tally.wins / max(1, tally.matches)
    low, high = wilson(tally.wins, tally.matches)
    margin = tally.margin / max(1, tally.matches)
    return (f"{name}: win_rate {rate:.2f} ci {low:.2f}-{high:.2f} margin {margin:.1f} "
            f"p95_ms {percentile(tally.times_ms, 0.95):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=None, help="a registered game's key (default: all)")
    parser.add_argument("--seats", type=int, default=None, help="default: every seat count > 1")
    parser.add_argument("--pairs", type=int, default=10, help="duplicate pairs per pairing")
    parser.add_argument("--move-ms", type=float, default=100.0, help="time per decision")
    parser.add_argument("--iterations", type=int, default=0, help="iterations, not time")
    parser.add_argument("--pairings", default="hard_vs_easy,hard_vs_medium")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes playing pairs at once (at most the cores)")
    parser.add_argument("--concurrent", type=int, default=0,
                        help="N games against the computer at once on the platform")
    parser.add_argument("--seconds", type=float, default=120.0, help="with --concurrent")
    parser.add_argument("--level", default="hard", help="with --concurrent")
    parser.add_argument("--ramp", type=float, default=5.0,
                        help="with --concurrent: seconds over which the players arrive")
    args = parser.parse_args()
    if args.concurrent:
        from bench import bots_live

        bots_live.run(args)
        return
    games = [registry.game(args.game)] if args.game else list(registry.all_games())
    for plugin in games:
        counts = [args.seats] if args.seats else [n for n in plugin.seat_counts if n > 1]
        for seats in counts:
            print(f"{plugin.key}/{seats}", flush=True)
            for name in args.pairings.split(","):
                first, second = name.split("_vs_")
                print(line(name, run_pairing(plugin, seats, first, second, args)), flush=True)


if __name__ == "__main__":
    main()
