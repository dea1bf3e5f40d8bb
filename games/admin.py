"""Staff: players' matches (annul with a reason), events, seeks."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Match, MatchEvent, MatchSeat, Seek
from games.play.services import do_annul


class AnnulForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


@admin.action(description=gettext_lazy("Annul the selected matches (no result, no rating)"))
def annul_matches(modeladmin: Any, request: HttpRequest, queryset: Any) -> HttpResponse | None:
    if "apply" in request.POST:
        form = AnnulForm(request.POST)
        if form.is_valid():
            for match in queryset:
                do_annul(match, form.cleaned_data["reason"])
            messages.success(request, _("%(count)d matches annulled; ratings rebuilt.")
                             % {"count": queryset.count()})
            return None
    else:
        form = AnnulForm()
    return render(request, "admin/annul_matches.html",
                  {"form": form, "matches": queryset, "action": "annul_matches",
                   "title": _("Annul matches")})


class MatchSeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = MatchSeat
    extra = 0
    raw_id_fields = ("user",)
    readonly_fields = ("index", "rank", "score")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "game", "seat_names", "rated", "status", "winner", "reason",
                    "created_at")
    list_filter = ("game", "status", "rated", "one_device")
    search_fields = ("match_seats__user__username",)
    readonly_fields = ("state", "version", "scores", "seat_users", "seat_names", "rating_seq",
                       "started_wall")
    raw_id_fields = ("rematch_of",)
    inlines = [MatchSeatInline]
    actions = [annul_matches]


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("match", "seq", "kind", "seat", "t_us")
    list_filter = ("kind",)
    raw_id_fields = ("match",)


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("creator", "opponent", "rated", "status", "created_at")
