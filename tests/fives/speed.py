"""Quick speed check: random complete games per second (``python -m tests.fives.speed``)."""

from __future__ import annotations

import random
import time

from games.fives.rules import Rules
from tests.fives.helpers import play_to_the_end


def random_games(seats: int, rules: Rules, seconds: float = 3.0) -> tuple[int, float, int]:
    rng = random.Random(seats)
    games = hands = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        state = play_to_the_end(rules, seats, rng,
                                lambda state, seat: rng.choice(state.legal_actions(seat)))
        games += 1
        hands += len(state.hands_summary)
    return games, time.perf_counter() - begin, hands


def main() -> None:
    for seats in (2, 4):
        for cross in (False, True):
            games, spent, hands = random_games(seats, Rules(cross=cross))
            print(f"{seats} players, cross {'on' if cross else 'off'}, to 250: "
                  f"{games / spent:.0f} games/s ({hands / games:.1f} hands a game)")


if __name__ == "__main__":
    main()
