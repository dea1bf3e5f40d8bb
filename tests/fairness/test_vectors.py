"""docs/fairness.md's test vectors, recomputed by the derivation (games/engine/fairness.py).

The vectors are read from the document itself, so that the document and the code cannot
drift apart; the browser verifier's test reads the same block.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.dominoes.tiles import TILE_NAMES
from games.engine.fairness import DerivedChance, commitment, hmac_message

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def vectors() -> list[dict[str, Any]]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    found: list[dict[str, Any]] = json.loads(blocks[-1])
    return found


def source(vector: dict[str, Any]) -> DerivedChance:
    return DerivedChance(bytes.fromhex(vector["server_seed"]), vector["player_seeds"],
                         vector["match_id"], vector["event"])


@pytest.mark.parametrize("vector", vectors(), ids=lambda v: v["match_id"][:8])
def test_each_vector(vector: dict[str, Any]) -> None:
    seed = bytes.fromhex(vector["server_seed"])
    assert commitment(seed) == vector["commitment"] == hashlib.sha256(seed).hexdigest()
    message = hmac_message(vector["player_seeds"], vector["match_id"], vector["event"], 0)
    assert message.hex() == vector["message_block0"]
    assert hmac.new(seed, message, hashlib.sha256).hexdigest() == vector["block0"]
    block = bytes.fromhex(vector["block0"])
    assert vector["u32"] == [int.from_bytes(block[i:i + 4], "big") for i in range(0, 32, 4)]
    tiles = list(range(28))
    source(vector).shuffle(tiles)
    assert tiles == vector["shuffle_28"]
    assert [TILE_NAMES[t] for t in tiles] == vector["shuffle_28_tiles"]
    rng = source(vector)
    assert [rng.randint(1, 6) for _ in range(5)] == vector["dice_5"]
    assert source(vector).sample(range(28), 4) == vector["sample_4_of_28"]


def test_each_games_first_chance_event() -> None:
    vector = vectors()[0]
    expected = vector["games"]
    seen = set()
    for plugin in registry.all_games():
        for label, outcome in expected.items():
            fmt, _, rest = label.partition(" ")
            if fmt != plugin.record_format:
                continue
            counted = re.search(r"(\d+) (?:seats|player)", rest)
            seats = int(counted.group(1)) if counted else min(plugin.seat_counts)
            state = plugin.new_state(plugin.parse_rules(None, seats), seats)
            assert plugin.sample_chance(state, source(vector)) == outcome, label
            seen.add(plugin.record_format)
    # The published vectors cover the platform's own games (a test-only game has none).
    assert seen == {plugin.record_format for plugin in registry.hosted_games()}


def test_the_stream_reads_on_across_blocks() -> None:
    """A derivation longer than one block reads block 1 next, then block 2, ..."""
    vector = vectors()[0]
    seed = bytes.fromhex(vector["server_seed"])
    rng = source(vector)
    values = [rng.below(1 << 32) for _ in range(24)]  # below(2^32) never rejects
    stream = b"".join(hmac.new(seed, hmac_message(vector["player_seeds"], vector["match_id"],
                                                   vector["event"], c), hashlib.sha256).digest()
                      for c in range(3))
    assert values == [int.from_bytes(stream[i:i + 4], "big") for i in range(0, 96, 4)]


def test_below_rejects_the_values_past_the_largest_multiple() -> None:
    class Fixed(DerivedChance):
        def __init__(self, values: list[int]) -> None:
            super().__init__(b"k", [], "m", 0)
            self.values = values

        def _u32(self) -> int:
            return self.values.pop(0)

    limit = (1 << 32) - (1 << 32) % 6  # 4294967292
    rng = Fixed([limit, limit + 3, limit - 1, 7])
    assert rng.below(6) == (limit - 1) % 6  # the two values past the limit are skipped
    assert rng.below(6) == 7 % 6
    with pytest.raises(ValueError):
        rng.below(0)
