from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_table_tournaments'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='duration_m',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='entry',
            name='paused',
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='format',
            field=models.CharField(choices=[('round_robin', 'round robin'), ('swiss', 'Swiss'), ('knockout', 'knockout'), ('tables', 'tables'), ('arena', 'arena')], max_length=12),
        ),
    ]
