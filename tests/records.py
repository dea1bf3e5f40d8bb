"""Records shared by tests."""

from __future__ import annotations

from typing import Any

# The example of match-record.md, word for word.
EXAMPLE: dict[str, Any] = {
    "format": "spectacular-bid/1",
    "players": ["alice", "bob"],
    "rules": {"start_points": 150, "bank_s": 120, "delay_s": 10, "min_bid": 15, "bid_step": 5,
              "jockey_discount": 15},
    "hands": [
        {
            "deal": {
                "hands": [["6-6", "1-4", "2-3", "0-5", "3-3", "1-1", "2-6"],
                          ["5-5", "0-1", "4-4", "3-6", "0-2", "1-5", "4-6"]],
                "boneyard": ["0-0", "0-3", "0-4", "0-6", "1-2", "1-3", "1-6",
                             "2-2", "2-4", "2-5", "3-4", "3-5", "4-5", "5-6"],
            },
            "actions": [
                {"seat": 0, "type": "continue", "t": 0.0},
                {"seat": 1, "type": "continue", "t": 0.4},
                {"seat": 0, "type": "play", "tile": "6-6", "t": 0.4},
                {"seat": 1, "type": "play", "tile": "3-6", "target": "6-6", "port": "line_a",
                 "t": 5.1},
                {"seat": 0, "type": "play", "tile": "2-6", "target": "6-6", "port": "line_b",
                 "t": 9.0},
            ],
        }
    ],
}
