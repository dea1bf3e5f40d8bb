"""The odds panel and the post-game analysis over HTTP, for any game whose plugin has them
(``GamePlugin.advice`` and ``GamePlugin.analysis``; see docs/api.md).

Advice is for a player's own decision in a casual match: never in a rated one, never for
another seat, never once the match is over. It is computed from the engine cached on the
match row (a read: no lock, nothing written). The analysis is public once the match is
over, like its record.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games.models import Match
from games.play.services import access_match_seats
from games.play.store import export_record, load_engine, plugin_of
from games.web.api import api_view, json_error, json_methods


def _match(match_id: Any) -> Match | None:
    return Match.objects.filter(pk=match_id).first()


@api_view(["GET"])
def match_advice(request: HttpRequest, match_id: Any) -> JsonResponse:
    match = _match(match_id)
    if match is None:
        return json_error(404, "not_found", _("There is no such match."))
    seats = access_match_seats(match, request.api_user)  # type: ignore[attr-defined]
    if not seats:
        return json_error(403, "forbidden", _("Only a player of this match can ask for its odds."))
    if match.rated:
        return json_error(403, "rated", _("There are no odds in a rated match."))
    if match.status != Match.Status.ACTIVE:
        return json_error(409, "over", _("The match is over."))
    plugin = plugin_of(match)
    engine = load_engine(match)
    for seat in seats:  # one-device: the seat of theirs that is to decide
        advice = plugin.advice(engine, seat)
        if advice is not None:
            return JsonResponse({"ok": True, "version": match.version, "seat": seat,
                                 "advice": advice})
    return json_error(409, "no_advice", _("There is no decision of yours to give odds for now."))


@json_methods(["GET"])
def match_analysis(request: HttpRequest, match_id: Any) -> JsonResponse:
    match = _match(match_id)
    if match is None:
        return json_error(404, "not_found", _("There is no such match."))
    if match.status == Match.Status.ACTIVE:
        return json_error(409, "running", _("The analysis is available once the match is over."))
    analysis = plugin_of(match).analysis(export_record(match))
    if analysis is None:
        return json_error(404, "no_analysis", _("This game has no analysis."))
    return JsonResponse({"ok": True, "match": str(match.pk), "game": match.game, **analysis})
