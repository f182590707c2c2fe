"""A game's match kept in one column, ``Game.state``: the document ``games.rules.codec`` reads
(version 1), made here from the columns it replaces, which then go: the game's turn, draw for
first and undo snapshot, each seat's card and its counts. What stays beside the state is there
to be searched or shown in lists: status, whose turn, the round, the version, each seat's
total, on-turn and over flags.

The document is written out here by hand, as the codec's version 1 has it, and not through the
codec: a migration keeps reading the rows it was written for whatever the codec becomes (a new
version of the codec reads version 1 and comes with a migration of its own). Going back writes
the columns again from the document.
"""

from django.db import migrations, models

NO_HOLD = [False] * 5
KINDS = {"classic", "triple"}


def _turn(dice, held, rolls_used):
    if not dice:
        return [None, list(NO_HOLD), 0]
    return [list(dice), list(held) if len(held) == 5 else list(NO_HOLD), rolls_used]


def state_of(game, seats):
    """The version 1 document the columns of ``game`` and its ``seats`` (in order) keep."""
    host = next(
        (p for p, seat in enumerate(seats) if seat.user_id and seat.user_id == game.owner_id), 0
    )
    phase = {"finished": "finished", "abandoned": "abandoned"}.get(game.status, "playing")
    drawing = phase == "playing" and bool(game.contenders)
    if drawing:
        phase = "rolling_for_first"
    sheets = [[list(seat.cards), seat.yahtzee_bonuses, seat.yahtzees] for seat in seats]
    state = {
        "v": 1,
        "kind": game.kind,
        "sheets": sheets,
        "states": ["resigned" if seat.resigned else "playing" for seat in seats],
        "host": host,
        "phase": phase,
        "first": None if drawing else game.first_seat,
        "current": None if drawing or phase == "finished" else game.current_seat,
        "turn": _turn(game.dice, game.held, game.rolls_used),
        "contenders": list(game.contenders) if drawing else [],
        "first_rolls": [game.first_rolls.get(str(s)) for s in range(len(seats))],
        "players": [
            host if seat.player_kind == "guest"
            else None if seat.player_kind == "computer"
            else position
            for position, seat in enumerate(seats)
        ],  # fmt: skip
        "turn_limit": game.turn_limit,
        "challenge": game.challenge_day is not None,
    }
    kept = game.undo
    if kept and phase == "playing":
        seat = kept["seat"]
        before = dict(state)
        before["sheets"] = [
            [list(kept["cards"]), kept["yahtzee_bonuses"], kept["yahtzees"]] if s == seat else sheet
            for s, sheet in enumerate(sheets)
        ]
        before["current"] = seat
        before["turn"] = _turn(kept["dice"], kept["held"], kept["rolls_used"])
        del before["v"]
        state["undo"] = before
        state["scored"] = [
            seat, kept["column"], kept["box"], kept["points"], list(kept["dice"]), 0, False, 0
        ]
    return state


def _grouped(Seat, game_ids):
    seats = {}
    for seat in Seat.objects.filter(game_id__in=game_ids).order_by("game_id", "position"):
        seats.setdefault(seat.game_id, []).append(seat)
    return seats


def to_state(apps, schema_editor):
    Game, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    playing = Game.objects.exclude(status="waiting").order_by("pk")
    ids = list(playing.values_list("pk", flat=True))
    for start in range(0, len(ids), 2000):
        chunk = ids[start : start + 2000]
        seats = _grouped(Seat, chunk)
        games = list(Game.objects.filter(pk__in=chunk))
        for game in games:
            game.state = state_of(game, seats.get(game.pk, []))
        Game.objects.bulk_update(games, ["state"])


def to_columns(apps, schema_editor):
    Game, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    playing = Game.objects.exclude(state__isnull=True).order_by("pk")
    for game in playing.iterator(chunk_size=2000):
        state = game.state
        dice, held, rolls_used = state["turn"]
        drawing = state["phase"] == "rolling_for_first"
        game.dice, game.rolls_used = dice or [], rolls_used
        game.held = held if dice else []
        game.contenders = state["contenders"]
        game.first_rolls = {str(s): d for s, d in enumerate(state["first_rolls"]) if d is not None}
        game.first_seat = 0 if drawing else (state["first"] or 0)
        game.undo = None
        if "undo" in state:
            before = state["undo"]
            seat, column, box, points = state["scored"][:4]
            cards, bonuses, yahtzees = before["sheets"][seat]
            b_dice, b_held, b_rolls = before["turn"]
            game.undo = {
                "seat": seat, "cards": cards, "yahtzee_bonuses": bonuses, "yahtzees": yahtzees,
                "dice": b_dice or [], "held": b_held if b_dice else [], "rolls_used": b_rolls,
                "column": column, "box": box, "points": points,
            }  # fmt: skip
        game.save(update_fields=[
            "dice", "held", "rolls_used", "contenders", "first_rolls", "first_seat", "undo"
        ])  # fmt: skip
        for position, (cards, bonuses, yahtzees) in enumerate(state["sheets"]):
            Seat.objects.filter(game=game, position=position).update(
                cards=cards, yahtzee_bonuses=bonuses, yahtzees=yahtzees
            )


class Migration(migrations.Migration):
    dependencies = [("games", "0028_daily_board_ranked_by_accuracy")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="state",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.RunPython(to_state, to_columns, elidable=False),
        migrations.RemoveConstraint(model_name="game", name="game_rolls_used_at_most_3"),
        migrations.RemoveField(model_name="game", name="contenders"),
        migrations.RemoveField(model_name="game", name="dice"),
        migrations.RemoveField(model_name="game", name="first_rolls"),
        migrations.RemoveField(model_name="game", name="first_seat"),
        migrations.RemoveField(model_name="game", name="held"),
        migrations.RemoveField(model_name="game", name="rolls_used"),
        migrations.RemoveField(model_name="game", name="undo"),
        migrations.RemoveField(model_name="seat", name="cards"),
        migrations.RemoveField(model_name="seat", name="yahtzee_bonuses"),
        migrations.RemoveField(model_name="seat", name="yahtzees"),
    ]
