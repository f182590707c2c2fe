"""Count every five of a kind scored as a Yahtzee, wherever it went.

Until now a seat's Yahtzees were read off its card (a 50 in the YAHTZEE box plus the 100-point
bonuses), which missed a five of a kind scored as a Joker, in Chance, over a zeroed YAHTZEE box
or in Triple. The move log has every scoring with its dice: recount from it, for the seats and
for the high-score rows copied from them. Seats without a logged scoring keep their count.
"""

from django.db import migrations


def recount(apps, schema_editor):
    Move = apps.get_model("games", "Move")
    Seat = apps.get_model("games", "Seat")
    Score = apps.get_model("games", "Score")
    counts = {}
    scorings = Move.objects.filter(action="score").values_list("seat_id", "dice").iterator(2000)
    for seat_id, dice in scorings:
        counts.setdefault(seat_id, 0)
        if len(dice) == 5 and len(set(dice)) == 1:
            counts[seat_id] += 1
    for seat_id, yahtzees in counts.items():
        Seat.objects.filter(pk=seat_id).update(yahtzees=yahtzees)
        Score.objects.filter(seat_id=seat_id).update(yahtzees=yahtzees)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_player_kind_and_yahtzees")]

    operations = [migrations.RunPython(recount, migrations.RunPython.noop, elidable=True)]
