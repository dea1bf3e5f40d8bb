"""Staff: players' matches (annul with a reason), events, seeks."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import Match, MatchEvent, Seek
from .services import do_annul


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


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "seat0", "seat1", "rated", "status", "winner", "reason", "created_at")
    list_filter = ("status", "rated", "one_device")
    search_fields = ("seat0__username", "seat1__username")
    readonly_fields = ("state", "version", "balances", "rating_seq", "started_wall")
    raw_id_fields = ("seat0", "seat1", "rematch_of")
    actions = [annul_matches]


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("match", "seq", "kind", "seat", "t_us")
    list_filter = ("kind",)
    raw_id_fields = ("match",)


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("creator", "opponent", "rated", "status", "created_at")
