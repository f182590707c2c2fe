from django.db import migrations, models

UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")
THRESHOLD, BONUS = 63, 35


def fill_upper_bonuses(apps, schema_editor):
    """Each logged scoring gets the upper bonus it earned, worked out from the log as the rules
    do: the scoring that brings its column's upper boxes to 63 earns it. An undo takes back the
    seat's last scoring from the card (the row of that scoring keeps what it earned then)."""
    Move = apps.get_model("games", "Move")
    earned = []
    game_ids = Move.objects.filter(action="score", box__in=UPPER).values_list("game_id", flat=True)
    for game_id in set(game_ids):
        cards: dict[tuple[int, int], dict[str, int]] = {}
        scored: dict[int, list[tuple[int, str]]] = {}
        for move in Move.objects.filter(game_id=game_id).order_by("seq"):
            if move.action == "score":
                card = cards.setdefault((move.seat_id, move.column or 0), {})
                before = sum(card.get(box, 0) for box in UPPER)
                card[move.box] = move.points or 0
                after = sum(card.get(box, 0) for box in UPPER)
                scored.setdefault(move.seat_id, []).append((move.column or 0, move.box))
                if move.box in UPPER and before < THRESHOLD <= after:
                    earned.append(move.pk)
            elif move.action == "undo" and scored.get(move.seat_id):
                column, box = scored[move.seat_id].pop()
                cards[(move.seat_id, column)].pop(box, None)  # the scoring's row keeps its bonus
            elif move.action == "skip" and move.box:
                cards.setdefault((move.seat_id, move.column or 0), {})[move.box] = 0
    Move.objects.filter(pk__in=earned).update(upper_bonus=BONUS)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0017_seat_one_per_account"),
    ]

    operations = [
        migrations.AddField(
            model_name="move",
            name="upper_bonus",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(fill_upper_bonuses, migrations.RunPython.noop, elidable=True),
    ]
