"""The computer's levels, per game, and the account that plays each (pure: no Django).

A game whose plugin rebuilds a state from a view (``state_from_view``) is played by the
search's levels (``games/search/levels.py``: easy, medium, hard; medium by default); a
game may instead name its own (``computer_levels`` and ``default_computer_level`` on its
plugin: the dice game's careful and easy). A game with neither has one level, its
plugin's ``bot_action``.

Each level is an account of its own, so that each has its own rating: the default level
of every game is the platform's long-standing ``computer`` account (its ratings and the
tests that seat it stay as they were), every other level ``computer-<game>-<level>``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games import registry
from games.engine.plugin import GamePlugin
from games.search.levels import LEVELS

SEARCH_LEVELS = tuple(LEVELS)  # easy, medium, hard
SEARCH_DEFAULT = "medium"
PLAIN_LEVEL = "default"  # a game with no levels: its plugin's bot_action
DEFAULT_USERNAME = "computer"


def searches(plugin: GamePlugin) -> bool:
    """Whether the game's computer searches (its plugin rebuilds states from views)."""
    return type(plugin).state_from_view is not GamePlugin.state_from_view


def levels_of(plugin: GamePlugin) -> tuple[str, ...]:
    if plugin.computer_levels:
        return plugin.computer_levels
    return SEARCH_LEVELS if searches(plugin) else (PLAIN_LEVEL,)


def default_level(plugin: GamePlugin) -> str:
    if plugin.default_computer_level:
        return plugin.default_computer_level
    return SEARCH_DEFAULT if searches(plugin) else PLAIN_LEVEL


@dataclass(frozen=True, slots=True)
class LevelAccount:
    username: str
    game: str | None  # None: the default account, which plays every game
    level: str | None  # None: each game's default level


def username_for(plugin: GamePlugin, level: str) -> str:
    if level == default_level(plugin):
        return DEFAULT_USERNAME
    return f"{DEFAULT_USERNAME}-{plugin.key}-{level}"


@cache
def level_accounts() -> tuple[LevelAccount, ...]:
    """Every computer account: the default one first, then each game's other levels."""
    found = [LevelAccount(DEFAULT_USERNAME, None, None)]
    for plugin in registry.all_games():
        for level in levels_of(plugin):
            if level != default_level(plugin):
                found.append(LevelAccount(username_for(plugin, level), plugin.key, level))
    return tuple(found)


def account_named(username: str) -> LevelAccount | None:
    return next((a for a in level_accounts() if a.username == username), None)


def level_for(username: str, game: str) -> str | None:
    """The level the account ``username`` plays ``game`` at; None: not one of its games."""
    account = account_named(username)
    if account is None:
        return None
    plugin = registry.game(game)
    if account.game is None:
        return default_level(plugin)
    return account.level if account.game == game else None
