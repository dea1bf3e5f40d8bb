"""The computer's level accounts (``computer-<game>-<level>``, ``bots/levels.py``): each
level of each game is an account of its own, with its own ratings, made here with an
unusable password and marked as a bot, the same way as the computer's account
(accounts/computer.py); "computer" stays the default level of every game."""

from django.conf import settings
from django.db import migrations


def make_the_level_accounts(apps, schema_editor):
    from accounts.computer import secure_level_accounts

    secure_level_accounts(apps.get_model(*settings.AUTH_USER_MODEL.split(".")),
                          apps.get_model("accounts", "Profile"),
                          apps.get_model("accounts", "AccessToken"))


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_recompute_name_keys"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(make_the_level_accounts, migrations.RunPython.noop),
    ]
