"""Playing online, before the first roll: seats offered by link or in the lobby, taken, withdrawn,
left; the host's start, which drops the seats not taken and uses each account's trial game."""

from __future__ import annotations

import pytest

from accounts.models import TRIAL_GAMES
from games import rules, store
from games.models import Game, GameStatus, Invitation, Seat
from games.play import actions as play
from games.tables import services
from games.tables.selectors import lobby
from tests.factories import make_user, roll_now, score_now


@pytest.fixture
def bob():
    return make_user("bob")


def tokens(game: Game, *, lobby: bool | None = None) -> list[str]:
    found = Invitation.objects.filter(game=game)
    if lobby is not None:
        found = found.filter(open_to_all=lobby)
    return list(found.order_by("pk").values_list("token", flat=True))


def test_a_game_with_seats_offered_waits_and_uses_no_trial_game_yet(player) -> None:
    game = services.open_game(owner=player, invites=1, open_seats=2)

    assert game.status == GameStatus.WAITING
    assert len(tokens(game, lobby=False)) == 1 and len(tokens(game, lobby=True)) == 2
    assert all(len(token) >= 43 for token in tokens(game))  # 256 random bits
    player.refresh_from_db()
    assert player.trial_games_used == 0


def test_with_no_seat_offered_the_game_starts_at_once(player) -> None:
    game = services.open_game(owner=player, guests=["Ann"])

    assert game.status == GameStatus.IN_PROGRESS
    assert not Invitation.objects.exists()


def test_more_than_six_players_are_refused(player) -> None:
    with pytest.raises(services.BadGuests, match=r"^A game has at most 6 players, you included\.$"):
        services.open_game(owner=player, guests=["Ann", "Cy"], invites=2, open_seats=2)

    assert not Game.objects.exists()


def test_a_friend_takes_the_seat_once_and_a_second_visit_changes_nothing(player, bob) -> None:
    game = services.open_game(owner=player, invites=1)
    [token] = tokens(game)

    services.join_game(token=token, user=bob)
    services.join_game(token=token, user=bob)

    seats = list(Seat.objects.filter(game=game).order_by("position"))
    assert [(s.position, s.user_id) for s in seats] == [(0, player.pk), (1, bob.pk)]
    assert Invitation.objects.get(token=token).seat_id == seats[1].pk


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        ("unknown", "This invitation link is not valid: check that it was copied whole."),
        ("revoked", "The host has withdrawn this invitation."),
        ("taken", "Someone else has taken this seat."),
        ("started", "This game has already started."),
    ],
)
def test_an_invitation_that_cannot_be_used_says_why(player, bob, spoil, message) -> None:
    game = services.open_game(owner=player, invites=1)
    [token] = tokens(game)
    if spoil == "unknown":
        token = token[:-1]
    elif spoil == "revoked":
        services.revoke_invitation(
            game_id=game.pk, user=player, invitation_id=Invitation.objects.get().pk
        )
    elif spoil == "taken":
        services.join_game(token=token, user=make_user("carol"))
    else:
        services.begin_game(game_id=game.pk, user=player)
    before = list(Seat.objects.values_list("pk", flat=True))

    with pytest.raises(services.InvitationError) as refused:
        services.join_game(token=token, user=bob)

    assert str(refused.value) == message
    assert list(Seat.objects.values_list("pk", flat=True)) == before


def test_a_player_with_no_trial_game_left_cannot_take_a_seat(player, bob) -> None:
    bob.trial_games_used = TRIAL_GAMES
    bob.save()
    game = services.open_game(owner=player, invites=1)

    with pytest.raises(services.licensing.TrialOver):
        services.join_game(token=tokens(game)[0], user=bob)

    assert Seat.objects.filter(game=game).count() == 1


def test_only_the_host_withdraws_or_starts(player, bob) -> None:
    game = services.open_game(owner=player, invites=2)
    services.join_game(token=tokens(game)[0], user=bob)
    open_one = Invitation.objects.filter(seat__isnull=True).get()

    with pytest.raises(rules.NotHost, match=r"^Only the host can do that\.$"):
        services.revoke_invitation(game_id=game.pk, user=bob, invitation_id=open_one.pk)
    with pytest.raises(rules.NotHost, match=r"^Only the host can do that\.$"):
        services.begin_game(game_id=game.pk, user=bob)

    assert Game.objects.get().status == GameStatus.WAITING


def test_the_start_drops_seats_not_taken_and_uses_each_accounts_trial_game(player, bob) -> None:
    game = services.open_game(owner=player, guests=["Ann"], invites=1, open_seats=1)
    services.join_game(token=tokens(game, lobby=False)[0], user=bob)

    seated = services.begin_game(game_id=game.pk, user=player)

    assert seated.game.status == GameStatus.IN_PROGRESS
    assert [s.display_name for s in seated.seats] == ["Alice", "Ann", "Bob"]
    assert not Invitation.objects.filter(seat__isnull=True, revoked_at__isnull=True).exists()
    for user in (player, bob):
        user.refresh_from_db()
        assert user.trial_games_used == 1
    assert set(Seat.objects.filter(used_trial_game=True).values_list("user_id", flat=True)) == {
        player.pk,
        bob.pk,
    }


def test_a_player_whose_trial_ran_out_meanwhile_is_dropped_at_the_start(player, bob) -> None:
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=tokens(game)[0], user=bob)
    bob.trial_games_used = TRIAL_GAMES
    bob.save()

    seated = services.begin_game(game_id=game.pk, user=player)

    assert [s.user_id for s in seated.seats] == [player.pk]
    bob.refresh_from_db()
    assert bob.trial_games_used == TRIAL_GAMES


def test_leaving_before_the_start_offers_the_seat_again(player, bob) -> None:
    game = services.open_game(owner=player, invites=1)
    [token] = tokens(game)
    services.join_game(token=token, user=bob)

    left = play.abandon_game(game_id=game.pk, user=bob)

    assert left.left
    assert Game.objects.get().status == GameStatus.WAITING
    assert Invitation.objects.get().is_open
    services.join_game(token=token, user=make_user("carol"))


def test_once_started_only_the_host_ends_the_game_for_everyone(player, bob) -> None:
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=tokens(game)[0], user=bob)
    services.begin_game(game_id=game.pk, user=player)

    with pytest.raises(rules.NotHost, match=r"^Only the host can end the game for everyone\.$"):
        play.abandon_game(game_id=game.pk, user=bob)
    ended = play.abandon_game(game_id=game.pk, user=player)

    assert ended.trial_games_given_back == 2  # nothing was rolled
    assert Game.objects.get().status == GameStatus.ABANDONED


def test_turns_pass_between_the_accounts_and_each_plays_only_their_own(player, bob) -> None:
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=tokens(game)[0], user=bob)
    services.begin_game(game_id=game.pk, user=player)
    game.refresh_from_db()

    with pytest.raises(rules.OutOfTurn, match=r"^It is not your turn\.$"):
        play.roll_dice(game_id=game.pk, user=bob, version=game.version)
    roll_now(game, player, 1, 2, 3, 4, 5)
    score_now(game, player, "large_straight")
    roll_now(game, bob, 6, 6, 6, 6, 6)
    score_now(game, bob, "yahtzee")

    seated = store.load(game_id=game.pk, user=bob)
    assert [sheet.grand_total for sheet in seated.match().sheets] == [40, 50]


def test_the_lobby_lists_each_waiting_game_once_but_not_the_viewers_own(player, bob) -> None:
    mine = services.open_game(owner=player, open_seats=2)
    theirs = services.open_game(owner=bob, open_seats=1, invites=1)
    private = services.open_game(owner=make_user("dan"), invites=1)

    seen = lobby(viewer=player)

    assert [(s.game_id, s.host, s.seated, s.offered) for s in seen] == [(theirs.pk, "Bob", 1, 2)]
    assert {s.game_id for s in lobby(viewer=bob)} == {mine.pk}
    assert private.pk not in {s.game_id for s in lobby(viewer=make_user("eve"))}


def test_an_online_yatzy_game_is_listed_as_yatzy_joined_and_played_as_yatzy(player, bob) -> None:
    game = services.open_game(owner=player, open_seats=1, kind=rules.YATZY.key)
    (seat,) = lobby(viewer=bob)

    services.join_game(token=seat.token, user=bob)
    begun = services.begin_game(game_id=game.pk, user=player)

    assert (seat.game_id, seat.kind) == (game.pk, "Yatzy")
    assert begun.game.kind == rules.YATZY.key
    assert [sheet.kind for sheet in begun.match().sheets] == [rules.YATZY, rules.YATZY]
