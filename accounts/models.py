"""Players: a display name per user, and personal access tokens for API clients."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .usernames import display_name_key


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    is_bot = models.BooleanField(default=False)
    # accounts.usernames.confusable_key(user.username): finds look-alike usernames.
    username_key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    # accounts.usernames.display_name_key(display_name) ("" without one): finds look-alike
    # display names. Kept by save(); a queryset update() of display_name must set it too.
    display_name_key = models.CharField(max_length=64, blank=True, db_index=True,
                                        editable=False)

    def __str__(self) -> str:
        return self.display_name or self.user.username

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.display_name_key = display_name_key(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_name_key"}
        super().save(*args, **kwargs)


def hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class AccessToken(models.Model):
    """A personal access token; only its hash is stored, the raw value is shown once."""

    PREFIX = "sbt_"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="access_tokens")
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    @classmethod
    def issue(cls, user: models.Model, name: str) -> tuple[AccessToken, str]:
        raw = cls.PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(user=user, name=name, digest=hash_token(raw))
        return token, raw


class SignedInSession(models.Model):
    """A browser session a user signed in with: the index that lets a password change,
    an e-mail change, a deactivation or "sign out everywhere" end the user's other
    sessions (the session store itself cannot be searched by user)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="signed_in_sessions")
    session_key = models.CharField(max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
