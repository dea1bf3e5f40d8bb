"""A club's name is unique whatever its case in the database too, not only in Python:
two clubs of one name created at the same moment cannot both be made."""

from django.db import migrations, models
from django.db.models.functions import Lower


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="club",
            constraint=models.UniqueConstraint(Lower("name"), name="club_name_any_case"),
        ),
    ]
