from django.contrib import admin

from .models import AccessToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "display_name", "is_bot")
    search_fields = ("user__username", "display_name")


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "name", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("digest",)
