"""Existing users get their username's look-alike key (after 0002 added the column and its
index: a data change and an index in one PostgreSQL transaction cannot mix)."""

from django.conf import settings
from django.db import migrations


def fill_keys(apps, schema_editor):
    """Existing users: a profile each (if one was missing) with its username's key."""
    from accounts.usernames import confusable_key

    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile = apps.get_model("accounts", "Profile")
    for user_id, username in User.objects.values_list("pk", "username").iterator():
        key = confusable_key(username)
        updated = Profile.objects.filter(user_id=user_id).update(username_key=key)
        if not updated:
            Profile.objects.create(user_id=user_id, username_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_profile_username_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(fill_keys, migrations.RunPython.noop)]
