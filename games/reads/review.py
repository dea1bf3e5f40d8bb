"""``GET /api/matches/<id>/review``: the game review of a finished match (docs/api.md).

Public once the match is over, like its record and its analysis. The review is made by
a Celery task after the match ends (``games/play/review.py``); this answers its status
and progress, and the review once done. Reading a review that is missing (a match from
before reviews) or stale asks for it again.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games.models import Match, MatchReview
from games.play import review
from games.web.api import json_error, json_methods


def review_answer(match: Match, row: MatchReview) -> dict[str, Any]:
    """The answer for a review's row: its status, its progress and, once done, the review."""
    answer: dict[str, Any] = {
        "ok": True, "match": str(match.pk), "game": match.game, "players": match.players(),
        "status": row.status, "done": row.done, "total": row.total,
    }
    if row.status == MatchReview.Status.DONE and row.result is not None:
        answer.update(row.result)
    return answer


@json_methods(["GET"])
def match_review(request: HttpRequest, match_id: Any) -> JsonResponse:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return json_error(404, "not_found", _("There is no such match."))
    if match.status == Match.Status.ACTIVE:
        return json_error(409, "running", _("The review is available once the match is over."))
    if not review.reviewable(match):
        return json_error(404, "no_review", _("This match has no review."))
    row = MatchReview.objects.filter(match=match).first()
    if row is None or review.stale(row):
        row = review.request_review(match.pk) or row
    if row is None:
        return json_error(404, "no_review", _("This match has no review."))
    return JsonResponse(review_answer(match, row))
