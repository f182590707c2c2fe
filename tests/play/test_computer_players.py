"""Computer players: seated from the new-game form's names, they take their turns step by step
through the rules (the page asks for each step) or all at once; their scores go to the
computer tables."""

from __future__ import annotations

import pytest

from games import rules, store
from games.models import Move, PlayerKind, Score, Seat
from games.play import actions as play
from games.scores.selectors import top_ten
from games.tables import services
from tests.factories import roll_now, score_now


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


def step(game, user, *, to_the_end: bool = False):
    game.refresh_from_db()
    return play.play_computer(
        game_id=game.pk, user=user, version=game.version, to_the_end=to_the_end
    )


def test_computer_seats_are_named_by_strength_and_numbered_when_repeated(player) -> None:
    game = services.start_game(owner=player, computers=["good", "", "perfect", "good"])

    seats = list(Seat.objects.filter(game=game).order_by("position"))
    assert [(s.display_name, s.player_kind, s.bot) for s in seats[1:]] == [
        ("Computer (Good) 1", PlayerKind.COMPUTER, "good"),
        ("Computer (Perfect)", PlayerKind.COMPUTER, "perfect"),
        ("Computer (Good) 2", PlayerKind.COMPUTER, "good"),
    ]


def test_an_unknown_strength_is_refused_and_nothing_starts(player) -> None:
    with pytest.raises(
        services.BadGuests, match=r"^There is no computer player called “genius”\.$"
    ):
        services.start_game(owner=player, computers=["genius"])

    assert not Seat.objects.exists()


def test_the_computer_moves_one_step_per_request_and_only_on_its_turn(player) -> None:
    bot_game = services.start_game(owner=player, computers=["perfect"])
    step(bot_game, player)  # the person's turn: nothing for the computer to do
    bot_game.refresh_from_db()
    assert bot_game.version == 0 and not Move.objects.exists()

    roll_now(bot_game, player, 1, 1, 1, 1, 1)
    score_now(bot_game, player, "yahtzee")
    seated = step(bot_game, player)

    assert seated.game.current_seat == 1
    assert isinstance(seated.record, rules.Roll) and seated.record.roll_number == 1
    assert Move.objects.filter(game=bot_game, seat__player_kind=PlayerKind.COMPUTER).count() == 1


def test_a_stale_step_does_nothing_so_two_pages_never_double_a_move(player) -> None:
    game = services.start_game(owner=player, computers=["good"])
    roll_now(game, player, 2, 2, 3, 3, 3)
    score_now(game, player, "full_house")
    game.refresh_from_db()
    version = game.version

    play.play_computer(game_id=game.pk, user=player, version=version)
    play.play_computer(game_id=game.pk, user=player, version=version)  # the other page, late

    assert Move.objects.filter(game=game, seat__player_kind=PlayerKind.COMPUTER).count() == 1


def test_skipping_ahead_plays_the_computer_turn_to_its_box(player) -> None:
    game = services.start_game(owner=player, computers=["beginner", "perfect"])
    roll_now(game, player, 6, 6, 6, 5, 5)
    score_now(game, player, "full_house")

    seated = step(game, player, to_the_end=True)

    assert seated.game.current_seat == 0 and seated.game.round == 2
    bots = [p for p, s in enumerate(seated.seats) if s.player_kind == PlayerKind.COMPUTER]
    assert [seated.match().sheets[p].boxes_filled for p in bots] == [1, 1]


def test_a_whole_game_against_the_computer_records_its_score_apart(player) -> None:
    game = services.start_game(owner=player, computers=["perfect"])
    for box in rules.CATEGORIES:
        roll_now(game, player, 6, 6, 6, 6, 6)
        score_now(game, player, box.value)
        step(game, player, to_the_end=True)

    seated = store.load(game_id=game.pk, user=player)
    assert seated.game.status == "finished"
    scores = {s.player_kind: s for s in Score.objects.filter(game=game)}
    assert set(scores) == {PlayerKind.HUMAN, PlayerKind.COMPUTER}
    top_computers = top_ten(kind=rules.CLASSIC.key, player_kind=PlayerKind.COMPUTER)
    assert [row.display_name for row in top_computers.rows] == ["Computer (Perfect)"]
    top_people = top_ten(kind=rules.CLASSIC.key)
    assert [row.display_name for row in top_people.rows] == ["Alice"]
    with pytest.raises(rules.MatchOver, match="The game is over"):
        step(game, player)
