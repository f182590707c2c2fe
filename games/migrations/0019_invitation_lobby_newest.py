from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    """The lobby lists the newest seats first, down to those offered ``LOBBY_SEAT_LIFETIME``
    ago (issue 19, item 5): its partial index is ordered by ``created_at``, newest first,
    instead of by game."""

    dependencies = [
        ("games", "0018_move_upper_bonus"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="invitation",
            name="invitation_lobby",
        ),
        migrations.AddIndex(
            model_name="invitation",
            index=models.Index(
                condition=Q(open_to_all=True, revoked_at__isnull=True, seat__isnull=True),
                fields=["-created_at", "-id"],
                name="invitation_lobby_newest",
            ),
        ),
    ]
