"""The game services: each action is checked, applied in one transaction, and logged."""

from __future__ import annotations

import contextlib

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rules, store
from games.errors import GameError, GameNotFound, StaleGame
from games.models import Game, GameStatus, Move, MoveAction
from games.play import actions as play
from games.tables import services
from games.tables.selectors import games_of
from tests.factories import ScriptedDice, cards_of, match_of, sheet_of


def test_start_game_seats_the_owner_with_an_empty_card(player):
    game = services.start_game(owner=player)

    seat = game.seats.get()
    assert (game.kind, game.status, game.round, game.version) == ("classic", "in_progress", 1, 0)
    assert (seat.user, seat.display_name, cards_of(game)) == (player, "Alice", [{}])


def test_a_game_started_at_once_is_written_as_its_match_begins_each_row_once(player):
    with CaptureQueriesContext(connection) as ran:
        game = services.start_game(owner=player, guests=["Ann"], computers=["beginner"])

    sql = [q["sql"].split(" (")[0] for q in ran]
    writes = [w for w in sql if w.startswith(("INSERT", "UPDATE")) and '"games_' in w]
    assert writes == ['INSERT INTO "games_game"', 'INSERT INTO "games_seat"']
    assert [(s.display_name, s.on_turn) for s in game.seats.order_by("position")] == [
        ("Alice", True),  # the dashboard's "your move": the host's, first to play
        ("Ann", False),
        ("Computer (Beginner)", False),
    ]


def test_first_roll_throws_all_five_dice_and_is_logged(game, roll):
    table = roll(game, 3, 1, 4, 1, 5)

    game.refresh_from_db()
    assert match_of(game).turn.dice == (3, 1, 4, 1, 5)
    assert match_of(game).turn.rolls_used == 1
    assert game.version == 1
    move = Move.objects.get(game=game)
    assert (move.action, move.dice, move.roll_number, move.seq) == (
        MoveAction.ROLL,
        [3, 1, 4, 1, 5],
        1,
        1,
    )
    assert table.game.version == 1


def test_held_dice_stay_and_only_the_others_are_thrown(game, roll, player):
    roll(game, 6, 6, 2, 3, 6)
    game.refresh_from_db()
    dice = ScriptedDice(6, 6)

    play.roll_dice(
        game_id=game.pk,
        user=player,
        version=game.version,
        held=[True, True, False, False, True],
        dice_source=dice,
    )

    turn = match_of(game).turn
    assert turn.dice == (6, 6, 6, 6, 6)
    assert dice.asked == [2]
    assert turn.held == (True, True, False, False, True)


def test_set_held_persists_for_a_resumed_game(game, roll, player):
    roll(game, 1, 2, 3, 4, 5)
    game.refresh_from_db()

    play.set_held(
        game_id=game.pk, user=player, version=game.version, held=[False, True, True, False, False]
    )

    game.refresh_from_db()
    assert match_of(game).turn.held == (False, True, True, False, False)
    assert game.version == 2


def test_a_fourth_roll_is_refused_and_changes_nothing(game, roll):
    for _ in range(3):
        roll(game, 1, 2, 3, 4, 6)
    game.refresh_from_db()
    before = (match_of(game).turn, game.version, Move.objects.count())
    assert before[0] == rules.Turn(dice=(1, 2, 3, 4, 6), held=rules.NO_HOLD, rolls_used=3)

    with pytest.raises(rules.NoRollsLeft):
        roll(game, 5, 5, 5, 5, 5)

    game.refresh_from_db()
    assert (match_of(game).turn, game.version, Move.objects.count()) == before


def test_a_stale_version_is_refused(game, roll, player):
    roll(game, 1, 2, 3, 4, 6)

    with pytest.raises(StaleGame):
        play.roll_dice(
            game_id=game.pk, user=player, version=0, dice_source=ScriptedDice(1, 1, 1, 1, 1)
        )

    assert match_of(game).turn.rolls_used == 1


def test_someone_not_seated_cannot_see_or_act_on_the_game(game, make_user):
    stranger = make_user("mallory")

    with pytest.raises(GameNotFound):
        store.load(game_id=game.pk, user=stranger)
    with pytest.raises(GameNotFound):
        play.roll_dice(game_id=game.pk, user=stranger, version=0)
    with pytest.raises(GameNotFound):
        play.abandon_game(game_id=game.pk, user=stranger)
    assert Game.objects.get(pk=game.pk).status == GameStatus.IN_PROGRESS


def test_a_seated_player_must_wait_for_their_turn(player, make_user):
    bob = make_user("bob", display_name="Bob")
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    game.refresh_from_db()

    with pytest.raises(rules.OutOfTurn, match=r"^It is not your turn\.$"):
        play.roll_dice(game_id=game.pk, user=bob, version=game.version)


def test_scoring_fills_the_box_ends_the_turn_and_logs_it(game, roll, player):
    roll(game, 3, 3, 3, 2, 2)
    game.refresh_from_db()

    play.score_box(game_id=game.pk, user=player, version=game.version, box="full_house")

    game.refresh_from_db()
    assert cards_of(game) == [{"full_house": 25}]
    assert (match_of(game).turn, game.round) == (rules.Turn(), 2)
    move = Move.objects.filter(action=MoveAction.SCORE).get()
    assert (move.box, move.points, move.round, move.dice) == ("full_house", 25, 1, [3, 3, 3, 2, 2])


def test_scoring_a_filled_box_is_refused(game, roll, player):
    roll(game, 3, 3, 3, 2, 2)
    game.refresh_from_db()
    play.score_box(game_id=game.pk, user=player, version=game.version, box="threes")
    roll(game, 3, 3, 1, 2, 2)
    game.refresh_from_db()

    with pytest.raises(rules.BoxFilled):
        play.score_box(game_id=game.pk, user=player, version=game.version, box="threes")

    assert cards_of(game) == [{"threes": 9}]


def test_a_yahtzee_bonus_is_kept_with_the_seat(game, roll, player, fill_card):
    fill_card(game, {"yahtzee": 50})
    roll(game, 4, 4, 4, 4, 4)
    game.refresh_from_db()

    play.score_box(game_id=game.pk, user=player, version=game.version, box="fours")

    assert sheet_of(game).yahtzee_bonuses == 1
    assert Move.objects.get(action=MoveAction.SCORE).yahtzee_bonus == 100


def test_the_thirteenth_scoring_finishes_the_game_with_its_grand_total(
    game, roll, player, fill_card
):
    card = {box: 0 for box in rules.CATEGORIES if box != "chance"}
    card |= {"sixes": 24, "fives": 20, "fours": 16, "threes": 3}  # upper 63: bonus
    fill_card(game, card)
    roll(game, 6, 6, 5, 5, 4)
    game.refresh_from_db()

    play.score_box(game_id=game.pk, user=player, version=game.version, box="chance")

    game.refresh_from_db()
    seat = game.seats.get()
    assert game.status == GameStatus.FINISHED
    assert game.finished_at is not None
    assert seat.grand_total == 63 + 35 + 26
    with pytest.raises(rules.MatchOver, match=r"^The game is over\.$"):
        play.roll_dice(game_id=game.pk, user=player, version=game.version)


def test_abandoning_ends_the_game_without_a_score(game, player):
    play.abandon_game(game_id=game.pk, user=player)

    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    assert game.seats.get().grand_total is None
    with pytest.raises(rules.MatchOver, match=r"^The game was ended\.$"):
        play.abandon_game(game_id=game.pk, user=player)


def test_games_of_lists_only_the_games_a_user_sits_in(game, player, make_user):
    other = make_user("bob")
    services.start_game(owner=other)

    assert list(games_of(player)) == [game]


def test_the_game_is_read_with_its_seats_only_by_a_player_seated_there(player, make_user):
    game = services.start_game(owner=player, guests=["Ann", "Ben"])

    seated = store.load(game_id=game.pk, user=player)

    assert [seat.display_name for seat in seated.seats] == ["Alice", "Ann", "Ben"]
    assert all(seat.game is seated.game for seat in seated.seats)  # one Game object for all
    with pytest.raises(GameNotFound):
        store.load(game_id=game.pk, user=make_user("mallory"))
    with pytest.raises(GameNotFound):
        store.load(game_id=game.pk + 1000, user=player)


def test_a_write_reads_the_game_locked(player):
    game = services.start_game(owner=player)

    def reads(*, lock: bool) -> list[str]:
        with transaction.atomic(), CaptureQueriesContext(connection) as done:
            store.load(game_id=game.pk, user=player, lock=lock)
        return [q["sql"] for q in done.captured_queries if q["sql"].startswith("SELECT")]

    (locked,), (unlocked,) = reads(lock=True), reads(lock=False)  # one read: seats and game
    if connection.features.has_select_for_update_of:
        assert locked.rstrip().endswith('FOR UPDATE OF "games_game"')
    assert "FOR UPDATE" not in unlocked


EVERY_ACTION = {
    "hold": lambda g, u: play.set_held(game_id=g, user=u, version=1, held=[True] * 5),
    "roll": lambda g, u: play.roll_dice(game_id=g, user=u, version=1),
    "score": lambda g, u: play.score_box(game_id=g, user=u, version=1, box="chance"),
    "undo": lambda g, u: play.undo_score(game_id=g, user=u, version=1),
    "hint": lambda g, u: play.take_hint(game_id=g, user=u, version=1),
    "first": lambda g, u: play.throw_for_first(game_id=g, user=u),
    "computer": lambda g, u: play.play_computer(game_id=g, user=u, version=1),
    "resign": lambda g, u: play.resign(game_id=g, user=u, version=1),
    "skip": lambda g, u: play.skip_turn(game_id=g, user=u, version=1),
    "abandon": lambda g, u: play.abandon_game(game_id=g, user=u),
}


@pytest.mark.parametrize("name", EVERY_ACTION)
def test_every_action_loads_its_game_locked(player, monkeypatch, name):
    # The SQL of the locked read is checked above; this checks that every door asks for it.
    game = services.start_game(owner=player, guests=["Ann"])
    asked: list[bool] = []
    real_load = store.load

    def load(**kwargs):
        asked.append(kwargs.get("lock", False))
        return real_load(**kwargs)

    monkeypatch.setattr(store, "load", load)
    with contextlib.suppress(GameError, rules.IllegalMove):  # a refusal: the load came first
        EVERY_ACTION[name](game.pk, player)
    assert asked and all(asked), f"{name} read the game without locking it: {asked}"
