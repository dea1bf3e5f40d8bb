"""Every benchmark runs once at a tiny size: it exits 0 and prints its figures.

Sizes are for speed, not for meaning (the whole file takes about two minutes).
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from dataclasses import dataclass

import pytest

from .running import bench_database, run_bench

LIVE_FIGURES = ("moves", "moves_per_second", "p50_ms", "p95_ms", "p99_ms", "answer_p50_ms",
                "answer_p99_ms", "ramp_p99_ms", "flag_p99_ms", "flags", "lost_moves", "errors",
                "races", "unpersisted_moves")


@dataclass(frozen=True)
class Tiny:
    module: str
    args: tuple[str, ...]
    database: bool  # needs a PostgreSQL database of its own (DATABASE_URL)
    prints: tuple[str, ...]  # each a regular expression that some output line matches
    zero: tuple[str, ...] = ()  # figures that must be 0
    services: bool = True  # PostgreSQL or Redis: the `services` marker


def printed(*names: str) -> tuple[str, ...]:
    return tuple(rf"^{name}: (?:[-\d.]+|nan)$" for name in names)


RUNS = [
    Tiny("bench.engine", ("--seconds", "0.3"), False,
         (*printed("hands_per_second", "legal_query_us"),
          r"^spectacular-bid/2: games_per_second [\d.]+, hands_per_second \d+$",
          r"^fives/4: games_per_second [\d.]+, hands_per_second \d+$",
          r"^dice/1: games_per_second [\d.]+, hands_per_second \d+$",
          r"^playout fives/2 greedy: protocol \d+, shortcut \d+ hands_per_second "
          r"\(x[\d.]+\)$",
          r"^search fives/4: protocol \d+, walk \d+ iterations_per_second \(x[\d.]+\)$"),
         services=False),
    Tiny("bench.dice", ("--games", "20"), False, (r"decisions", r"mean"), services=False),
    Tiny("bench.dice", ("--table", "3"), False,
         (r"^to_win_vs_careful: win_rate [\d.]+ ci -?[\d.]+-[\d.]+ games 6 draws \d+ "
          r"p95_ms [\d.]+$",), services=False),
    Tiny("bench.tournaments", ("--tournaments", "3"), False, (r"rounds", r"repeats"),
         services=False),
    Tiny("bench.bots", ("--game", "fives", "--seats", "2", "--pairs", "2", "--move-ms", "5",
                        "--jobs", "2"),
         False, (r"^fives/2$",
                 r"^hard_vs_easy: win_rate [\d.]+ ci [\d.]+-[\d.]+ margin -?[\d.]+ "
                 r"p95_ms \d+$"), services=False),
    Tiny("bench.regret", ("--pairs", "1", "--iterations", "20", "--judge", "40"), False,
         (r"^fives/4: positions \d+, judge 40 iterations, hard 20$",
          r"^hard: regret [\d.]+ mean [\d.]+ decisions [1-9]\d*$",
          r"^hard_unweighed_worlds: regret [\d.]+ mean [\d.]+ decisions [1-9]\d*$"),
         services=False),
    # Two games against the hard computer on the platform (daphne, Celery, runbot).
    Tiny("bench.bots", ("--concurrent", "2", "--seconds", "10", "--ramp", "1"), True,
         (r"^concurrent 2: decisions \d+, p50_ms \d+, p95_ms \d+, max_ms \d+, "
          r"delay_ms \d+, over_delay \d+, errors \d+$", r"^decisions: [1-9]",
          *printed("p50_ms", "p95_ms", "max_ms", "delay_ms", "over_delay", "errors")),
         zero=("over_delay", "errors")),
    Tiny("bench.ratings", ("--matches", "400", "--players", "40", "--heavy", "100"), True,
         (r"recompute", )),
    Tiny("bench.writer", ("--commands", "40"), True,
         (r"^commands: 40$", *printed("cpu_ms_per_command", "wall_ms_per_command"),
          r"^stage \w+: [\d.]+ ms$")),
    Tiny("bench.relay", ("--rooms", "4", "--rates", "20", "--seconds", "1"), False,
         (r"^offered 20/s: delivered \d+/s, p50 [\d.]+ ms, p99 [\d.]+ ms$",)),
    Tiny("bench.live", ("--matches", "4", "--seconds", "5", "--flag-matches", "1",
                        "--ramp", "1"), True,
         (*printed(*LIVE_FIGURES), r"^cpu daphne: [\d.]+ s \([\d.]+ ms per move\)$"),
         zero=("lost_moves", "unpersisted_moves", "errors")),
    Tiny("bench.flood", ("--sockets", "20", "--seconds", "2"), True,
         (*printed("baseline_sync_p50_ms", "baseline_sync_p99_ms", "attack_sync_p50_ms",
                   "attack_sync_p99_ms", "attack_api_me_p99_ms", "target_sync_p99_ms"),
          r"^attacker_sockets_accepted: 16$", r"^attacker_sockets_refused: 4$",
          r"^within_target: (?:yes|no)$")),
    # 18 s: the flag matches end about 12 s in, so their players start new ones.
    Tiny("bench.soak", ("--minutes", "0.3", "--matches", "4", "--flag-matches", "2",
                        "--ramp", "1", "--warmup", "5", "--sample-every", "4"), True,
         (*printed(*LIVE_FIGURES, "memory_growth_max_pct", "pg_connections_first",
                   "pg_connections_last"),
          r"^\[\s*\d+ s\] RSS MB: web0 [\d.]+ web1 [\d.]+ worker [\d.]+ beat [\d.]+ \|",
          r"^pg connections at the last sample: \d+ \(.*web0 \d+",
          r"^renewed_matches: [1-9]"),
         zero=("lost_moves", "unpersisted_moves", "errors")),
]


@pytest.mark.parametrize("tiny", [
    pytest.param(tiny, id=" ".join((tiny.module, *tiny.args[:1])),
                 marks=[pytest.mark.services] if tiny.services else [])
    for tiny in RUNS])
def test_a_benchmark_runs_at_a_tiny_size(tiny: Tiny) -> None:
    with bench_database(tiny.module.rpartition(".")[2]) if tiny.database else nullcontext() as url:
        run = run_bench(tiny.module, *tiny.args, env={"DATABASE_URL": url} if url else None)
    assert run.returncode == 0, run.output
    for pattern in tiny.prints:
        assert re.search(pattern, run.output, re.MULTILINE), (pattern, run.output)
    for name in tiny.zero:
        assert run.figures[name] == 0, (name, run.output)
