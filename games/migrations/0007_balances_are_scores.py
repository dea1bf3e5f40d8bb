from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0006_seats_from_seat0_seat1")]

    operations = [migrations.RenameField("match", "balances", "scores")]
