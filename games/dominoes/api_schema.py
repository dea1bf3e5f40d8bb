"""The JSON Schema pieces both domino games' views and actions share (their API documents).

The shapes are those of ``board_json``, ``view.public_move`` and ``view.hand_summary_json``;
each game adds its own fields (``spinner_key``: "spinner" or "cross").
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.api_schema import JSON, action_kind, array, nullable, obj, of

from .board import PORT_NAMES

TILE = of("string", "a tile by its two halves, the lower first (`0-0` to `6-6`)",
          pattern="^[0-6]-[0-6]$")
PORT = {"type": "string", "description": "where on the target tile: its two ends (`high`, "
        "`low`), the line (`line_a`, `line_b`) or the cross/spinner branches (`branch_a`, "
        "`branch_b`)", "enum": list(PORT_NAMES)}
TILES = array("tiles by name", TILE)


def tile(description: str) -> JSON:
    return TILE | {"description": f"{description} (a tile by name, `0-0` to `6-6`)"}


def port(description: str) -> JSON:
    return PORT | {"description": f"{description} (`high`, `low`: a tile's ends; `line_a`, "
                                  "`line_b`: the line; `branch_a`, `branch_b`: the cross)"}


def play_action(seats: int) -> JSON:
    return action_kind(
        "play", "place a tile of your hand: on `target`'s `port`, or without either as the "
                "first tile of a hand", seats,
        {"tile": tile("the tile"), "target": tile("the tile on the board it joins"),
         "port": port("where on `target`")}, optional=("target", "port"))


def board_schema(spinner_key: str) -> JSON:
    link = obj("a tile on the board and how it joined", {
        "tile": tile("the tile"),
        "target": nullable(tile("the tile it joined"), "for the first tile"),
        "port": nullable(port("where on `target` it joined"), "for the first tile"),
        "own_port": nullable(port("which of its own ends joined"), "for the first tile"),
    })
    place = obj("an open place a tile may go", {
        "target": tile("the tile to join"), "port": port("where on `target`"),
        "value": of("integer", "the pips a tile must show to go there", minimum=0, maximum=6),
    })
    return obj("the board (public)", {
        "tiles": array("the tiles in the order they were placed", link),
        spinner_key: nullable(tile("the first double, which may be joined on four sides"),
                              "until there is one"),
        "ends_sum": of("integer", "the counting ends' sum now", minimum=0),
        "places": array("the open places", place),
    })


def move_schema(extra: Mapping[str, JSON] | None = None) -> JSON:
    """A move of this hand as everybody sees it: a draw never says which tile."""
    return obj("a move", {
        "seat": of("integer", "who moved", minimum=0),
        "type": of("string", "the action's type (as in `legal`), or `flag` and the like for "
                             "what the clock or the server did"),
        "tile": tile("a placement's tile"), "target": tile("the tile it joined"),
        "port": port("where on `target`"),
        **(extra or {}),
        "points": of("integer", "points this move scored"),
        "forced": {"const": True, "description": "present when the server made the move "
                                                 "(nothing else was legal)"},
    }, required=["seat", "type", "points"])


def hand_summary_schema(spinner_key: str, shown: Mapping[str, JSON],
                        move_extra: Mapping[str, JSON] | None = None) -> JSON:
    """A recent hand in a view; its tiles (and, while its result is on screen, its last
    position) once it has ended."""
    return obj("a hand of the match: the one being played and the one before", {
        "hand": of("integer", "the hand's index, from 0", minimum=0),
        **shown,
        "hands": array("each seat's tiles when the hand ended (once it has)", TILES),
        "board": board_schema(spinner_key),
        "moves": array("the hand's moves (while its result is on screen)",
                       move_schema(move_extra)),
    }, required=["hand", *shown])


def hand_fields() -> dict[str, JSON]:
    """What a seat's view of a dealt hand shows besides the board."""
    return {
        "hand": array("your tiles (a seat's view while a hand runs; never another's)", TILE),
        "must_play": of("string", "the tile you drew that fits: it must be played now",
                        pattern=TILE["pattern"]),
        "hand_counts": array("how many tiles each seat holds", of("integer", "", minimum=0)),
    }
