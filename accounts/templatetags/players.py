"""``{{ user|player_name }}``: a player's name as pages show it: the display name (else the
username), and for the computer's accounts their level in the reader's language
(``accounts.computer.shown_name``), never the stored English name."""

from __future__ import annotations

from django import template

from accounts.computer import display_name

register = template.Library()
register.filter("player_name", display_name)
