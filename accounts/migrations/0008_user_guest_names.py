"""The names of the guests each account played with at its screen, kept on the account.

Filled from the seats of the games each account hosted, latest first, as the dashboard read
them until now.
"""

from django.db import migrations, models

KEPT = 12


def fill(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Seat = apps.get_model("games", "Seat")
    rows = (
        Seat.objects.filter(player_kind="guest")
        .order_by("game__owner_id", "-game_id", "position")
        .values_list("game__owner_id", "display_name")
    )
    names: dict[int, list[str]] = {}
    for owner_id, name in rows.iterator():
        kept = names.setdefault(owner_id, [])
        if name not in kept and len(kept) < KEPT:
            kept.append(name)
    for owner_id, kept in names.items():
        User.objects.filter(pk=owner_id).update(guest_names=kept)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_signups_and_email_confirmation"),
        ("games", "0014_rematch"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="guest_names",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
