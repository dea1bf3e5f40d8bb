"""The games' own English words, marked for the translation catalogue.

Pure game packages cannot import Django; their display names (``GamePlugin.name``) are
translated where they are shown (``{% translate plugin.name %}``, ``_(plugin.name)``),
and listed here so that ``makemessages`` finds them.
"""

from django.utils.translation import gettext_noop

GAME_NAMES = (
    gettext_noop("Spectacular Bid"),
    gettext_noop("Fives with the cross"),
    gettext_noop("Five dice, five rounds"),
)
