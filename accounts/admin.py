from typing import Any

from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model

from .models import AccessToken, Profile
from .usernames import validate_username


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "display_name", "is_bot")
    search_fields = ("user__username", "display_name")


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "name", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("digest",)


# Usernames set in the admin are held to the sign-up rule: no look-alikes of another's.

class UserCreationForm(auth_forms.AdminUserCreationForm):
    def clean_username(self) -> Any:
        username = super().clean_username()
        validate_username(username)
        return username


class UserChangeForm(auth_forms.UserChangeForm):  # type: ignore[type-arg]
    def clean_username(self) -> Any:
        username = self.cleaned_data["username"]
        if "username" in self.changed_data:
            validate_username(username, exclude_user_id=self.instance.pk)
        return username


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class UserAdmin(auth_admin.UserAdmin):  # type: ignore[type-arg]
    form = UserChangeForm
    add_form = UserCreationForm
