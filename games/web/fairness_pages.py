"""What the pages show of seeded chance (docs/fairness.md): the replay pages' check.

The check itself runs in the browser (static/js/fairness_verify.js with each game's
``chance_module``); this gives it the record's address, the modules and its words.
"""

from __future__ import annotations

from typing import Any

from django.templatetags.static import static
from django.utils.translation import gettext as _

from games import registry
from games.models import Match


def verify_context(match: Match | None) -> dict[str, Any]:
    """The replay page's "fairness-data": a finished match's record, or an upload's."""
    return {
        "record_url": None if match is None else f"/api/matches/{match.pk}/record",
        "modules": {plugin.record_format: static(plugin.chance_module)
                    for plugin in registry.all_games()},
        "strings": {
            "algorithm": _("Algorithm"),
            "commitment": _("Commitment (SHA-256 of the server seed, shown from the start)"),
            "server_seed": _("Server seed (revealed after the match)"),
            "player_seed": _("Seed of {name}"),
            "none": _("(none)"),
            "checking": _("Checking…"),
            "ok": _("All {n} deals and rolls match the seeds."),
            "differs": _("Does not match the seeds: {where}."),
            "commitment_bad": _("The server seed does not match the commitment: these deals "
                                "cannot be trusted."),
            "no_seeds": _("This record has no seeds (typed by hand, or from before seeded "
                          "deals): it replays, but its deals cannot be verified."),
            "not_revealed": _("The server seed is not revealed yet: it is, once the match "
                              "is over."),
            "algorithm_unknown": _("This record uses an algorithm this page does not know."),
            "malformed": _("The record's seeds cannot be read."),
            "unknown_format": _("There is no verifier for this record's format."),
            "failed": _("The check could not run in this browser."),
            "hand": _("hand {n}"),
            "order": _("{name}'s roll for the order"),
            "roll": _("turn {turn}: {name}'s roll"),
            "reroll": _("turn {turn}: {name}'s re-roll"),
        },
    }
