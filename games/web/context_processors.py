"""What every page's template may use: the platform's name and the games it hosts.

The platform has a name of its own (``settings.PLATFORM_NAME``, a brand: never
translated); each game's name is shown where that game is (its match, replay, rules and
bests pages), from its plugin.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy

from games import registry
from games.engine.plugin import GamePlugin


def platform(request: HttpRequest) -> dict[str, Any]:
    """``PLATFORM_NAME`` and ``hosted_games``: each registered game's key, translated name
    and rules page, in the registry's order (the first is the default game)."""
    return {
        "PLATFORM_NAME": settings.PLATFORM_NAME,
        "hosted_games": [_hosted(plugin) for plugin in registry.all_games()],
    }


def _hosted(plugin: GamePlugin) -> dict[str, Any]:
    return {
        "key": plugin.key,
        "name": gettext_lazy(plugin.name),  # translated when the page is rendered
        "summary": gettext_lazy(plugin.summary),
        "rules_url": reverse("game_rules", args=[plugin.key]),
    }
