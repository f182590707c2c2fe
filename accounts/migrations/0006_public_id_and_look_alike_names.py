"""Player pages by a random id, no login names in public, and look-alike display names refused.

Existing rows get a random ``public_id`` and the look-alike key of their name. Staff accounts
whose display name is their login name (``createsuperuser`` left it so) become a neutral
"Player 123456", in their finished games' rows too. Names that already clash are kept (their
key gets the row's id): the rule holds for every name chosen from now on.
"""

import uuid

from django.db import migrations, models
from django.db.models import Q

from accounts.display_names import neutral_name, skeleton


def fill(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Seat = apps.get_model("games", "Seat")
    Score = apps.get_model("games", "Score")
    taken = set()
    for user in User.objects.order_by("pk").iterator():
        user.public_id = uuid.uuid4()
        login_shown = user.display_name in ("", user.username[:30])
        if login_shown and (user.is_staff or user.is_superuser):
            user.display_name = neutral_name(user.public_id)
            user.display_name_key = ""
            Seat.objects.filter(user=user).update(display_name=user.display_name)
            Score.objects.filter(user=user).update(display_name=user.display_name)
        else:
            key = skeleton(user.display_name or user.username)[:240]
            user.display_name_key = key if key not in taken else f"{key}#{user.pk}"
            taken.add(user.display_name_key)
        user.save(update_fields=["public_id", "display_name", "display_name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_options"),
        ("games", "0006_seat_game_over"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_name_key",
            field=models.CharField(default="", editable=False, max_length=255),
        ),
        migrations.AddField(
            model_name="user",
            name="public_id",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="user",
            name="public_id",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                condition=~Q(display_name_key=""),
                fields=("display_name_key",),
                name="user_display_name_lookalike_unique",
            ),
        ),
    ]
