from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from . import credentials  # noqa: F401  (its receivers)
from .models import Profile
from .usernames import confusable_key


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """Every user has a profile, which keeps the key of the user's current username."""
    update_fields = kwargs.get("update_fields")
    if not created and update_fields is not None and "username" not in update_fields:
        return  # e.g. last_login on each sign-in
    key = confusable_key(instance.username)
    profile, made = Profile.objects.get_or_create(user=instance,
                                                  defaults={"username_key": key})
    if not made and profile.username_key != key:
        Profile.objects.filter(pk=profile.pk).update(username_key=key)
