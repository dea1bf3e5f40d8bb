"""The games' refusal reasons, translated for the user.

A game's rules are pure and speak English; each reason is marked where the game gives
it (``gettext_noop``, or a ``Reason`` with numbers in it), so that Django's translation
machinery finds it in the game's own folder.
"""

from __future__ import annotations

from django.utils.translation import gettext

from games.engine.protocol import Reason


def translate(reason: str) -> str:
    if isinstance(reason, Reason):
        text = gettext(reason.template) % reason.values
    else:
        text = gettext(reason)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
