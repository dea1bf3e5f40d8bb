"""Hypothesis: Swiss pairing over random fields, entries, withdrawals and results.

After every round: no pair meets twice, nobody has a second bye, withdrawn, absent and
not-yet-entered players are not paired, every active player is paired exactly once
or has the bye (exactly one bye when the active field is odd). When py4swiss finds no
pairing, the round is checked by brute force: either no pairing without repeats and
second byes exists at all, or FIDE's absolute colour rule is what stops it.
"""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    Game,
    GameResult,
    PlayerEntry,
    SwissPairingError,
    late_entry_open,
    swiss_pair,
)

RESULTS = [
    GameResult.win(0, 100, 40),
    GameResult.win(1, 30, 100),
    GameResult.draw(70, 70),
    GameResult.forfeit_win(0),
    GameResult.forfeit_win(1),
    GameResult.double_forfeit(),
]
RESULT_WEIGHTS = st.sampled_from([0, 0, 0, 1, 1, 1, 2, 2, 3, 4, 5])


def some_of(ids: set[int]) -> st.SearchStrategy[set[int]]:
    """Up to two of ``ids`` (who sits a round out, who withdraws)."""
    return st.sets(st.sampled_from(sorted(ids)), max_size=2) if ids else st.just(set())


def pairable(active: list[int], met: set[frozenset[int]], byes: set[int]) -> bool:
    """Does any pairing avoid repeats and second byes? (bitmask search, small fields)"""
    n = len(active)

    @cache
    def perfect(mask: int) -> bool:
        if mask == 0:
            return True
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        return any(
            rest >> j & 1 and frozenset((active[i], active[j])) not in met
            and perfect(rest & ~(1 << j))
            for j in range(i + 1, n)
        )

    full = (1 << n) - 1
    if n % 2 == 0:
        return perfect(full)
    return any(active[i] not in byes and perfect(full & ~(1 << i)) for i in range(n))


@settings(
    derandomize=True, max_examples=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_swiss_pairing_properties(data: st.DataObject) -> None:
    size = data.draw(st.integers(2, 16), label="players")
    rounds = data.draw(st.integers(1, 7), label="rounds")
    last_open = max(r for r in range(1, rounds + 1) if late_entry_open(r - 1, rounds))
    joined = data.draw(
        st.lists(st.integers(1, last_open), min_size=size, max_size=size), label="joined"
    )
    ratings = data.draw(
        st.lists(st.integers(1000, 1100), min_size=size, max_size=size), label="ratings"
    )
    withdrawn: set[int] = set()
    history: list[Game] = []
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for round_no in range(1, rounds + 1):
        players = [
            PlayerEntry(pid, ratings[pid - 1], f"P{pid}", pid in withdrawn, joined[pid - 1])
            for pid in range(1, size + 1)
        ]
        entered = {p.id for p in players if p.joined_at_round <= round_no}
        away = data.draw(some_of(entered), label="away")
        active = entered - withdrawn - away
        try:
            pairings = swiss_pair(players, history, round_no, total_rounds=rounds, absent=away)
        except SwissPairingError:
            if pairable(sorted(active), met, byes):
                event("no pairing within FIDE's colour rules")
            else:
                event("no pairing without repeats exists")
            return
        seen = [pid for p in pairings for pid in p.players]
        assert sorted(seen) == sorted(active), "every active player paired once or the bye"
        round_byes = [p.seat0 for p in pairings if p.is_bye]
        assert len(round_byes) == len(active) % 2
        for pairing in pairings:
            assert pairing.round == round_no
            if pairing.is_bye:
                assert pairing.seat0 not in byes, "second bye"
                byes.add(pairing.seat0)
            else:
                assert pairing.pair_key() not in met, "repeat pairing"
                met.add(pairing.pair_key())
                result = RESULTS[data.draw(RESULT_WEIGHTS, label="result")]
                history.append(Game(pairing, result))
                continue
            history.append(Game(pairing))
        withdrawn |= data.draw(some_of(active), label="withdraw")
    event("all rounds paired")
