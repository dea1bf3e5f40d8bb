"""Existing profiles get their display name's look-alike key (after 0005 added the column
and its index: a data change and an index in one PostgreSQL transaction cannot mix), and
the computer's account is made here, with an unusable password, before anyone can sign up
as it.

A person who had signed up as "computer" (any case) before this keeps the account, renamed
``computer-taken-<id>`` and no longer marked as a bot; the computer gets an account of its
own (accounts/computer.py).
"""

from django.conf import settings
from django.db import migrations


def fill_display_name_keys(apps, schema_editor):
    from accounts.usernames import display_name_key

    Profile = apps.get_model("accounts", "Profile")
    rows = Profile.objects.exclude(display_name="").values_list("pk", "display_name")
    for pk, display_name in rows.iterator():
        Profile.objects.filter(pk=pk).update(display_name_key=display_name_key(display_name))


def make_the_computer(apps, schema_editor):
    from accounts.computer import secure_computer_account

    secure_computer_account(apps.get_model(*settings.AUTH_USER_MODEL.split(".")),
                            apps.get_model("accounts", "Profile"),
                            apps.get_model("accounts", "AccessToken"))


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_profile_display_name_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(fill_display_name_keys, migrations.RunPython.noop),
        migrations.RunPython(make_the_computer, migrations.RunPython.noop),
    ]
