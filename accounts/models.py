"""Players: a display name per user, and personal access tokens for API clients."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile")
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    is_bot = models.BooleanField(default=False)
    # accounts.usernames.confusable_key(user.username): finds look-alike usernames.
    username_key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)

    def __str__(self) -> str:
        return self.display_name or self.user.username


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
