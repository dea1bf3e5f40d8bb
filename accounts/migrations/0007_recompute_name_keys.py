"""The look-alike keys again for every profile: the skeleton now folds a capital I and an
l together whatever the case (accounts/usernames.py), so "SPRINTER" and "sprinter" share a
key; keys made before would miss such pairs."""

from django.conf import settings
from django.db import migrations


def recompute_keys(apps, schema_editor):
    from accounts.usernames import confusable_key, display_name_key

    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile = apps.get_model("accounts", "Profile")
    names = dict(User.objects.values_list("pk", "username"))
    for pk, user_id, display_name in Profile.objects.values_list(
            "pk", "user_id", "display_name").iterator():
        Profile.objects.filter(pk=pk).update(
            username_key=confusable_key(names.get(user_id, "")),
            display_name_key=display_name_key(display_name))


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0006_fill_display_name_keys_and_computer"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(recompute_keys, migrations.RunPython.noop)]
