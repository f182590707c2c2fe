"""Rating a game over: who is rated, by which places, and what is kept (the rating, its
history, the season's row); each rule against abuse."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, GameStatus, PlayerKind
from games.play import actions as play
from games.ratings import anchors, scale, services
from games.ratings.models import Rating, RatingChange, SeasonRating
from games.tables import services as tables
from tests.factories import make_user, match_of
from tests.ratings.support import committed, online_game, played

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    """The computer players and ``play_out`` decide with the session's table."""


def totals(game: Game) -> list[int]:
    return [sheet.grand_total for sheet in match_of(game).sheets]


def rating(user, kind: str = "classic") -> Rating:
    return Rating.objects.get(user=user, kind=kind)


def test_an_online_game_between_two_accounts_rates_both_by_where_they_finished() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = played(online_game(alice, bob), alice, seed=1)
    first, second = totals(game)
    assert first != second  # the seed gives a winner
    winner, loser = (alice, bob) if first > second else (bob, alice)

    expected = scale.rate([scale.Entrant(scale.Belief(), 1), scale.Entrant(scale.Belief(), 2)])
    assert rating(winner).mu == pytest.approx(expected[0].mu)
    assert rating(loser).mu == pytest.approx(expected[1].mu)
    assert (rating(winner).rating, rating(loser).rating) == (1566, 1434)
    assert rating(winner).games == rating(loser).games == 1

    change = RatingChange.objects.get(user=loser, game=game)
    assert (change.before, change.after, change.change, change.place, change.players) == (
        1500,
        1434,
        -66,
        2,
        2,
    )
    season = SeasonRating.objects.get(user=winner, kind="classic")
    assert season.sigma == pytest.approx(expected[0].sigma)  # a "?" while provisional
    assert (season.season, season.rating, season.games) == (
        timezone.localdate().replace(day=1),
        1566,
        1,
    )


def test_rating_a_game_again_changes_nothing() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = played(
        online_game(alice, bob), alice, seed=1
    )  # rated as it finished (tasks run at once)
    before = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))

    assert services.rate_game(game.pk) is False

    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == before
    assert RatingChange.objects.count() == 2 and SeasonRating.objects.get(user=alice).games == 1


def test_each_kind_has_its_own_rating() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    played(online_game(alice, bob, kind="triple"), alice, seed=4)

    assert set(Rating.objects.filter(user=alice).values_list("kind", flat=True)) == {"triple"}


def test_a_game_alone_and_a_days_challenge_are_not_rated() -> None:
    alice = make_user("alice")
    played(tables.start_game(owner=alice, rated=True), alice)
    played(tables.start_game(owner=alice, challenge_day=timezone.localdate(), rated=True), alice)

    assert not Rating.objects.exists()
    assert Game.objects.filter(status=GameStatus.FINISHED).count() == 2


def test_against_the_computer_only_when_the_host_chose_rated() -> None:
    alice = make_user("alice")
    played(tables.start_game(owner=alice, computers=["beginner"]), alice, seed=2)
    assert not Rating.objects.exists()

    game = tables.start_game(owner=alice, computers=["perfect"], rated=True)
    game = played(game, alice, seed=2)

    alice_total, computer_total = totals(game)
    computer = anchors.anchor("classic", "perfect")
    place = 1 if alice_total > computer_total else 2
    expected = scale.rate(
        [scale.Entrant(scale.Belief(), place), scale.Entrant(computer, 3 - place, fixed=True)]
    )
    assert rating(alice).mu == pytest.approx(expected[0].mu)
    assert Rating.objects.count() == 1  # the computer has no row: its rating is fixed
    assert RatingChange.objects.get(user=alice).players == 2


def test_guests_are_never_rated_nor_placed() -> None:
    alice = make_user("alice")
    game = tables.start_game(owner=alice, guests=["Grandma"], computers=["beginner"], rated=True)
    game = played(game, alice, seed=3)

    change = RatingChange.objects.get(user=alice)
    assert change.players == 2  # Alice and the computer: the guest's total counts for nothing
    alice_total, _, computer_total = totals(game)
    assert change.place == (1 if alice_total > computer_total else 2)


def test_a_game_at_one_screen_with_guests_alone_rates_nobody() -> None:
    alice = make_user("alice")
    played(tables.start_game(owner=alice, guests=["Grandma"], rated=True), alice)

    assert not Rating.objects.exists()


def test_an_account_not_confirmed_is_not_rated() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = online_game(alice, bob)
    bob.email_confirmed = False
    bob.save(update_fields=["email_confirmed"])
    played(game, alice)

    assert not Rating.objects.exists()  # Alice alone is left to rate: nobody to compare with


def test_resigning_is_a_last_place_whatever_the_total() -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = online_game(alice, bob, carol)
    # Carol plays her first turn well, then resigns.
    played(game, alice, until=lambda match: match.round == 2)
    with committed():
        version = Game.objects.get(pk=game.pk).version
        table = play.resign(game_id=game.pk, user=carol, version=version)
    assert table.game.status == GameStatus.IN_PROGRESS
    played(game, alice)

    assert RatingChange.objects.get(user=carol).place == 3
    assert rating(carol).rating < 1500


def test_a_player_skipped_out_finishes_last() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = online_game(alice, bob, turn_limit=60)

    for _ in range(scale.SKIPPED_OUT):
        played(game, alice, until=lambda match: match.on_turn == 1)
        now = Game.objects.get(pk=game.pk).updated_at + timedelta(seconds=61)
        with committed():
            version = Game.objects.get(pk=game.pk).version
            play.skip_turn(game_id=game.pk, user=alice, version=version, now=now)
    played(game, alice)

    assert RatingChange.objects.get(user=bob).place == 2
    assert RatingChange.objects.get(user=alice).place == 1


def test_a_rated_game_its_host_abandons_is_lost_by_the_host() -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = online_game(alice, bob, carol)
    played(game, alice, until=lambda match: match.round == 3)

    with committed():
        play.abandon_game(game_id=game.pk, user=alice)

    places = dict(RatingChange.objects.values_list("user__username", "place"))
    assert places == {"alice": 3, "bob": 1, "carol": 1}  # as standings count: 1, 1, 3
    assert rating(alice).rating < 1500 < rating(bob).rating == rating(carol).rating


def test_a_game_abandoned_before_it_began_rates_nobody() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = tables.open_game(owner=alice, invites=1)
    tables.join_game(token=game.invitations.get().token, user=bob)
    play.abandon_game(game_id=game.pk, user=alice)

    assert services.rate_game(game.pk) is False
    assert not Rating.objects.exists()


def test_the_same_two_accounts_again_count_less_each_time() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    for seed in (1, 2, 3):
        played(online_game(alice, bob), alice, seed=seed)

    weights = list(
        RatingChange.objects.filter(user=alice)
        .order_by("created_at")
        .values_list("weight", flat=True)
    )
    assert weights == [1, 1 / 2, 1 / 3]
    # Against a third account, Alice's game counts fully again.
    carol = make_user("carol")
    played(online_game(alice, carol), alice, seed=4)
    assert RatingChange.objects.filter(user=carol).get().weight == 1
    assert RatingChange.objects.filter(user=alice).order_by("-created_at").first().weight == 1


def test_meetings_long_ago_count_fully_again() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    old = played(online_game(alice, bob), alice, seed=1)
    RatingChange.objects.filter(game=old).update(
        created_at=timezone.now() - services.MEETINGS_WINDOW - timedelta(minutes=1)
    )
    played(online_game(alice, bob), alice, seed=2)

    assert RatingChange.objects.exclude(game=old).filter(user=alice).get().weight == 1


def test_a_season_row_per_month_the_last_one_kept_as_it_ended() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = played(online_game(alice, bob), alice, seed=1)
    season = SeasonRating.objects.get(user=alice)
    last_month = (season.season - timedelta(days=1)).replace(day=1)
    SeasonRating.objects.filter(pk=season.pk).update(season=last_month)  # as if played then
    kept = SeasonRating.objects.get(user=alice).rating

    played(online_game(alice, bob), alice, seed=2)

    assert SeasonRating.objects.get(user=alice, season=last_month).rating == kept
    assert SeasonRating.objects.get(user=alice, season=season.season).games == 1
    assert game.rated is False  # between accounts online: rated without the host's choice


def test_the_seats_of_a_computer_never_get_a_rating_row() -> None:
    alice = make_user("alice")
    played(tables.start_game(owner=alice, computers=["good", "beginner"], rated=True), alice)

    change = RatingChange.objects.get(user=alice)
    assert change.players == 3
    assert not Rating.objects.exclude(user=alice).exists()
    assert PlayerKind.COMPUTER  # the seats stay computers' (never an account)


def test_a_rated_yatzy_game_against_the_computer_rates_yatzy_by_its_anchor() -> None:
    alice = make_user("alice")
    game = played(
        tables.start_game(owner=alice, kind="yatzy", computers=["good"], rated=True), alice, seed=5
    )

    alice_total, computer_total = totals(game)
    computer = anchors.anchor("yatzy", "good")
    place = 1 if alice_total > computer_total else 2
    expected = scale.rate(
        [scale.Entrant(scale.Belief(), place), scale.Entrant(computer, 3 - place, fixed=True)]
    )
    assert rating(alice, "yatzy").mu == pytest.approx(expected[0].mu)
    assert set(Rating.objects.values_list("kind", flat=True)) == {"yatzy"}
