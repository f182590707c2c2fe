"""yahtzee_site.prepared writes rows exactly as Model.save would: the same columns, the same values
(JSON, NULL, dates), and nothing else; and reads rows exactly as the queryset would; on SQLite and
PostgreSQL (make test-postgres)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import F, Q, signals
from django.db.models.expressions import DatabaseDefault
from django.forms.models import model_to_dict
from django.utils import timezone

from games.models import Game, Move, MoveAction, PlayerKind, Seat
from games.tables import services
from yahtzee_site import prepared


def row(model, pk) -> dict:
    return model.objects.filter(pk=pk).values().get()


def test_an_update_writes_the_named_columns_as_save_would(player) -> None:
    ours, django = services.start_game(owner=player), services.start_game(owner=player)
    long_ago = timezone.now() - timedelta(days=3)
    Game.objects.filter(pk__in=[ours.pk, django.pk]).update(updated_at=long_ago, current_seat=0)
    for game in (ours, django):
        game.refresh_from_db()
        game.dice, game.held, game.rolls_used = [6, 6, 2, 6, 1], [True, True, False, True, False], 2
        game.undo = {"seat": 0, "cards": [{"aces": 3}], "box": "aces"}
        game.current_seat = 9  # changed in memory, not named: must not be written

    prepared.send(prepared.update(ours, ["dice", "held", "rolls_used", "undo", "updated_at"]))
    django.save(update_fields=["dice", "held", "rolls_used", "undo", "updated_at"])

    written, expected = row(Game, ours.pk), row(Game, django.pk)
    assert written["dice"] == [6, 6, 2, 6, 1] and written["undo"]["cards"] == [{"aces": 3}]
    assert written["current_seat"] == 0
    assert written["updated_at"] > long_ago  # auto_now, as save() sets it
    ignore = {"id", "updated_at", "created_at"}
    assert {k: v for k, v in written.items() if k not in ignore} == {
        k: v for k, v in expected.items() if k not in ignore
    }


def test_none_in_a_json_column_is_sql_null(player) -> None:
    game = services.start_game(owner=player)
    game.undo = {"seat": 0}
    prepared.send(prepared.update(game, ["undo"]))
    game.undo = None
    prepared.send(prepared.update(game, ["undo"]))

    assert Game.objects.filter(pk=game.pk, undo__isnull=True).exists()


def test_updating_a_row_that_is_gone_is_an_error(player) -> None:
    game = services.start_game(owner=player)
    Game.objects.filter(pk=game.pk).delete()

    with pytest.raises(DatabaseError, match="was not updated"):
        prepared.send(prepared.update(game, ["rolls_used"]))


def test_an_insert_writes_the_row_save_would(player) -> None:
    game = services.start_game(owner=player)
    seat = Seat.objects.get(game=game)
    fields = {
        "game": game,
        "seat": seat,
        "round": 3,
        "action": MoveAction.SCORE,
        "dice": [5, 5, 5, 5, 5],
        "box": "yahtzee",
        "column": 0,
        "points": 50,
        "yahtzee_bonus": 100,
        "joker": True,
    }
    prepared.send(prepared.insert(Move(seq=1, **fields)))
    Move(seq=2, **fields).save()

    ours, django = (Move.objects.get(game=game, seq=seq) for seq in (1, 2))
    ignore = ["id", "seq", "created_at"]
    assert model_to_dict(ours, exclude=ignore) == model_to_dict(django, exclude=ignore)
    assert ours.created_at is not None and ours.by_position is None and ours.held == []


def test_an_update_keeps_a_creation_date_as_it_is_in_memory(player) -> None:
    game = services.start_game(owner=player)
    game.created_at = timezone.now() - timedelta(days=400)  # auto_now_add: set on insert only

    prepared.send(prepared.update(game, ["created_at"]))

    assert row(Game, game.pk)["created_at"] == game.created_at


def test_a_model_that_does_more_on_save_is_refused(player) -> None:
    # User.save() fills in a neutral name and its look-alike key: skipping it would be wrong.
    with pytest.raises(TypeError, match="does more on save"):
        prepared.send(prepared.update(player, ["display_name"]))
    with pytest.raises(TypeError, match="does more on save"):
        prepared.send(prepared.insert(player))


def test_a_save_signal_connected_after_the_sql_was_built_is_still_refused(player) -> None:
    game = services.start_game(owner=player)
    game.refresh_from_db()
    game.rolls_used = 1
    prepared.send(
        prepared.update(game, ["rolls_used"])
    )  # the UPDATE is built and kept for this process

    def note(**kwargs) -> None:
        pass

    signals.post_save.connect(note, sender=Game)  # one signal of the two is enough
    try:
        game.rolls_used = 2
        with pytest.raises(TypeError, match="Game does more on save"):
            prepared.send(prepared.update(game, ["rolls_used"]))
        with pytest.raises(TypeError, match="Game does more on save"):
            prepared.send(prepared.insert(Game(owner=player)))
    finally:
        signals.post_save.disconnect(note, sender=Game)
    assert row(Game, game.pk)["rolls_used"] == 1  # the refused write wrote nothing


def test_a_field_left_to_its_database_default_is_left_to_the_database(player) -> None:
    # Seat.on_turn has db_default=False. A field with no Python default starts as this
    # expression (what Field.get_default gives), which an INSERT naming every column could not
    # send.
    game = services.start_game(owner=player)
    seat = Seat(game=game, position=5, display_name="Ann", player_kind=PlayerKind.GUEST)
    field = Seat._meta.get_field("on_turn")
    seat.on_turn = DatabaseDefault(field._db_default_expression, output_field=field)

    prepared.send(prepared.insert(seat))

    assert Seat.objects.get(game=game, position=5).on_turn is False


def test_an_expression_is_refused_not_written(player) -> None:
    game = services.start_game(owner=player)
    game.refresh_from_db()
    game.rolls_used = F("rolls_used") + 1
    with pytest.raises(TypeError, match="rolls_used holds an expression"):
        prepared.send(prepared.update(game, ["rolls_used"]))
    assert row(Game, game.pk)["rolls_used"] == 0


def test_a_name_that_is_no_column_is_refused(player) -> None:
    game = services.start_game(owner=player)
    with pytest.raises(TypeError, match=r"Game\.seats is not a column"):
        prepared.send(prepared.update(game, ["seats"]))


def test_a_write_in_a_failed_transaction_is_rolled_back_with_it(player) -> None:
    game = services.start_game(owner=player)
    game.refresh_from_db()

    @transaction.atomic
    def roll_then_fail() -> None:
        game.rolls_used = 2
        prepared.send(prepared.update(game, ["rolls_used"]))
        assert Game.objects.get(pk=game.pk).rolls_used == 2  # written where it was made
        raise ValueError("the move went wrong")

    with pytest.raises(ValueError):
        roll_then_fail()
    assert row(Game, game.pk)["rolls_used"] == 0


# --- Reads ---------------------------------------------------------------------------------------


def seats_with_game(user_id: int):
    """A read with JSON, dates, a join and an annotation: what the dashboard reads."""
    return (
        Seat.objects.filter(user_id=user_id)
        .order_by("-game_id")
        .values_list("game_id", "cards", "game__updated_at", "game__finished_at", "position")
    )


def games_of_either(user_id: int):
    return Game.objects.filter(Q(owner_id=user_id) | Q(seats__user_id=user_id)).values_list("id")


def test_a_read_gives_the_rows_the_queryset_gives(make_user, fill_card) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    started = services.start_game(owner=alice)
    fill_card(started, {"aces": 3, "twos": 6})  # JSON with values in it
    services.start_game(owner=alice, guests=["Ann"])
    services.start_game(owner=bob)
    Game.objects.filter(pk=started.pk).update(finished_at=timezone.now())
    for user in (alice, bob, alice):  # the second call of a compiled read takes its own key
        expected = list(seats_with_game(user.pk))
        assert prepared.rows(seats_with_game, user.pk) == expected
        assert prepared.rows(seats_with_game, user.pk, limit=1) == expected[:1]
    found = prepared.rows(seats_with_game, alice.pk)
    assert found[1][1] == [{"aces": 3, "twos": 6}]  # decoded JSON; newest game first
    assert found[1][3] is not None and found[1][3].tzinfo is not None  # an aware datetime
    assert prepared.rows(seats_with_game, alice.pk + bob.pk + 1000) == []


def test_every_use_of_the_key_takes_the_real_one(make_user) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    owned = services.start_game(owner=alice)
    assert prepared.rows(games_of_either, alice.pk) == [(owned.pk,)]
    assert prepared.rows(games_of_either, bob.pk) == []


def no_key(user_id: int):
    return Game.objects.filter(owner_id=1).values_list("id")


def objects_not_values(user_id: int):
    return Game.objects.filter(owner_id=user_id)


def test_a_read_must_be_values_of_its_key(player) -> None:
    with pytest.raises(TypeError, match="its one id must be a parameter"):
        prepared.rows(no_key, player.pk)
    with pytest.raises(TypeError, match="values_list"):
        prepared.rows(objects_not_values, player.pk)


# --- Reads together: one round trip on PostgreSQL ------------------------------------------

ON_POSTGRES = connection.vendor == "postgresql"


def test_reads_together_give_each_read_its_rows(make_user, django_assert_num_queries) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    services.start_game(owner=alice)
    services.start_game(owner=bob, guests=["Ann"])
    expected = [list(seats_with_game(alice.pk)), list(seats_with_game(bob.pk))[:1]]

    with django_assert_num_queries(1 if ON_POSTGRES else 2):
        found = prepared.rows_together(
            (seats_with_game, alice.pk, None), (seats_with_game, bob.pk, 1)
        )

    assert found == expected and found[0] != found[1]


# --- A save's writes sent together: one round trip on PostgreSQL ---------------------------------


def test_writes_sent_together_run_in_order_in_one_round_trip_on_postgresql(
    player, django_assert_num_queries
) -> None:
    game = services.start_game(owner=player)
    seat = game.seats.get()
    game.refresh_from_db()
    game.rolls_used, seat.yahtzees = 2, 1
    move = Move(game=game, seat=seat, seq=7, round=1, action=MoveAction.ROLL, dice=[6] * 5)
    made = [prepared.update(game, ["rolls_used"]), prepared.update(seat, ["yahtzees"])]
    made.append(prepared.insert(move))
    assert row(Game, game.pk)["rolls_used"] == 0  # made, not yet run

    with transaction.atomic(), django_assert_num_queries(1 if ON_POSTGRES else 3):
        prepared.send(*made)

    assert row(Game, game.pk)["rolls_used"] == 2 and row(Seat, seat.pk)["yahtzees"] == 1
    assert Move.objects.filter(game=game, seq=7).exists()


def test_a_row_gone_among_writes_sent_together_raises_at_the_send(player) -> None:
    game = services.start_game(owner=player)
    game.refresh_from_db()
    game.rolls_used = 2
    gone = Game(pk=game.pk + 1000, owner=player)
    made = [prepared.update(game, ["rolls_used"]), prepared.update(gone, ["rolls_used"])]
    with (
        pytest.raises(DatabaseError, match=f"Game {gone.pk} was not updated"),
        transaction.atomic(),
    ):
        prepared.send(*made)
    assert row(Game, game.pk)["rolls_used"] == 0  # the transaction rolled back, nothing written


def test_a_write_the_database_refuses_raises_at_the_send_not_later(player) -> None:
    game = services.start_game(owner=player)
    seat = game.seats.get()
    twice = [
        prepared.insert(Move(game=game, seat=seat, seq=9, round=1, action="roll", dice=[1] * 5))
        for _ in range(2)
    ]
    with pytest.raises(IntegrityError), transaction.atomic():
        prepared.send(*twice)  # the second breaks move_unique_seq
    assert not Move.objects.filter(game=game, seq=9).exists()
