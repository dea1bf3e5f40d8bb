"""The hard level's decisions against a judge that sees the true deal: its regret.

``.venv/bin/python -m bench.regret [--game fives] [--seats 4] [--pairs 14] [--seed 8301]
[--iterations 1500] [--judge 1500] [--jobs 2] [--positions FILE]``

Win rates move by a few hundredths for a change that matters, and 500 duplicate pairs
measure them to about ±0.02 in half an hour or more. This measures one decision at a
time instead, on the same positions for every variant:

1. **Positions.** Hard (300 iterations) plays easy on duplicate deals, as ``bench.bots``
   plays them; every hard decision with a choice is kept, with a judge's value of each of
   its actions: the same search given the true deal (``TrueDeal``; it cheats, so it is a
   ceiling and never a player) with ``--judge`` iterations. ``--positions FILE`` keeps
   them (dealt and judged once, read again by later runs).
2. **Regret.** The hard level decides each position again with ``--iterations``; its
   regret there is the judge's value of the best action less that of the one chosen.
   Printed: the total and the mean per decision, once for the hard level and once for
   the same search in worlds dealt under the constraints alone, unweighed.

A line per way::

    hard: regret 32.48 mean 0.0152 decisions 2140

The judge's own noise is small: two judges with other random numbers choose actions of
regret about 0.001 a decision. The player's is not: two runs with other ``--seed``
(which, with ``--positions`` read back, changes only the player's random numbers) differ
by up to about 1.4 in the total over 2,100 decisions of Fives for four. Pure: no Django.
"""

from __future__ import annotations

import argparse
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from games import registry
from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState
from games.search import ismcts
from games.search.worlds import Dealer

from .bots import play_match

PLAYED_ITERATIONS = 300  # the hard level that plays the positions' matches


class TrueDeal(Dealer):
    """The judge's worlds: the real hands and pile, every time (seeing them is cheating)."""

    def _deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        hands: list[int] = self.state.hand_masks  # type: ignore[attr-defined]
        return list(hands), list(getattr(self.state, str(self.pile)))


@dataclass(frozen=True)
class Position:
    state: bytes  # pickled
    seat: int
    judged: dict[int, float]  # per action, the judge's mean reward


def judge(plugin: GamePlugin, state: GameState, seat: int, rng: random.Random,
          iterations: int) -> dict[int, float]:
    stats = ismcts.evaluate(plugin, state, seat, rng, iterations=iterations,
                            dealer=TrueDeal(plugin, state, seat))
    return {action: entry.mean for action, entry in stats.items()}


def match_positions(key: str, seats: int, seed: int, swap: int,
                    judge_iterations: int) -> list[Position]:
    """The hard decisions of one match of the duplicate pair ``seed``, judged."""
    plugin = registry.game(key)
    levels = ["hard" if (s + swap) % 2 == 0 else "easy" for s in range(seats)]
    judging = random.Random(seed * 97 + swap)
    found = []

    def keep(state: GameState, seat: int) -> None:
        if levels[seat] == "hard" and len(state.legal_actions(seat)) > 1:
            found.append(Position(pickle.dumps(state), seat,
                                  judge(plugin, state, seat, judging, judge_iterations)))

    played = argparse.Namespace(iterations=PLAYED_ITERATIONS, first="hard")
    play_match(plugin, seats, levels, seed, played, [], watch=keep)
    return found


def _match_job(job: tuple[str, int, int, int, int]) -> list[Position]:
    return match_positions(*job)


def regret_of(key: str, positions: list[Position], iterations: int, seed: int,
              weighed: bool) -> float:
    """The total regret of the hard search (``weighed`` worlds, or unweighed ones)."""
    plugin = registry.game(key)
    total = 0.0
    for index, position in enumerate(positions):
        state = pickle.loads(position.state)
        rng = random.Random(seed * 100_003 + index)
        dealer = None if weighed else Dealer(plugin, state, position.seat)
        stats = ismcts.evaluate(plugin, state, position.seat, rng, iterations=iterations,
                                dealer=dealer)
        chosen = ismcts.best_action(stats)
        total += max(position.judged.values()) - position.judged[chosen]
    return total


def _regret_job(job: tuple[str, list[Position], int, int, bool]) -> float:
    return regret_of(*job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="fives", help="a domino game's key")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=14, help="duplicate pairs played")
    parser.add_argument("--seed", type=int, default=8301)
    parser.add_argument("--iterations", type=int, default=1500,
                        help="the hard level's iterations a decision (100 ms is about 1,500)")
    parser.add_argument("--judge", type=int, default=1500, help="the judge's iterations")
    parser.add_argument("--jobs", type=int, default=1, help="processes (at most the cores)")
    parser.add_argument("--positions", type=Path, default=None,
                        help="a file keeping the judged positions between runs")
    args = parser.parse_args()
    jobs = max(1, args.jobs)
    with ProcessPoolExecutor(jobs) as pool:
        if args.positions and args.positions.exists():
            positions: list[Position] = pickle.loads(args.positions.read_bytes())
        else:
            work = [(args.game, args.seats, args.seed + pair, swap, args.judge)
                    for pair in range(args.pairs) for swap in (0, 1)]
            positions = [p for found in pool.map(_match_job, work) for p in found]
            if args.positions:
                args.positions.write_bytes(pickle.dumps(positions))
        print(f"{args.game}/{args.seats}: positions {len(positions)}, judge {args.judge} "
              f"iterations, hard {args.iterations}", flush=True)
        for name, weighed in (("hard", True), ("hard_unweighed_worlds", False)):
            parts = [(args.game, positions[part::jobs], args.iterations, args.seed, weighed)
                     for part in range(jobs)]
            total = sum(pool.map(_regret_job, parts))
            mean = total / max(1, len(positions))
            print(f"{name}: regret {total:.2f} mean {mean:.4f} decisions {len(positions)}",
                  flush=True)


if __name__ == "__main__":
    main()
