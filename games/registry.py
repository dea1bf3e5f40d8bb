"""The games this platform hosts: one line a game.

Everything outside a game's own folder finds it here by key (``Match.game``) or by
record format, and knows it only through ``games/engine/plugin.py``.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import import_module

from games.engine.plugin import GamePlugin

# Each line names a module with a ``GAME`` object; the first is the default game.
HOSTED = (
    "games.spectacular_bid.plugin",
    "games.fives.plugin",
    "games.dice.plugin",
)

# More game modules, comma-separated, after those: the test run's own games
# (config/testrun.py sets it; the processes the tests start inherit it). Unset: none.
EXTRA_GAMES_VARIABLE = "PLATFORM_EXTRA_GAMES"


def extra_games(value: str | None = None) -> tuple[str, ...]:
    """The modules named in ``PLATFORM_EXTRA_GAMES`` (or ``value``), in order."""
    text = os.environ.get(EXTRA_GAMES_VARIABLE, "") if value is None else value
    return tuple(part.strip() for part in text.split(",") if part.strip())


# Every game this process hosts (config/settings.py finds their templates and static here).
REGISTERED = HOSTED + tuple(path for path in extra_games() if path not in HOSTED)


class UnknownGame(KeyError):
    pass


@cache
def all_games() -> tuple[GamePlugin, ...]:
    games = tuple(import_module(path).GAME for path in REGISTERED)
    for plugin in games:
        assert isinstance(plugin, GamePlugin), plugin
    return games


def hosted_games() -> tuple[GamePlugin, ...]:
    """The platform's own games (``HOSTED``), without any extra ones: for what is written
    by hand for each game (documentation, translations, test vectors)."""
    return tuple(plugin for plugin, path in zip(all_games(), REGISTERED, strict=True)
                 if path in HOSTED)


def game(key: str) -> GamePlugin:
    for plugin in all_games():
        if plugin.key == key:
            return plugin
    raise UnknownGame(key)


def default_game() -> GamePlugin:
    return all_games()[0]


def by_format(record_format: object) -> GamePlugin | None:
    for plugin in all_games():
        if plugin.record_format == record_format:
            return plugin
    return None


def game_keys() -> list[str]:
    return [plugin.key for plugin in all_games()]
