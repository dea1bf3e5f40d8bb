"""The user's words, in any game, for table rules a game refused.

A game's ``RulesError`` names the convention and the problem; the game's ``conventions``
give its kind and range. This module turns the two into a translated sentence, so that
no game's own messages (plain English) reach a user.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

from games.engine.plugin import Convention, GamePlugin, RulesError


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else str(value)


def _convention(plugin: GamePlugin, key: str | None) -> Convention | None:
    return next((c for c in plugin.conventions() if c.key == key), None)


def rules_message(plugin: GamePlugin, exc: RulesError) -> str:
    """Which convention cannot be, and what it may be."""
    if exc.problem == "not_object":
        example = next((c for c in plugin.conventions() if not c.fixed), None)
        if example is None:
            return _("The table rules must be an object.")
        return _("The table rules must be an object, like %(example)s.") % {
            "example": json.dumps({example.key: example.default})}
    if exc.problem == "seats":
        return _("%(game)s is played by %(counts)s players.") % {
            "game": _(plugin.name), "counts": ", ".join(map(str, plugin.seat_counts))}
    if exc.problem == "unknown":
        return _("There is no table rule called %(rule)s.") % {"rule": repr(exc.rule)}
    if exc.problem == "fixed":
        return _("The table rule %(rule)s is always off in this room.") % {"rule": exc.rule}
    found = exc.convention or _convention(plugin, exc.rule)
    names = {"rule": exc.rule}
    if found is None:
        return _("The table rule %(rule)s cannot take that value.") % names
    names.update(low=_number(found.minimum), high=_number(found.maximum),
                 step=_number(found.step))
    if found.kind == "bool":
        return _("The table rule %(rule)s must be true or false.") % names
    if found.choices:
        names["choices"] = ", ".join(str(choice) for choice in found.choices)
        return _("The table rule %(rule)s must be one of %(choices)s.") % names
    if found.step is not None:
        return _("The table rule %(rule)s must be a whole multiple of %(step)s "
                 "from %(low)s to %(high)s.") % names
    if found.unit == "seconds":
        if found.kind == "int":
            return _("The table rule %(rule)s must be a whole number of seconds from "
                     "%(low)s to %(high)s.") % names
        return _("The table rule %(rule)s must be a number of seconds from %(low)s "
                 "to %(high)s.") % names
    if found.kind == "int":
        return _("The table rule %(rule)s must be a whole number from %(low)s to "
                 "%(high)s.") % names
    return _("The table rule %(rule)s must be a number from %(low)s to %(high)s.") % names
