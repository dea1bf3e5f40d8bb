from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model

from .models import AccessToken, Profile
from .usernames import clean_display_name, validate_username


class ProfileForm(forms.ModelForm):  # type: ignore[type-arg]
    """Display names set in the admin are held to the account page's rules; the platform's
    own accounts (bots) may keep the names reserved for it."""

    def clean_display_name(self) -> str:
        name = str(self.cleaned_data["display_name"])
        if "display_name" not in self.changed_data:
            return name
        return clean_display_name(name, user_id=self.instance.user_id,
                                  allow_reserved=self.instance.is_bot)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = ProfileForm
    list_display = ("user", "display_name", "is_bot")
    search_fields = ("user__username", "display_name")


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "name", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("digest",)


# Usernames set in the admin are held to the sign-up rules: no look-alikes of another's
# username or display name, no invisible characters, none of the names reserved for the
# platform (which its own accounts, the bots, may keep).

class UserCreationForm(auth_forms.AdminUserCreationForm):
    def clean_username(self) -> Any:
        username = super().clean_username()
        validate_username(username)
        return username


class UserChangeForm(auth_forms.UserChangeForm):  # type: ignore[type-arg]
    def clean_username(self) -> Any:
        username = self.cleaned_data["username"]
        if "username" in self.changed_data:
            validate_username(username, exclude_user_id=self.instance.pk,
                              allow_reserved=_is_bot(self.instance))
        return username


def _is_bot(user: Any) -> bool:
    return bool(Profile.objects.filter(user_id=user.pk, is_bot=True).exists())


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class UserAdmin(auth_admin.UserAdmin):  # type: ignore[type-arg]
    form = UserChangeForm
    add_form = UserCreationForm
