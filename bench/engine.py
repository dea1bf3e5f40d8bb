"""Engine speed: random complete hands on one core, and the legal-actions query.

Prints ``hands_per_second: N`` and ``legal_query_us: N`` (Spectacular Bid's engine
directly). Target: at least 10,000 random hands per second. Each hand is dealt from a
seeded shuffle, started, and played to its end by picking uniformly among the legal
actions. Then, for every registered game and seat count, random complete games through
the game protocol (chance from the plugin): ``<game>/<seats>: games_per_second N,
hands_per_second N`` (a hand is a deal of a domino game, a round of the dice game).

Last, for every game whose states play hands out fast for a search
(``GameState.hand_rollout``), random complete hands from a hand's first decision, both
ways, in one run: ``playout <game>/<seats>: protocol N, shortcut N hands_per_second
(xR)``, uniform (the protocol's ``play_out`` with the shared policy at ``explore`` 1,
the worlds copied outside the timing) and with the shared greedy policy.

And the search on such hands: ``search <game>/<seats>: protocol N, walk N
iterations_per_second (xR)``, hard's tree search (``games/search/ismcts.py``) from the
same hands' first decisions, through the protocol and on hand walks
(``GameState.hand_walk``), in one run.
"""

from __future__ import annotations

import argparse
import copy
import random
import time

from games import registry
from games.engine.plugin import GamePlugin
from games.engine.protocol import GameState
from games.search.budget import Budget
from games.search.drive import Horizon, play_out, to_decision
from games.search.ismcts import search
from games.search.playout import GreedyPolicy
from games.spectacular_bid import actions as A
from games.spectacular_bid.state import Deal, Match


def random_deal(rng: random.Random) -> Deal:
    tiles = list(range(28))
    rng.shuffle(tiles)
    return Deal((tiles[:7], tiles[7:14]), tiles[14:])


def play_hand(rng: random.Random, positions: list[tuple[Match, int]] | None = None) -> int:
    """Play one hand to its end; returns the number of actions applied."""
    match = Match()
    match.deal(random_deal(rng))
    match.start_hand_now(0)
    count = 0
    choice = rng.choice
    while match.phase == "play" and match.result is None:
        seat = match.turn
        legal = match.legal_actions(seat)
        if positions is not None and len(match.board.links) >= 6:
            positions.append((match, seat))
            return count
        match.apply(seat, choice(legal), 0)
        count += 1
    return count


def measure_hands(seconds: float, seed: int = 1) -> tuple[int, float]:
    rng = random.Random(seed)
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            play_hand(rng)
        hands += 200
        now = time.perf_counter()
        if now >= deadline:
            return hands, now - start


def measure_legal_query(samples: int = 2000, repeats: int = 50, seed: int = 2) -> float:
    """Mean microseconds per legal_actions() call in mid-hand positions (6+ tiles down)."""
    rng = random.Random(seed)
    positions: list[tuple[Match, int]] = []
    while len(positions) < samples:
        play_hand(rng, positions)
    start = time.perf_counter()
    for _ in range(repeats):
        for match, seat in positions:
            match.legal_actions(seat)
    elapsed = time.perf_counter() - start
    return elapsed / (samples * repeats) * 1e6


def play_game(plugin: GamePlugin, seats: int, rng: random.Random) -> int:
    """One random complete game through the protocol; returns its hands (or rounds)."""
    state = plugin.new_state(plugin.parse_rules(None, seats), seats)
    choice = rng.choice
    for _ in range(100_000):
        if state.result is not None:
            break
        if state.needs_chance():
            plugin.apply_chance(state, plugin.sample_chance(state, rng), 0)
            continue
        seat = state.to_act()
        seats_to_try = range(seats) if seat is None else (seat,)
        for s in seats_to_try:
            legal = state.legal_actions(s)
            if legal:
                state.apply(s, choice(legal), 0)
                break
        else:
            state.advance(state.next_deadline_us() or 0)
    played = getattr(state, "hands_summary", None) or getattr(state, "rounds", None) or []
    return len(played)


def measure_games(plugin: GamePlugin, seats: int, seconds: float,
                  seed: int = 3) -> tuple[float, float]:
    rng = random.Random(seed)
    games = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        hands += play_game(plugin, seats, rng)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, hands / elapsed


def hand_starts(plugin: GamePlugin, seats: int, count: int, seed: int = 4) -> list[GameState]:
    """States at the first decision of a hand's play (past Spectacular Bid's auction)."""
    rng = random.Random(seed)
    starts: list[GameState] = []
    while len(starts) < count:
        state = plugin.new_state(plugin.parse_rules(None, seats), seats)
        horizon = Horizon(state, hands=2)  # the first deal and its hand
        while (seat := to_decision(plugin, state, rng, horizon)) is not None:
            if state.hand_rollout(rng, 1.0) is not None:
                starts.append(state)
                break
            state.apply(seat, state.legal_actions(seat)[0], 0)  # declines the auction
    return starts


def measure_playouts(plugin: GamePlugin, starts: list[GameState], explore: float,
                     seconds: float) -> tuple[float, float]:
    """Hands per second from ``starts``: through the protocol, then the shortcut."""
    rng = random.Random(5)
    policy = GreedyPolicy(plugin, explore)
    hands = 0
    elapsed = 0.0
    while elapsed < seconds:
        worlds = [copy.deepcopy(start) for start in starts]
        begin = time.perf_counter()
        for world in worlds:
            play_out(plugin, world, rng, Horizon(world, hands=1), policy)
        elapsed += time.perf_counter() - begin
        hands += len(worlds)
    protocol = hands / elapsed
    hands = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        for start in starts:
            start.hand_rollout(rng, explore)
        hands += len(starts)
    return protocol, hands / (time.perf_counter() - begin)


def measure_search(plugin: GamePlugin, starts: list[GameState], seconds: float,
                   iterations: int = 100) -> tuple[float, float]:
    """Search iterations per second from ``starts``: through the protocol, then on walks."""
    rates = []
    for shortcut in (False, True):
        rng = random.Random(6)
        done = 0
        begin = time.perf_counter()
        while time.perf_counter() - begin < seconds:
            for start in starts:
                seat = start.to_act()
                assert seat is not None
                search(plugin, start, seat, rng, Budget(iterations=iterations),
                       shortcut=shortcut)
                done += iterations
        rates.append(done / (time.perf_counter() - begin))
    return rates[0], rates[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args()
    assert A.DRAW  # the action table is imported once, outside the timed loops
    play_hand(random.Random(0))  # warm up
    hands, elapsed = measure_hands(args.seconds)
    print(f"hands_per_second: {hands / elapsed:.0f}")
    print(f"legal_query_us: {measure_legal_query():.2f}")
    for plugin in registry.all_games():
        for seats in plugin.seat_counts:
            games_s, hands_s = measure_games(plugin, seats, args.seconds / 3)
            print(f"{plugin.key}/{seats}: games_per_second {games_s:.1f}, "
                  f"hands_per_second {hands_s:.0f}")
    for plugin in registry.all_games():
        for seats in plugin.seat_counts:
            if not _plays_hands_out(plugin, seats):
                continue
            starts = hand_starts(plugin, seats, 100)
            for name, explore in (("uniform", 1.0), ("greedy", GreedyPolicy(plugin).explore)):
                slow, fast = measure_playouts(plugin, starts, explore, args.seconds / 3)
                print(f"playout {plugin.key}/{seats} {name}: protocol {slow:.0f}, "
                      f"shortcut {fast:.0f} hands_per_second (x{fast / slow:.1f})")
            slow, fast = measure_search(plugin, starts[:20], args.seconds / 3)
            print(f"search {plugin.key}/{seats}: protocol {slow:.0f}, walk {fast:.0f} "
                  f"iterations_per_second (x{fast / slow:.1f})")


def _plays_hands_out(plugin: GamePlugin, seats: int) -> bool:
    """Whether the game's states offer the shortcut at some point of a first hand."""
    state = plugin.new_state(plugin.parse_rules(None, seats), seats)
    rng = random.Random(0)
    horizon = Horizon(state, hands=2)
    while (seat := to_decision(plugin, state, rng, horizon)) is not None:
        if state.hand_rollout(rng, 1.0) is not None:
            return True
        state.apply(seat, state.legal_actions(seat)[0], 0)
    return False


if __name__ == "__main__":
    main()
