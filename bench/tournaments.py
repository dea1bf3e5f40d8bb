"""Swiss pairing at scale: random tournaments paired round by round with py4swiss.

    python -m bench.tournaments [--tournaments 300] [--seed 1] [--tables N] [--arenas 1]

Each tournament draws 5 to 200 players and 5 to 9 rounds (the field is at least
``FIELD_PER_ROUND`` players per round, see below), then plays every round: late
entrants join until half the rounds have started, some players never show up (their
first game is a forfeit, then they are withdrawn), some withdraw after a round, some
sit a round out, results follow the ratings with draws and the odd forfeit.

Every pairing is checked: no repeated pair, no second bye, no withdrawn or absent
player paired, every active player paired once or given the bye. Prints those
counts, the rounds that failed to pair, and the pairing time per round (median, p95,
max; wall clock, then this process's CPU time, which a busy machine does not inflate).
Target: every round paired, the slowest under 2 s, 0 repeats, 0 second byes.

Table tournaments (``--tables``, default a tenth of ``--tournaments``, at least 2; the
lines that start with ``tables_``): 12 to 200 entrants of the dice game at tables of 4
and of 6 in turn, 5 to 9 rounds, each seated by ``formats.tables.seat_round`` from the
standings so far; some never show up (forfeited, then withdrawn), some withdraw, places
at each table follow the ratings. Checked each round: every active entrant seated once
or given a bye, the plan's table sizes, nobody withdrawn seated, byes spread (nobody a
second before everyone has had one). Prints the repeat seatings (pairs seated together
again; many are unavoidable once a field has met), and the seating time per round.
Target: every round seated correctly, the slowest under 2 s.

Arenas (``--arenas``, default 1; the lines that start with ``arena_``): 200 players for
an hour of simulated time, a tick a second as the server runs them. Games last 20 s to
7 min, results follow the ratings with draws; a player who finishes may take a break
(1 to 5 minutes) or, rarely, withdraw. Each tick pairs everyone waiting with
``formats.arena.pair_waiting`` and checks: nobody twice or busy paired, nobody paired
with their last opponent while another waited, and nobody left waiting who could have
been paired (so every player is paired at the first tick after a game: within the
tick's second plus the pairing time). Prints the pairing time per tick (p95, max), the
simulated waits, and the repeat pairings (two who met before; none of them the last
opponent while someone else waited). Target: every tick correct, the slowest under 2 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from tournaments.formats import (
    Game,
    GameResult,
    Pairing,
    PlayerEntry,
    SwissPairingError,
    late_entry_open,
    swiss_pair,
)
from tournaments.formats import arena as A
from tournaments.formats import tables as T

# With fewer players than this many per round, no-repeat Swiss pairing (within FIDE's
# colour rules) runs out of opponents in the last rounds: 5 players cannot play 9
# rounds without repeats at all. Small fields get fewer rounds or more players.
FIELD_PER_ROUND = 2
NO_SHOW = 0.04  # of the initial entrants
LATE = 0.08  # of the field, joining after round 1
WITHDRAW = 0.02  # per active player per round
AWAY = 0.02  # sits one round out
FORFEIT = 0.01  # per game
DRAW = 0.12
TARGET_SLOWEST_S = 2.0


@dataclass
class Report:
    tournaments: int = 0
    rounds: int = 0
    paired: int = 0
    failed: list[str] = field(default_factory=list)
    repeats: int = 0
    second_byes: int = 0
    withdrawn_paired: int = 0
    unpaired_active: int = 0
    odd_rounds_not_one_bye: int = 0
    times: list[tuple[float, int]] = field(default_factory=list)  # (seconds, active players)
    cpu: list[float] = field(default_factory=list)  # this process's CPU seconds per round


def draw_tournament(rng: random.Random) -> tuple[list[PlayerEntry], int, set[int]]:
    """Players (late entrants with their round), rounds, and who will never show up."""
    rounds = rng.randint(5, 9)
    size = rng.randint(max(5, FIELD_PER_ROUND * rounds), 200)
    last_open = max(r for r in range(1, rounds + 1) if late_entry_open(r - 1, rounds))
    players = []
    for pid in range(1, size + 1):
        joined = rng.randint(2, last_open) if rng.random() < LATE and last_open > 1 else 1
        players.append(PlayerEntry(pid, rng.randint(1000, 2500), f"P{pid}", joined_at_round=joined))
    no_shows = {p.id for p in players if p.joined_at_round == 1 and rng.random() < NO_SHOW}
    return players, rounds, no_shows


def play(rng: random.Random, pairing: Pairing, ratings: dict[int, int], no_shows: set[int]) -> Game:
    if pairing.seat1 is None:
        return Game(pairing)
    away0, away1 = pairing.seat0 in no_shows, pairing.seat1 in no_shows
    if away0 and away1:
        return Game(pairing, GameResult.double_forfeit())
    if away0 or away1:
        return Game(pairing, GameResult.forfeit_win(0 if away1 else 1))
    if rng.random() < FORFEIT:
        return Game(pairing, GameResult.forfeit_win(rng.randint(0, 1)))
    expected = 1 / (1 + 10 ** ((ratings[pairing.seat1] - ratings[pairing.seat0]) / 400))
    points = rng.randint(0, 150), rng.randint(0, 150)
    roll = rng.random()
    if roll < DRAW:
        return Game(pairing, GameResult.draw(*points))
    winner = 0 if roll < DRAW + (1 - DRAW) * expected else 1
    return Game(pairing, GameResult.win(winner, *points))


def run_tournament(rng: random.Random, report: Report) -> None:
    players, rounds, no_shows = draw_tournament(rng)
    ratings = {p.id: p.rating for p in players}
    withdrawn: set[int] = set()
    history: list[Game] = []
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    report.tournaments += 1
    for round_no in range(1, rounds + 1):
        report.rounds += 1
        entries = [
            PlayerEntry(p.id, p.rating, p.name, p.id in withdrawn, p.joined_at_round)
            for p in players
        ]
        entered = {p.id for p in entries if p.joined_at_round <= round_no}
        away = {pid for pid in entered - withdrawn if rng.random() < AWAY}
        active = entered - withdrawn - away
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            pairings = swiss_pair(entries, history, round_no, total_rounds=rounds, absent=away)
        except SwissPairingError as error:
            report.failed.append(
                f"{len(players)} players, {rounds} rounds, round {round_no}, "
                f"{len(active)} active: {error}"
            )
            report.rounds += rounds - round_no  # the rest cannot be played either
            return
        report.times.append((time.perf_counter() - start, len(active)))
        report.cpu.append(time.process_time() - cpu_start)
        report.paired += 1
        seen = [pid for pairing in pairings for pid in pairing.players]
        report.unpaired_active += len(active - set(seen))
        report.withdrawn_paired += len(set(seen) & (withdrawn | away))
        round_byes = [pairing.seat0 for pairing in pairings if pairing.is_bye]
        if len(active) % 2 and len(round_byes) != 1:
            report.odd_rounds_not_one_bye += 1
        for pairing in pairings:
            if pairing.is_bye:
                report.second_byes += pairing.seat0 in byes
                byes.add(pairing.seat0)
            else:
                report.repeats += pairing.pair_key() in met
                met.add(pairing.pair_key())
            history.append(play(rng, pairing, ratings, no_shows))
        # A no-show is withdrawn once his first game has been forfeited.
        forfeited = {pid for pairing in pairings if not pairing.is_bye for pid in pairing.players}
        withdrawn |= no_shows & forfeited
        withdrawn |= {pid for pid in active if rng.random() < WITHDRAW}


@dataclass
class TablesReport:
    tournaments: int = 0
    rounds: int = 0
    misseated: int = 0  # rounds with a wrong seating (anyone missed, twice, wrong sizes)
    repeats: int = 0
    pairs: int = 0
    byes_uneven: int = 0
    times: list[tuple[float, int, int]] = field(default_factory=list)  # (s, players, seats)


def run_table_tournament(rng: random.Random, seats: int, report: TablesReport) -> None:
    size = rng.randint(12, 200)
    rounds = rng.randint(5, 9)
    players = [PlayerEntry(pid, rng.randint(1000, 2500), f"P{pid}") for pid in range(1, size + 1)]
    ratings = {p.id: p.rating for p in players}
    no_shows = {p.id for p in players if rng.random() < NO_SHOW}
    allowed = T.table_sizes_allowed(range(1, 7), seats)
    points = T.default_table_points(seats)
    withdrawn: set[int] = set()
    games: list[T.TableGame] = []
    byes = dict.fromkeys(ratings, 0)
    report.tournaments += 1
    for round_no in range(1, rounds + 1):
        report.rounds += 1
        entries = [PlayerEntry(p.id, p.rating, p.name, p.id in withdrawn) for p in players]
        entrants = T.table_entrants(entries, games, points)
        history = [g.players for g in games if not g.is_bye]
        start = time.perf_counter()
        seating = T.seat_round(entrants, history, allowed, round_no=round_no, seed=size)
        report.times.append((time.perf_counter() - start, len(entrants), seats))
        seated = [pid for table in seating.tables for pid in table] + list(seating.byes)
        sizes, bye_count = T.table_plan(len(entrants), allowed)
        wrong = (sorted(seated) != sorted(e.id for e in entrants)
                 or sorted(map(len, seating.tables)) != sorted(sizes)
                 or len(seating.byes) != bye_count or bool(set(seated) & withdrawn))
        report.misseated += wrong
        report.repeats += seating.repeats
        report.pairs += sum(len(t) * (len(t) - 1) // 2 for t in seating.tables)
        for pid in seating.byes:
            byes[pid] += 1
            games.append(T.TableGame(round_no, (pid,)))
        active = [byes[e.id] for e in entrants]
        report.byes_uneven += bool(active) and max(active) - min(active) > 1
        for table in seating.tables:
            games.append(T.TableGame(round_no, table,
                                     table_result(rng, table, ratings, no_shows)))
        withdrawn |= {pid for pid in seated if pid in no_shows}
        withdrawn |= {e.id for e in entrants if rng.random() < WITHDRAW}


def table_result(rng: random.Random, table: tuple[int, ...], ratings: dict[int, int],
                 no_shows: set[int]) -> T.TableResult:
    """Places by rating and luck; a no-show forfeits."""
    strength = {pid: ratings[pid] + rng.gauss(0, 300) for pid in table}
    order = sorted(table, key=lambda pid: -strength[pid])
    places = tuple(1 + order.index(pid) for pid in table)
    return T.TableResult(places, tuple(rng.randint(0, 300) for _ in table),
                         tuple(pid in no_shows for pid in table))


def print_tables(report: TablesReport) -> bool:
    """The table tournaments' figures; whether every round was seated correctly."""
    seconds = [t for t, _, _ in report.times] or [0.0]
    slowest, players, seats = max(report.times, default=(0.0, 0, 0))
    print(f"tables_tournaments: {report.tournaments}")
    print(f"tables_rounds_seated: {report.rounds - report.misseated} of {report.rounds}")
    print(f"tables_misseated: {report.misseated}")
    print(f"tables_byes_uneven: {report.byes_uneven}")
    print(f"tables_repeats: {report.repeats}")
    print(f"tables_pairs_seated: {report.pairs}")
    print(f"tables_seat_ms_median: {statistics.median(seconds) * 1000:.1f}")
    print(f"tables_seat_ms_p95: {percentile(seconds, 0.95) * 1000:.1f}")
    print(f"tables_seat_ms_max: {slowest * 1000:.1f} ({players} players, tables of {seats})")
    return not (report.misseated or report.byes_uneven)


ARENA_PLAYERS = 200
ARENA_SECONDS = 3600
ARENA_GAME_S = (20, 420)
ARENA_BREAK = 0.02  # per finished game: a break of 1 to 5 minutes
ARENA_WITHDRAW = 0.003  # per finished game


@dataclass
class ArenaReport:
    arenas: int = 0
    ticks: int = 0
    games: int = 0
    wrong_ticks: int = 0  # anyone twice, busy, away, or barred paired
    pairable_left: int = 0  # ticks that left two waiting who could have played
    last_opponent_again: int = 0  # while someone else waited
    repeats: int = 0  # pairs that had met before
    times: list[float] = field(default_factory=list)  # seconds per tick's pairing
    waits: list[int] = field(default_factory=list)  # simulated seconds, finish to pairing


def arena_outcome(rng: random.Random, a: int, b: int, ratings: dict[int, int]
                  ) -> tuple[float, float]:
    if rng.random() < DRAW:
        return 0.5, 0.5
    expected = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
    return (1.0, 0.0) if rng.random() < expected else (0.0, 1.0)


def run_arena(rng: random.Random, report: ArenaReport, players: int = ARENA_PLAYERS,
              seconds: int = ARENA_SECONDS) -> None:
    ratings = {pid: rng.randint(1000, 2500) for pid in range(1, players + 1)}
    results: dict[int, list[float]] = {pid: [] for pid in ratings}
    last: dict[int, int] = {}
    met: set[frozenset[int]] = set()
    waiting_since = dict.fromkeys(ratings, 0)  # pid -> second it began waiting
    away_until: dict[int, int] = {}
    withdrawn: set[int] = set()
    ending: dict[int, list[tuple[int, int]]] = {}  # second -> games ending then
    report.arenas += 1
    for now in range(seconds):
        for a, b in ending.pop(now, []):
            score_a, score_b = arena_outcome(rng, a, b, ratings)
            results[a].append(score_a)
            results[b].append(score_b)
            for pid in (a, b):
                if rng.random() < ARENA_WITHDRAW:
                    withdrawn.add(pid)
                elif rng.random() < ARENA_BREAK:
                    away_until[pid] = now + rng.randint(60, 300)
                waiting_since[pid] = max(now, away_until.get(pid, now))
        report.ticks += 1
        ready = [pid for pid, since in waiting_since.items()
                 if since <= now and pid not in withdrawn]
        waiting = [A.Waiting(pid, A.score_of(results[pid]), last.get(pid),
                             float(waiting_since[pid])) for pid in ready]
        start = time.perf_counter()
        pairs, left = A.pair_waiting(waiting)
        report.times.append(time.perf_counter() - start)
        paired = [pid for pair in pairs for pid in pair]
        ready_set = set(ready)
        report.wrong_ticks += (len(set(paired)) != len(paired)
                               or not set(paired) <= ready_set)
        barred = [(a, b) for a, b in pairs if last.get(a) == b or last.get(b) == a]
        if len(ready) > 2:
            report.last_opponent_again += len(barred)
        report.pairable_left += any(last.get(a) != b and last.get(b) != a
                                    for i, a in enumerate(left) for b in left[i + 1:])
        for a, b in pairs:
            report.repeats += frozenset((a, b)) in met
            met.add(frozenset((a, b)))
            last[a], last[b] = b, a
            for pid in (a, b):
                report.waits.append(now - waiting_since.pop(pid))
            ending.setdefault(now + rng.randint(*ARENA_GAME_S), []).append((a, b))
            report.games += 1


def print_arenas(report: ArenaReport) -> bool:
    seconds = report.times or [0.0]
    waits = report.waits or [0]
    print(f"arena_arenas: {report.arenas}")
    print(f"arena_ticks: {report.ticks}")
    print(f"arena_games: {report.games}")
    print(f"arena_wrong_ticks: {report.wrong_ticks}")
    print(f"arena_pairable_left_waiting: {report.pairable_left}")
    print(f"arena_last_opponent_again: {report.last_opponent_again}")
    print(f"arena_repeats: {report.repeats}")
    print(f"arena_pair_ms_p95: {percentile(seconds, 0.95) * 1000:.2f}")
    print(f"arena_pair_ms_max: {max(seconds) * 1000:.2f}")
    print(f"arena_wait_s_p95: {percentile([float(w) for w in waits], 0.95):.0f}")
    print(f"arena_wait_s_max: {max(waits)}")
    correct = not (report.wrong_ticks or report.pairable_left or report.last_opponent_again)
    print(f"arena_target: {'met' if correct and max(seconds) < TARGET_SLOWEST_S else 'MISSED'}")
    return correct


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=None,
                        help="table tournaments (default: a tenth of --tournaments, 2 at least)")
    parser.add_argument("--arenas", type=int, default=1,
                        help="arenas of 200 players for an hour of simulated time")
    parser.add_argument("--arena-minutes", type=int, default=60)
    args = parser.parse_args(argv)
    report = Report()
    started = time.perf_counter()
    for number in range(args.tournaments):
        run_tournament(random.Random(args.seed * 1_000_003 + number), report)
    tables = TablesReport()
    count = max(2, args.tournaments // 10) if args.tables is None else args.tables
    for number in range(count):
        run_table_tournament(random.Random(args.seed * 1_000_033 + number),
                             4 if number % 2 == 0 else 6, tables)
    arenas = ArenaReport()
    for number in range(args.arenas):
        run_arena(random.Random(args.seed * 1_000_037 + number), arenas,
                  seconds=args.arena_minutes * 60)
    elapsed = time.perf_counter() - started
    seconds = [t for t, _ in report.times] or [0.0]
    slowest, slowest_field = max(report.times, default=(0.0, 0))
    print(f"tournaments: {report.tournaments}")
    print(f"rounds_paired: {report.paired} of {report.rounds}")
    print(f"rounds_failed_to_pair: {len(report.failed)}")
    print(f"repeats: {report.repeats}")
    print(f"second_byes: {report.second_byes}")
    print(f"withdrawn_or_absent_paired: {report.withdrawn_paired}")
    print(f"active_unpaired: {report.unpaired_active}")
    print(f"odd_rounds_without_exactly_one_bye: {report.odd_rounds_not_one_bye}")
    print(f"pair_ms_median: {statistics.median(seconds) * 1000:.1f}")
    print(f"pair_ms_p95: {percentile(seconds, 0.95) * 1000:.1f}")
    print(f"pair_ms_max: {slowest * 1000:.1f} ({slowest_field} players)")
    # CPU time is what the pairing costs with the machine to itself: on a shared
    # machine the wall times above include waiting for a core.
    cpu = report.cpu or [0.0]
    print(f"pair_cpu_ms_median: {statistics.median(cpu) * 1000:.1f}")
    print(f"pair_cpu_ms_p95: {percentile(cpu, 0.95) * 1000:.1f}")
    print(f"pair_cpu_ms_max: {max(cpu) * 1000:.1f}")
    tables_correct = print_tables(tables)
    arenas_correct = print_arenas(arenas)
    tables_slowest = max((t for t, _, _ in tables.times), default=0.0)
    print(f"total_s: {elapsed:.1f}")
    for line in report.failed:
        print(f"failed: {line}")
    correct = (
        report.paired == report.rounds
        and not (report.repeats or report.second_byes or report.withdrawn_paired)
        and not (report.unpaired_active or report.odd_rounds_not_one_bye)
    )
    tables_met = tables_correct and tables_slowest < TARGET_SLOWEST_S
    print(f"tables_target: {'met' if tables_met else 'MISSED'}")
    print(f"target: {'met' if correct and slowest < TARGET_SLOWEST_S else 'MISSED'}")
    correct = correct and tables_correct and arenas_correct
    # A benchmark prints its figures; it fails only when the pairings are wrong (a slow
    # round on a busy machine is a figure, not an error).
    return 0 if correct else 1


if __name__ == "__main__":
    sys.exit(main())
