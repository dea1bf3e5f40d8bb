"""``{{ user|player_name }}``: a player's name as pages show it: the display name (else the
username), and for the computer's accounts their level in the reader's language
(``accounts.computer.shown_name``), never the stored English name; and
``{{ username|username_shown }}`` where a page has only the username."""

from __future__ import annotations

from django import template

from accounts.computer import display_name, shown_username

register = template.Library()
register.filter("player_name", display_name)


@register.filter
def username_shown(username: object) -> str:
    """``{{ name|username_shown }}``: a username from a page's data, a computer account's
    in the reader's language."""
    return shown_username(str(username))
