"""Staff: clubs with their members, tournaments with their entries and games."""

from __future__ import annotations

from django.contrib import admin

from .models import Club, Entry, Membership, Round, Tournament, TournamentGame


class UserRowsInline(admin.TabularInline):
    """Rows of one user each, the user picked by id (there are many)."""

    extra = 0
    raw_id_fields = ["user"]


class MembershipInline(UserRowsInline):
    model = Membership


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "policy", "language", "created_by", "created_at"]
    search_fields = ["name"]
    raw_id_fields = ["created_by"]
    inlines = [MembershipInline]


class EntryInline(UserRowsInline):
    model = Entry


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "format", "game", "rated", "status", "paused", "starts_at"]
    list_filter = ["status", "format", "game", "rated"]
    search_fields = ["name", "club__name"]
    raw_id_fields = ["club", "created_by"]
    inlines = [EntryInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "starts_at", "started_at", "finished_at"]
    list_filter = ["status"]
    raw_id_fields = ["tournament"]


@admin.register(TournamentGame)
class TournamentGameAdmin(admin.ModelAdmin):
    list_display = ["tournament", "round", "board", "attempt", "seat0", "seat1", "state",
                    "decision", "halves0", "halves1"]
    list_filter = ["state", "decision"]
    raw_id_fields = ["tournament", "round", "seat0", "seat1", "match"]
