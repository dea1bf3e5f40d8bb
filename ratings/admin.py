from django.contrib import admin

from .models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "game", "rating", "games", "wins", "reached_2400")
    search_fields = ("user__username",)
    list_filter = ("game",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("seq", "match", "user", "before", "after")
    raw_id_fields = ("match", "user")
