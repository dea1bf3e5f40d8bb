"""The Django side speaks only the plugin interface (games/engine/plugin.py).

No game key is written outside the game folders and the registry, and every member of
``GamePlugin`` that the platform uses is declared there and implemented by each game.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.engine.clock import MatchClock
from games.engine.plugin import GamePlugin

ROOT = Path(__file__).resolve().parents[2]
SCANNED_DIRS = ("games", "tournaments", "ratings", "accounts", "config", "templates", "static")
SCANNED_SUFFIXES = (".py", ".html", ".js")
# A game's own folder and the registry name games; migrations keep their history.
ALLOWED = ("games/spectacular_bid/", "games/fives/", "games/dice/", "games/registry.py")
KEY_LITERAL = re.compile(r"""spectacular-bid|"fives"|'fives'|"dice\"""")

# What the Django side reads from a plugin, beyond the abstract methods.
ATTRIBUTES = {
    "key": str, "name": str, "record_format": str, "seat_counts": tuple,
    "versionless": frozenset, "has_one_device": bool, "rules_template": str,
    "terminal_actions": frozenset, "forfeit_action": str, "rated_standard": bool,
    "replay_strings": dict,
}
METHODS = ("conventions", "parse_rules", "rules_to_dict", "rated_allows", "new_state",
           "sample_chance", "apply_chance", "action_from_dict", "action_to_dict", "view",
           "legal_actions", "clock", "ranks", "scores", "score_baseline", "replayed_scores",
           "determinize", "annul", "export_record", "frames", "advice", "analysis",
           "replay_document", "bot_action")


def _scanned_files() -> list[Path]:
    files = []
    for folder in SCANNED_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if (path.suffix in SCANNED_SUFFIXES and path.is_file()
                    and "/migrations/" not in relative and "__pycache__" not in relative
                    and not relative.startswith(ALLOWED)):
                files.append(path)
    return files


def test_no_game_key_outside_the_game_folders() -> None:
    found = []
    for path in _scanned_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if KEY_LITERAL.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "game keys written outside the game folders:\n" + "\n".join(found)


def test_the_scan_sees_the_django_side() -> None:
    scanned = {path.relative_to(ROOT).as_posix() for path in _scanned_files()}
    assert {"games/play/services.py", "tournaments/rounds.py", "static/js/lobby.js",
            "templates/base.html"} <= scanned


@pytest.mark.parametrize("name", METHODS)
def test_the_interface_declares_each_method(name: str) -> None:
    member = getattr(GamePlugin, name, None)
    assert callable(member) and member.__doc__, f"GamePlugin.{name} needs a docstring"


@pytest.mark.parametrize("plugin", registry.all_games(), ids=registry.game_keys())
def test_each_plugin_implements_what_the_platform_uses(plugin: GamePlugin) -> None:
    declared = GamePlugin.__annotations__
    for name, kind in ATTRIBUTES.items():
        assert name in declared, f"GamePlugin does not declare {name}"
        assert isinstance(getattr(plugin, name, None), kind), (plugin.key, name)
    for name in METHODS:
        assert callable(getattr(plugin, name, None)), (plugin.key, name)
    assert not getattr(type(plugin), "__abstractmethods__", frozenset())
    assert plugin.forfeit_action in plugin.terminal_actions
    assert plugin.abort_action is None or plugin.abort_action in plugin.terminal_actions
    assert plugin.terminal_actions <= plugin.versionless
    assert plugin.headline_convention is None or plugin.headline_convention in {
        c.key for c in plugin.conventions()}


@pytest.mark.parametrize("plugin", registry.all_games(), ids=registry.game_keys())
def test_each_plugin_answers_on_a_new_game(plugin: GamePlugin) -> None:
    seats = max(plugin.seat_counts)
    state = plugin.new_state(plugin.parse_rules(None, seats), seats)
    clock = plugin.clock(state)
    assert clock is None or isinstance(clock, MatchClock)
    for seat in range(seats):
        legal = plugin.legal_actions(plugin.view(state, seat))
        assert isinstance(legal, list) and all(isinstance(a, dict) for a in legal)
    assert isinstance(plugin.score_baseline(plugin.rules_to_dict(plugin.parse_rules(None, seats))),
                      int)
    # The forfeit action reads as an action of the game's own codec.
    seat, _code = plugin.action_from_dict({"seat": 0, "type": plugin.forfeit_action})
    assert seat == 0


def test_the_template_for_each_rules_page_exists() -> None:
    from django.template.loader import get_template

    for plugin in registry.all_games():
        get_template(plugin.rules_template)


def test_one_device_play_is_for_the_games_that_declare_it() -> None:
    from games.play.lobby import LobbyError, one_device_game

    assert one_device_game().has_one_device
    for plugin in registry.all_games():
        if plugin.has_one_device:
            assert one_device_game(plugin.key) is plugin
        else:
            with pytest.raises(LobbyError):
                one_device_game(plugin.key)


@pytest.mark.parametrize("plugin", registry.all_games(), ids=registry.game_keys())
def test_a_rules_page_names_its_game_and_the_platform(client: Any, plugin: GamePlugin) -> None:
    html = client.get(f"/rules/{plugin.key}/").content.decode()
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    assert title is not None and title.group(1).strip().endswith("· Boneyard"), title
    assert '<span class="brand__name">Boneyard</span>' in html
