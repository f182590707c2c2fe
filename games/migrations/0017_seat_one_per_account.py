from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0016_seat_on_turn"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                condition=Q(user__isnull=False),
                fields=("game", "user"),
                name="seat_one_per_account",
            ),
        ),
    ]
