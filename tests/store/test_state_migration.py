"""Migration 0029 on a database with games in every stage: each game's match moves into its one
``state`` column and comes out as it was, and every stored game's log replays to it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games import rules, store
from games.models import Game, GameStatus
from games.play import actions as play
from games.rules import codec
from games.tables import services
from tests.factories import make_user, play_out, roll_now, score_now

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0028_daily_board_ranked_by_accuracy")]
AFTER = [("games", "0029_game_state")]


def migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to ``targets``; the models as they are there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor = MigrationExecutor(connection)
    return executor.loader.project_state(targets).apps


def comparable(state: dict[str, Any] | None) -> dict[str, Any] | None:
    """``state`` with what the columns before never kept left out: the details of the scoring
    an undo takes back beyond its seat, box and points (its Yahtzee bonus, Joker and upper
    bonus, which no rule reads again: an undo restores the card kept whole)."""
    if state is None or "scored" not in state:
        return state
    return state | {"scored": state["scored"][:5]}


def games_in_every_stage() -> list[Game]:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    made = []

    rolling = services.start_game(owner=alice)  # held dice, a roll left
    roll_now(rolling, alice, 6, 6, 2, 3, 6)
    roll_now(rolling, alice, 6, 1, held=[True, True, False, False, True])
    made.append(rolling)

    undoable = services.start_game(owner=alice, guests=["Ann"])  # a box that may be taken back
    roll_now(undoable, alice, 2, 2, 2, 5, 5)
    score_now(undoable, alice, "full_house")
    made.append(undoable)

    triple = services.start_game(owner=bob, kind="triple", computers=["beginner"])
    made.append(play_out(triple, bob, until=lambda match: match.round == 9))

    drawing = services.open_game(owner=alice, invites=2, roll_for_first=True)  # the draw
    for user in (bob, carol):
        services.join_game(token=drawing.invitations.filter(seat=None).first().token, user=user)
    services.begin_game(game_id=drawing.pk, user=alice)
    play.throw_for_first(game_id=drawing.pk, user=bob, dice_source=lambda n: (6, 6, 6, 1, 1)[:n])
    made.append(drawing)

    resigned = services.open_game(owner=carol, invites=1)
    services.join_game(token=resigned.invitations.get().token, user=bob)
    services.begin_game(game_id=resigned.pk, user=carol)
    roll_now(resigned, carol, 1, 2, 3, 4, 5)
    score_now(resigned, carol, "large_straight")
    resigned.refresh_from_db()
    play.resign(game_id=resigned.pk, user=bob, version=resigned.version)
    made.append(resigned)

    made.append(play_out(services.start_game(owner=carol, computers=["perfect"]), carol).game)
    abandoned = services.start_game(owner=bob)
    roll_now(abandoned, bob, 1, 1, 1, 1, 1)
    play.abandon_game(game_id=abandoned.pk, user=bob)
    made.append(abandoned)
    made.append(services.open_game(owner=bob, invites=1))  # waiting: no match yet
    return [Game.objects.get(pk=getattr(g, "pk", None) or g.game.pk) for g in made]


def test_every_game_keeps_its_match_through_the_columns_and_back_and_replays_to_it() -> None:
    games = games_in_every_stage()
    kept = {game.pk: game.state for game in games}
    statuses = {game.status for game in games}
    assert statuses == {"in_progress", "finished", "abandoned", "waiting"}
    phases = {store.match_of(g).phase for g in games if g.state is not None}
    assert rules.MatchPhase.ROLLING_FOR_FIRST in phases
    assert any(store.match_of(g).undo is not None for g in games if g.state is not None)
    try:
        old = migrate(BEFORE)
        OldGame, OldSeat = old.get_model("games", "Game"), old.get_model("games", "Seat")
        rolled = OldGame.objects.get(pk=games[0].pk)
        assert (rolled.dice, rolled.held, rolled.rolls_used) == (
            [6, 6, 6, 1, 6], [True, True, False, False, True], 2
        )  # fmt: skip
        assert OldSeat.objects.get(game_id=games[1].pk, position=0).cards == [{"full_house": 25}]
        assert OldGame.objects.get(pk=games[1].pk).undo["box"] == "full_house"
        migrate(AFTER)
    finally:
        migrate([("games", leaf())])

    for game in Game.objects.filter(pk__in=kept).order_by("pk"):
        assert comparable(game.state) == comparable(kept[game.pk]), game
        if game.status == GameStatus.WAITING:
            assert game.state is None
            continue
        replayed = store.replay(game)
        assert comparable(codec.to_state(replayed)) == comparable(game.state), game


def test_a_game_written_as_the_columns_kept_it_reads_as_they_said() -> None:
    """A position written by hand in the columns before: Bob's card with a Yahtzee bonus, on
    his second roll with three dice held, after Alice's full house that she may take back."""
    alice, bob = make_user("alice"), make_user("bob")
    try:
        old = migrate(BEFORE)
        OldGame, OldSeat = old.get_model("games", "Game"), old.get_model("games", "Seat")
        game = OldGame.objects.create(
            owner_id=alice.pk, kind="classic", status="in_progress", current_seat=1, round=3,
            dice=[4, 4, 4, 2, 1], held=[True, True, True, False, False], rolls_used=2,
            version=9, first_seat=0, updated_at=timezone.now(),
            undo={"seat": 0, "cards": [{"chance": 20}], "yahtzee_bonuses": 0, "yahtzees": 0,
                  "dice": [3, 3, 3, 2, 2], "held": [], "rolls_used": 1, "column": 0,
                  "box": "full_house", "points": 25},
        )  # fmt: skip
        OldSeat.objects.create(game=game, position=0, user_id=alice.pk, display_name="Alice",
                               cards=[{"chance": 20, "full_house": 25}])  # fmt: skip
        OldSeat.objects.create(game=game, position=1, user_id=bob.pk, display_name="Bob",
                               cards=[{"yahtzee": 50, "fours": 16}], yahtzee_bonuses=1,
                               yahtzees=2, on_turn=True)  # fmt: skip
        migrate(AFTER)
    finally:
        migrate([("games", leaf())])

    match = store.match_of(Game.objects.get(pk=game.pk))
    assert match.phase is rules.MatchPhase.PLAYING and (match.first, match.current) == (0, 1)
    assert match.turn == rules.Turn(dice=(4, 4, 4, 2, 1), held=(True,) * 3 + (False,) * 2,
                                    rolls_used=2)  # fmt: skip
    assert match.sheets[1] == rules.Sheet(
        kind=rules.CLASSIC, cards=({"yahtzee": 50, "fours": 16},), yahtzee_bonuses=1, yahtzees=2
    )
    assert match.players == (0, 1) and match.host == 0 and not match.challenge
    assert match.undo is not None and match.undo.current == 0
    assert match.undo.sheets[0].cards == ({"chance": 20},)
    assert match.undo.turn == rules.Turn(dice=(3, 3, 3, 2, 2), rolls_used=1)
    assert match.log == (rules.Scored(0, 0, "full_house", 25, (3, 3, 3, 2, 2)),)
    taken_back = match.act(rules.actions.Undo(0))  # Alice takes her full house back
    assert (taken_back.current, taken_back.sheets[0].cards) == (0, ({"chance": 20},))
    assert taken_back.turn == rules.Turn(dice=(3, 3, 3, 2, 2), rolls_used=1)


def leaf() -> str:
    executor = MigrationExecutor(connection)
    return max(name for app, name in executor.loader.graph.leaf_nodes() if app == "games")
