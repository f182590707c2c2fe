"""Players at one screen: the host names up to five guests, each plays in turn on the host's
game and trial game; guests are named in the result but never in the public top ten."""

from __future__ import annotations

import pytest

from accounts.models import TRIAL_GAMES, User
from games import rules, store
from games.models import Game, PlayerKind, Score
from games.play import actions as play
from games.scores.selectors import top_ten
from games.tables import services
from tests.factories import make_user, roll_now, score_now

ALL = [box.value for box in rules.CATEGORIES]


def test_guests_sit_after_the_host_in_the_order_typed(player) -> None:
    game = services.start_game(owner=player, guests=["  Ann ", "", "Bob  Smith"])

    seats = list(game.seats.order_by("position"))
    assert [(s.position, s.display_name, s.player_kind, s.user_id) for s in seats] == [
        (0, player.display_name, PlayerKind.HUMAN, player.pk),
        (1, "Ann", PlayerKind.GUEST, None),
        (2, "Bob Smith", PlayerKind.GUEST, None),
    ]
    player.refresh_from_db()
    assert player.trial_games_used == 1  # the guests play on the host's game


@pytest.mark.parametrize(
    ("guests", "message"),
    [
        (["A", "B", "C", "D", "E", "F"], "At most 5 more players can sit at your screen."),
        (["x" * 31], "A player's name can be at most 30 characters."),
        (["Ann", "ann"], "Two players are called “ann”: give each their own name."),
        (["Alice"], "Two players are called “Alice”: give each their own name."),
    ],
)
def test_names_that_will_not_do_are_refused_and_nothing_is_used(player, guests, message) -> None:
    with pytest.raises(services.BadGuests) as refused:
        services.start_game(owner=player, guests=guests)

    assert str(refused.value) == message
    assert not Game.objects.exists()
    player.refresh_from_db()
    assert player.trial_games_used == 0


def test_the_host_plays_each_guests_turn_in_order(player) -> None:
    game = services.start_game(owner=player, guests=["Ann"])

    roll_now(game, player, 1, 1, 1, 2, 2)
    score_now(game, player, "full_house")
    seated = store.load(game_id=game.pk, user=player)

    assert seated.game.current_seat == 1 and seated.game.round == 1
    roll_now(game, player, 3, 3, 3, 3, 3)  # Ann's roll, made at the host's screen
    score_now(game, player, "yahtzee")
    seated = store.load(game_id=game.pk, user=player)
    assert (seated.game.current_seat, seated.game.round) == (0, 2)
    assert seated.match().sheets[1].cards[0] == {"yahtzee": 50}


def test_an_account_cannot_play_a_seat_that_is_not_its_own(player) -> None:
    other = make_user("bob")
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=game.invitations.get().token, user=other)
    services.begin_game(game_id=game.pk, user=player)
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "chance")

    # Bob's turn now: the host may not play it for him.
    game.refresh_from_db()
    with pytest.raises(rules.OutOfTurn, match=r"^It is not your turn\.$"):
        play.roll_dice(game_id=game.pk, user=player, version=game.version)


def test_guests_results_stay_out_of_the_public_top_ten(player) -> None:
    game = services.start_game(owner=player, guests=["Ann"])
    for box in ALL:
        for _seat in range(2):
            roll_now(game, player, 6, 6, 6, 6, 5)
            score_now(game, player, box)

    scores = {s.display_name: s for s in Score.objects.filter(game=game)}
    assert scores["Ann"].player_kind == PlayerKind.GUEST
    assert scores["Ann"].grand_total == scores[player.display_name].grand_total
    table = top_ten(kind=rules.CLASSIC.key)
    assert [row.display_name for row in table.rows] == [player.display_name]


def test_the_names_used_before_are_offered_latest_first(player) -> None:
    services.start_game(owner=player, guests=["Ann", "Bob"])
    services.start_game(owner=player, guests=["Cy", "Ann"])

    player.refresh_from_db()
    assert player.guest_names == ["Cy", "Ann", "Bob"]


def test_trial_count_is_untouched_by_guests_at_the_limit(player) -> None:
    player.trial_games_used = TRIAL_GAMES - 1
    player.save()

    services.start_game(owner=player, guests=["Ann", "Bob", "Cy", "Di", "Ed"])

    player.refresh_from_db()
    assert player.trial_games_used == TRIAL_GAMES


def test_the_list_of_names_keeps_the_latest_twelve(player) -> None:
    for first in range(0, 15, 5):
        services.start_game(owner=player, guests=[f"P{n}" for n in range(first, first + 5)])

    player.refresh_from_db()
    assert player.guest_names == [f"P{n}" for n in (10, 11, 12, 13, 14, 5, 6, 7, 8, 9, 0, 1)]


def test_the_migration_fills_the_list_from_the_games_hosted_before(player) -> None:
    from importlib import import_module

    from django.apps import apps

    services.start_game(owner=player, guests=["Ann", "Bob"])
    services.start_game(owner=player, guests=["Cy", "Ann"])
    User.objects.filter(pk=player.pk).update(guest_names=[])  # as before the field existed

    import_module("accounts.migrations.0008_user_guest_names").fill(apps, None)

    player.refresh_from_db()
    assert player.guest_names == ["Cy", "Ann", "Bob"]
