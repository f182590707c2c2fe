"""What the mutation run (``make mutation``) found the other store and replay tests leave open:
the rows a draw for first and an undo in a later column leave, and a row that lost its roll
number."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import connection, transaction
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext

from games import rules, seating, store
from games.models import Game, GameStatus, Move, MoveAction, PlayerKind, Seat
from games.moves import ReplayMismatch
from games.play import actions as play
from games.play import live
from games.store import replay
from games.tables import services
from tests.factories import (
    ScriptedDice,
    fill_card,
    make_user,
    match_of,
    put_sheet,
    roll_now,
    score_now,
    sheet_of,
)


def test_the_throws_for_first_are_rows_of_round_zero(player) -> None:
    bob = make_user("bob")
    game = services.open_game(owner=player, invites=1, roll_for_first=True)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    play.throw_for_first(game_id=game.pk, user=player, dice_source=ScriptedDice(6, 6, 6, 6, 6))
    play.throw_for_first(game_id=game.pk, user=bob, dice_source=ScriptedDice(1, 1, 1, 1, 1))

    firsts = Move.objects.filter(game=game, action=MoveAction.FIRST).order_by("seq")
    assert [(m.round, m.dice) for m in firsts] == [(0, [6] * 5), (0, [1] * 5)]
    assert replay(game).first == 0


def test_an_undo_in_a_later_column_replays(player) -> None:
    game = services.start_game(owner=player, kind=rules.TRIPLE.key)
    roll_now(game, player, 5, 5, 5, 2, 2)
    score_now(game, player, "full_house", column=2)
    game.refresh_from_db()
    play.undo_score(game_id=game.pk, user=player, version=game.version)

    undo = Move.objects.get(game=game, action=MoveAction.UNDO)
    assert (undo.column, undo.box, undo.points) == (2, "full_house", 25)
    assert replay(game).sheets[0].cards == ({}, {}, {})


def test_a_roll_row_that_lost_its_roll_number_does_not_replay(player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 3, 3, 3, 2, 2)
    Move.objects.filter(game=game, action=MoveAction.ROLL).update(roll_number=None)

    with pytest.raises(
        ReplayMismatch, match=r"^Move 1 \(roll\): The log says Rolled\(.*roll_number=0\)"
    ):
        replay(game)


def test_a_loaded_game_is_shown_without_its_match(player) -> None:
    game = services.start_game(owner=player)
    table = store.load(game_id=game.pk, user=player)
    assert table.loaded is not None and "loaded=" not in repr(table)


def test_a_load_locks_the_game_row_only_when_asked(player, monkeypatch) -> None:
    game = services.start_game(owner=player)
    locked: list[tuple[str, ...]] = []
    real = QuerySet.select_for_update

    def recorded(self, *args, **kwargs):
        locked.append(kwargs.get("of", ()))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(QuerySet, "select_for_update", recorded)
    assert store.load(game_id=game.pk, user=player).game == game
    assert locked == []  # a page's read locks nothing
    with transaction.atomic():
        store.load(game_id=game.pk, user=player, lock=True)
    assert locked == [("game",)]  # the game's row alone, not its seats


def _seat(position: int, user_id: int | None, kind: str = PlayerKind.HUMAN) -> Seat:
    return Seat(position=position, user_id=user_id, player_kind=kind)


def test_the_host_is_the_owners_seat_wherever_it_is_and_seat_0_when_they_have_none() -> None:
    game = Game(owner_id=7, kind=rules.CLASSIC.key)
    seats = [_seat(0, 3), _seat(1, 7), _seat(2, None, PlayerKind.GUEST)]
    assert store.setup(game, seats).host == 1
    assert store.setup(game, seats).players == (0, 1, 1)
    assert store.setup(game, [_seat(0, 3), _seat(1, 4), _seat(2, 5)]).host == 0


def test_who_went_first_is_kept_through_every_later_move(player) -> None:
    bob = make_user("bob")
    game = services.open_game(owner=player, invites=1, roll_for_first=True)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    play.throw_for_first(game_id=game.pk, user=player, dice_source=ScriptedDice(1, 1, 1, 1, 1))
    play.throw_for_first(game_id=game.pk, user=bob, dice_source=ScriptedDice(6, 6, 6, 6, 6))
    roll_now(game, bob, 1, 2, 3, 4, 5)

    game.refresh_from_db()
    assert (match_of(game).first, game.current_seat) == (1, 1)
    assert store.load(game_id=game.pk, user=player).match().order == (1, 0)


def test_a_finished_game_loads_with_nobody_on_turn(player) -> None:
    game = services.start_game(owner=player)
    fill_card(game, {box: 0 for box in rules.CATEGORIES if box != "chance"})
    roll_now(game, player, 6, 6, 5, 5, 4)
    score_now(game, player, "chance")

    match = store.load(game_id=game.pk, user=player).match()
    assert (match.phase, match.current, match.round) == (rules.MatchPhase.FINISHED, None, 13)
    seat = Seat.objects.get(game=game)
    assert (seat.game_over, seat.on_turn, seat.grand_total) == (True, False, 6 + 6 + 5 + 5 + 4)


def test_the_dice_held_through_a_roll_load_as_held(player) -> None:
    game = services.start_game(owner=player)
    roll_now(game, player, 1, 2, 3, 4, 5)
    roll_now(game, player, 6, 6, 6, held=[True, True, False, False, False])

    turn = store.load(game_id=game.pk, user=player).match().turn
    assert (turn.dice, turn.held, turn.rolls_used) == (
        (1, 2, 6, 6, 6),
        (True, True, False, False, False),
        2,
    )


def test_an_undo_after_a_reload_gives_back_the_card_the_bonus_the_dice_and_the_turn(player) -> None:
    game = services.start_game(owner=player, guests=["Ann"])
    put_sheet(game, [{"yahtzee": 50}], position=0, yahtzee_bonuses=1)
    assert sheet_of(game, 0).yahtzees == 2  # the 50 and the bonus
    roll_now(game, player, 6, 1, 6, 1, 6)
    roll_now(game, player, 6, 6, held=[True, False, True, False, True])
    score_now(game, player, "sixes")
    game.refresh_from_db()
    assert game.current_seat == 1  # Ann's turn, at Alice's screen
    play.undo_score(game_id=game.pk, user=player, version=game.version)

    sheet = sheet_of(game, 0)
    assert (sheet.cards, sheet.yahtzee_bonuses, sheet.yahtzees) == (({"yahtzee": 50},), 1, 2)
    match = store.load(game_id=game.pk, user=player).match()
    assert (match.current, match.turn) == (
        0,
        rules.Turn(dice=(6,) * 5, held=(True, False, True, False, True), rolls_used=2),
    )
    assert Move.objects.get(game=game, action=MoveAction.UNDO).points == 30


def test_only_a_game_that_ends_gets_a_finishing_time(player) -> None:
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=game.invitations.get().token, user=make_user("bob"))
    services.begin_game(game_id=game.pk, user=player)
    roll_now(game, player, 1, 2, 3, 4, 5)
    game.refresh_from_db()
    assert (game.status, game.finished_at) == (GameStatus.IN_PROGRESS, None)


def test_every_move_shown_tells_the_games_open_pages_once(player, monkeypatch) -> None:
    game = services.start_game(owner=player)
    told: list[tuple[int, bool]] = []
    monkeypatch.setattr(live, "publish", lambda game, rolled=False: told.append((game.pk, rolled)))
    roll_now(game, player, 1, 2, 3, 4, 5)
    assert told == [(game.pk, True)]  # and that it was a roll: the others' dice roll too


def test_a_seat_taken_before_the_start_moves_the_version_on_by_one(player) -> None:
    game = services.open_game(owner=player, invites=1)
    before = Game.objects.get(pk=game.pk).version
    services.join_game(token=game.invitations.get().token, user=make_user("bob"))
    assert Game.objects.get(pk=game.pk).version == before + 1


def test_closing_a_waiting_game_ends_its_seats_and_no_others(player) -> None:
    other = services.open_game(owner=player, invites=1)
    game = services.open_game(owner=player, invites=1)
    table = seating.close_waiting(store.load(game_id=game.pk, user=player))

    assert [seat.game_over for seat in table.seats] == [True]
    assert list(Seat.objects.filter(game=game).values_list("game_over", flat=True)) == [True]
    assert list(Seat.objects.filter(game=other).values_list("game_over", flat=True)) == [False]


def test_a_hint_is_counted_on_the_seat_shown_it_alone(player, strategy_ready) -> None:
    other = services.start_game(owner=player)
    game = services.start_game(owner=player, guests=["Ann"])
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "chance")
    roll_now(game, player, 6, 6, 6, 2, 2)  # Ann's turn, at the host's screen
    version = Game.objects.get(pk=game.pk).version

    for _ in range(2):
        table, _ = play.take_hint(game_id=game.pk, user=player, version=version)

    assert [seat.hints for seat in table.seats] == [0, 2]
    assert list(
        Seat.objects.filter(game=game).order_by("position").values_list("hints", flat=True)
    ) == [0, 2]
    assert Seat.objects.get(game=other).hints == 0
    assert Game.objects.get(pk=game.pk).version == version  # a hint moves nothing on


def test_a_change_before_the_start_tells_every_open_page(player, monkeypatch) -> None:
    game = services.open_game(owner=player, invites=1)
    told: list[tuple[int, int]] = []
    monkeypatch.setattr(live, "publish", lambda game: told.append((game.pk, game.version)))
    services.join_game(token=game.invitations.get().token, user=make_user("bob"))
    assert told == [(game.pk, Game.objects.get(pk=game.pk).version)]


def test_closing_a_waiting_game_moves_its_version_on_and_tells_its_pages(
    player, monkeypatch
) -> None:
    game = services.open_game(owner=player, invites=1)
    before = Game.objects.get(pk=game.pk).version
    told: list[int] = []
    monkeypatch.setattr(live, "publish", lambda game: told.append(game.version))
    services.close(store.load(game_id=game.pk, user=player))

    stored = Game.objects.get(pk=game.pk)
    assert (stored.status, stored.version, told) == (GameStatus.ABANDONED, before + 1, [before + 1])
    assert stored.finished_at is not None


def test_a_loaded_table_cannot_be_changed_in_place(player) -> None:
    game = services.start_game(owner=player)
    table = store.load(game_id=game.pk, user=player)
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.actor = 0  # type: ignore[misc]


def _updates(ran: list[dict[str, str]], table: str) -> list[str]:
    """The SET clauses of the UPDATEs of ``table`` among the queries ``ran``."""
    found = []
    for query in ran:
        sql = query["sql"]
        if sql.startswith(f'UPDATE "{table}"'):
            found.append(sql.split(" SET ", 1)[1].split(" WHERE ", 1)[0])
    return found


def test_a_move_writes_only_what_it_changed_of_the_game_and_of_the_seats_whose_flags_turn(
    player, make_user
) -> None:
    bob = make_user("bob")
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    roll_now(game, player, 3, 3, 3, 2, 2)
    Seat.objects.filter(game=game, position=1).update(coach_note={"kept": "by another writer"})

    with CaptureQueriesContext(connection) as ran:
        score_now(game, player, "full_house")  # the turn passes to Bob

    games = _updates(ran.captured_queries, "games_game")
    assert len(games) == 1 and '"state"' in games[0] and '"version"' in games[0]
    assert '"owner_id"' not in games[0] and '"rematch_id"' not in games[0]
    seats = _updates(ran.captured_queries, "games_seat")
    assert len(seats) == 2 and all(s.startswith('"on_turn" = ') and "," not in s for s in seats)
    assert Seat.objects.get(game=game, position=1).coach_note == {"kept": "by another writer"}
