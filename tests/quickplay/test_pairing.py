"""Joining, cancelling and pairing: one wait per account, near ratings paired at once into one
rated game, far ones only as the window widens, the computer offered after 30 s."""

from __future__ import annotations

import pytest

from accounts import licensing
from accounts.models import TRIAL_GAMES, User
from games.models import Game, GameStatus, PlayerKind, Seat
from games.play import actions as play
from games.quickplay import services
from games.quickplay.models import QuickWait
from games.ratings import anchors
from tests.quickplay.support import at, rated

pytestmark = pytest.mark.django_db


def trial_used(user: User) -> int:
    return User.objects.get(pk=user.pk).trial_games_used


def test_joining_waits_at_the_accounts_rating_and_uses_nothing() -> None:
    alice = rated("alice", 1620)

    waiting = services.join(user=alice, kind="classic", now=at(0))

    assert (waiting.rating, waiting.window, waiting.game_id) == (1620, 100, None)
    wait = QuickWait.objects.get(user=alice)
    assert (wait.kind, wait.rating, wait.joined_at) == ("classic", 1620, at(0))
    assert trial_used(alice) == 0
    assert not Game.objects.exists()


def test_an_account_without_a_rating_waits_at_1500() -> None:
    bob = rated("bob", None)

    assert services.join(user=bob, kind="triple", now=at(0)).rating == 1500


def test_a_rating_at_another_kind_is_not_taken() -> None:
    alice = rated("alice", 1800, kind="triple")

    assert services.join(user=alice, kind="classic", now=at(0)).rating == 1500


def test_a_second_wait_is_refused_and_changes_nothing() -> None:
    alice = rated("alice", 1500)
    services.join(user=alice, kind="classic", now=at(0))

    with pytest.raises(services.AlreadyWaiting, match="already waiting for a game of Classic"):
        services.join(user=alice, kind="triple", now=at(1))

    assert list(QuickWait.objects.values_list("kind", "joined_at")) == [("classic", at(0))]


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(services.UnknownKind):
        services.join(user=rated("alice", 1500), kind="poker", now=at(0))
    assert not QuickWait.objects.exists()


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"trial_games_used": TRIAL_GAMES}, licensing.TrialOver),
        ({"email_confirmed": False}, licensing.EmailNotConfirmed),
    ],
)
def test_an_account_that_cannot_start_a_game_cannot_wait(fields: dict, error: type) -> None:
    with pytest.raises(error):
        services.join(user=rated("alice", 1500, **fields), kind="classic", now=at(0))
    assert not QuickWait.objects.exists()


def test_cancel_ends_the_wait_and_a_second_cancel_is_refused() -> None:
    alice = rated("alice", 1500)
    services.join(user=alice, kind="classic", now=at(0))

    services.cancel(user=alice)

    assert not QuickWait.objects.exists()
    with pytest.raises(services.NotWaiting):
        services.cancel(user=alice)


def test_near_ratings_are_seated_at_once_in_one_rated_game() -> None:
    alice, bob = rated("alice", 1500), rated("bob", 1580)
    services.join(user=alice, kind="classic", now=at(0))

    waiting = services.join(user=bob, kind="classic", now=at(2))

    game = Game.objects.get()
    assert waiting.game_id == game.pk
    assert services.check_in(user=alice, now=at(3)).game_id == game.pk
    assert (game.kind, game.rated, game.status) == ("classic", True, GameStatus.IN_PROGRESS)
    assert game.owner == alice  # the one who waited longer hosts
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    assert [(s.user, s.player_kind, s.used_trial_game) for s in seats] == [
        (alice, PlayerKind.HUMAN, True),
        (bob, PlayerKind.HUMAN, True),
    ]
    assert (trial_used(alice), trial_used(bob)) == (1, 1)


def test_once_seated_a_cancel_says_the_game_has_begun_and_joining_again_starts_afresh() -> None:
    alice, bob = rated("alice", 1500), rated("bob", 1500)
    services.join(user=alice, kind="classic", now=at(0))
    services.join(user=bob, kind="classic", now=at(0))

    with pytest.raises(services.AlreadySeated):
        services.cancel(user=alice)
    again = services.join(user=alice, kind="classic", now=at(60))

    assert again.game_id is None
    assert QuickWait.objects.filter(user=alice, game__isnull=True).count() == 1


def test_far_ratings_wait_until_both_windows_widen() -> None:
    alice, bob = rated("alice", 1500), rated("bob", 1720)  # 220 apart: 100 + 3 x 50 reach it
    services.join(user=alice, kind="classic", now=at(0))
    services.join(user=bob, kind="classic", now=at(0))

    for second in range(1, 15):
        assert services.check_in(user=alice, now=at(second)).game_id is None
        assert services.check_in(user=bob, now=at(second)).game_id is None
    assert services.check_in(user=alice, now=at(14)).window == 200

    assert services.check_in(user=alice, now=at(15)).game_id is not None
    assert Seat.objects.filter(user__in=[alice, bob]).count() == 2


def test_the_newer_wait_must_reach_too() -> None:
    alice, bob = rated("alice", 1500), rated("bob", 1720)
    services.join(user=alice, kind="classic", now=at(0))

    assert services.join(user=bob, kind="classic", now=at(20)).game_id is None  # alice: 300
    assert services.check_in(user=alice, now=at(34)).game_id is None  # bob: 200 at 14 s
    assert services.check_in(user=bob, now=at(35)).game_id is not None  # bob: 250 at 15 s


def test_the_closest_rating_is_taken_and_the_longest_waiting_among_equals() -> None:
    waiters = {
        "far": rated("far", 1700),
        "old": rated("old", 1560),
        "new": rated("new", 1440),
    }
    services.join(user=waiters["far"], kind="classic", now=at(0))
    services.join(user=waiters["new"], kind="classic", now=at(0.5))
    services.join(user=waiters["old"], kind="classic", now=at(0.2))
    # (Each is 120 or more from the others: too far before any window widens.)
    assert not Game.objects.exists()

    services.join(user=rated("carol", 1500), kind="classic", now=at(1))

    seated = Seat.objects.exclude(user__username="carol").get()
    assert seated.user == waiters["old"]  # 60 away, as "new" is, and waiting since 0.2 s


def test_kinds_are_never_mixed() -> None:
    services.join(user=rated("alice", 1500), kind="classic", now=at(0))
    services.join(user=rated("bob", 1500, kind="triple"), kind="triple", now=at(0))

    assert not Game.objects.exists()


def test_a_wait_whose_page_has_gone_quiet_is_nobodys_opponent() -> None:
    alice = rated("alice", 1500)
    services.join(user=alice, kind="classic", now=at(0))

    assert services.join(user=rated("bob", 1500), kind="classic", now=at(25)).game_id is None
    services.check_in(user=alice, now=at(26))  # back: her page looks again, and finds bob
    assert Game.objects.count() == 1


def test_a_waiter_whose_trial_ran_out_meanwhile_stops_waiting_and_the_other_waits_on() -> None:
    alice, bob = rated("alice", 1500), rated("bob", 1500)
    services.join(user=alice, kind="classic", now=at(0))
    User.objects.filter(pk=alice.pk).update(trial_games_used=TRIAL_GAMES)  # another game took it

    assert services.join(user=bob, kind="classic", now=at(1)).game_id is None

    assert not Game.objects.exists()
    assert list(QuickWait.objects.values_list("user__username", flat=True)) == ["bob"]
    assert (trial_used(alice), trial_used(bob)) == (TRIAL_GAMES, 0)


# --- The computer of your strength --------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "rating"),
    [("classic", 1300), ("classic", 1560), ("classic", 1900), ("triple", 1460), ("triple", 1673)],
)
def test_the_closest_computer_is_offered(kind: str, rating: int) -> None:
    shown = {bot: anchors.anchor(kind, bot).shown for bot in ("perfect", "good", "beginner")}
    best = min(abs(r - rating) for r in shown.values())

    bot = services.closest_computer(kind, rating)

    assert abs(shown[bot] - rating) == best


def test_the_computer_is_offered_after_30_seconds_and_starts_a_rated_game() -> None:
    alice = rated("alice", 1560)
    services.join(user=alice, kind="classic", now=at(0))
    assert not services.check_in(user=alice, now=at(29)).computer_offered
    with pytest.raises(services.TooSoon):
        services.play_computer(user=alice, now=at(29))
    assert services.check_in(user=alice, now=at(30)).computer_offered

    game = services.play_computer(user=alice, now=at(31))

    assert game.rated and game.status == GameStatus.IN_PROGRESS
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    assert [(s.user, s.player_kind, s.bot) for s in seats] == [
        (alice, PlayerKind.HUMAN, ""),
        (None, PlayerKind.COMPUTER, "good"),  # 1,544: closer to 1,560 than Perfect's 1,596
    ]
    assert not QuickWait.objects.exists()
    assert trial_used(alice) == 1


def test_the_computer_with_nothing_waiting_is_refused() -> None:
    with pytest.raises(services.NotWaiting):
        services.play_computer(user=rated("alice", 1500), now=at(40))
    assert not Game.objects.exists()


def test_a_wait_seated_in_a_game_now_over_is_forgotten() -> None:
    alice, bob = rated("alice", 1500), rated("bob", 1500)
    services.join(user=alice, kind="classic", now=at(0))
    waiting = services.join(user=bob, kind="classic", now=at(0))
    assert waiting.game_id is not None
    play.abandon_game(game_id=waiting.game_id, user=alice)  # the host ends it
    assert Game.objects.get().status == GameStatus.ABANDONED

    with pytest.raises(services.NotWaiting):
        services.check_in(user=alice, now=at(600))
    with pytest.raises(services.NotWaiting):
        services.cancel(user=alice)


def test_quick_play_yatzy_offers_the_closest_yatzy_computer_in_a_rated_yatzy_game() -> None:
    alice = rated("alice", 1600, kind="yatzy")
    services.join(user=alice, kind="yatzy", now=at(0))

    game = services.play_computer(user=alice, now=at(31))

    computer = Seat.objects.get(game=game, position=1)
    assert (game.kind, game.rated) == ("yatzy", True)
    assert computer.bot == "good"  # Yatzy's Good is 1,607: closer to 1,600 than Perfect's 1,674
