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


def _listed_matches(context: Any) -> list[Any]:
    """The matches a page lists (a history page, a profile's recent ones) or shows."""
    found: list[Any] = []
    page = context.get("page")
    found += list(getattr(page, "object_list", []) or [])
    found += list(context.get("recent") or [])
    if context.get("match") is not None:
        found.append(context["match"])
    return found


@register.simple_tag(takes_context=True)
def tournament_of(context: Any, match: Any) -> SafeString | str:
    pk = getattr(match, "pk", None)
    if pk is None:
        return ""
    # One query for every match the page lists, not one per row.
    rows: dict[Any, Any] | None = context.render_context.get("tournament_of")
    if rows is None or pk not in rows:
        ids = {m.pk for m in _listed_matches(context) if getattr(m, "pk", None)} | {pk}
        rows = {row.match_id: row for row in
                TournamentGame.objects.filter(match_id__in=ids)
                .select_related("tournament", "round")
                .only("match_id", "tournament__name", "tournament__id", "round__number")}
        for missing in ids - set(rows):
            rows[missing] = None
        context.render_context["tournament_of"] = rows
    row = rows.get(pk)
    if row is None:
        return ""
    return format_html(
        '<a class="badge badge--tournament" href="/tournaments/{}/" data-testid="tournament-of">'
        "{}</a>", row.tournament.pk,
        _("%(name)s, round %(n)s") % {"name": row.tournament.name, "n": row.round.number})
