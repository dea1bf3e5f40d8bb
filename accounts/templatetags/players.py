"""``{{ user|player_name }}``: a player's name as pages show it: the display name (else the
username), and for the computer's accounts their level in the reader's language
(``accounts.computer.shown_name``), never the stored English name."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.computer import shown_name

register = template.Library()


@register.filter
def player_name(user: Any) -> str:
    profile = getattr(user, "profile", None)
    if getattr(profile, "is_bot", False):
        return shown_name(str(user.username))
    return (getattr(profile, "display_name", "") or "") or str(user.username)
