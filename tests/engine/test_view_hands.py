"""The hand summaries a view carries: the current hand and the one before, no more.

A long match has dozens of hands; every move's view would otherwise carry them all.
"""

from __future__ import annotations

import random

from games.spectacular_bid.actions import action_from_dict
from games.spectacular_bid.bot import choose
from games.spectacular_bid.rules import US
from games.spectacular_bid.state import BONEYARD_SIZE, HAND_SIZE, Deal, Match
from games.spectacular_bid.view import RECENT_HANDS


def seeded_deal(rng: random.Random) -> Deal:
    tiles = list(range(28))
    rng.shuffle(tiles)
    return Deal((tiles[:HAND_SIZE], tiles[HAND_SIZE:2 * HAND_SIZE]),
                tiles[2 * HAND_SIZE:2 * HAND_SIZE + BONEYARD_SIZE])


def test_views_carry_the_recent_hands_and_the_final_position_only_between_hands() -> None:
    rng = random.Random(7)
    match = Match()
    now = 0
    most_hands = 0
    while match.result is None:
        if match.needs_chance():
            match.deal(seeded_deal(rng))
        for seat in (0, 1, None):
            view = match.view(seat)
            count = len(match.hands_summary)
            assert view["hands_played"] == count
            indexes = [h["hand"] for h in view["hands"]]
            assert indexes == list(range(max(0, count - RECENT_HANDS), count))
            with_board = [h["hand"] for h in view["hands"] if "board" in h]
            between = match.phase in ("continue", "deal")
            if between and any("hands" in h for h in view["hands"]):
                # The latest settled hand shows its last position while it is on screen.
                latest = max(h["hand"] for h in view["hands"] if "hands" in h)
                assert with_board == [latest]
            else:
                assert with_board == []
        most_hands = max(most_hands, len(match.hands_summary))
        for seat in (0, 1):
            action = choose(match.view(seat))
            if action is not None:
                now += US
                match.apply(*action_from_dict(action), now)
                break
        else:
            now += 1000 * US  # nobody can act: let the clock decide
            match.advance(now)
    assert most_hands > RECENT_HANDS + 1  # the window moved along a match of several hands
    final = match.view(0)
    assert [h["hand"] for h in final["hands"]] == [most_hands - 2, most_hands - 1]
    assert sum("board" in h for h in final["hands"]) == 1  # the last settled hand's position
