"""``{% tournament_of match %}``: the tournament and round a match was played in, as a
link, on the match, replay and history pages (nothing for an ordinary match)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournaments.models import TournamentGame

register = template.Library()


@register.simple_tag
def tournament_of(match: Any) -> SafeString | str:
    pk = getattr(match, "pk", None)
    if pk is None:
        return ""
    row = (TournamentGame.objects.filter(match_id=pk).select_related("tournament", "round")
           .only("tournament__name", "tournament__id", "round__number").first())
    if row is None:
        return ""
    return format_html(
        '<a class="badge badge--tournament" href="/tournaments/{}/" data-testid="tournament-of">'
        "{}</a>", row.tournament.pk,
        _("%(name)s, round %(n)s") % {"name": row.tournament.name, "n": row.round.number})
