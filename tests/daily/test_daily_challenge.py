"""The daily challenge with the database: the same dice for everybody, one attempt a day, no
hints, the board with accuracy, the streak and the dashboard's countdown."""

from __future__ import annotations

import html
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse

from accounts.models import TRIAL_GAMES
from games import store
from games.daily import clock, results, selectors, services
from games.daily.dice import face, site_key
from games.daily.models import DailyAttempt
from games.daily.presenters import countdown, next_challenge_text
from games.errors import GameError
from games.models import Game, GameStatus, Seat
from games.play import actions as play
from tests.daily.daily_support import hasty, play_out, veteran

pytestmark = pytest.mark.usefixtures("strategy_ready")

START = reverse("daily:start")
TODAY = reverse("daily:today")


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_two_players_see_the_same_faces_where_they_throw_the_same_positions(make_user):
    ann, bob = make_user(), make_user()
    ann_game = services.start_challenge(user=ann)
    bob_game = services.start_challenge(user=bob)
    day = services.today()

    first = [play.roll_dice(game_id=g.pk, user=u, version=g.version) for u, g in
             ((ann, ann_game), (bob, bob_game))]  # fmt: skip
    ann_after = play.roll_dice(
        game_id=ann_game.pk, user=ann, version=first[0].game.version,
        held=[True, False, False, False, False],
    )  # fmt: skip
    bob_after = play.roll_dice(
        game_id=bob_game.pk, user=bob, version=first[1].game.version,
        held=[True, True, False, True, False],
    )  # fmt: skip

    opening = tuple(face(site_key(), day, 1, 1, p) for p in range(5))
    assert first[0].match().turn.dice == first[1].match().turn.dice == opening
    ann_dice, bob_dice = ann_after.match().turn.dice, bob_after.match().turn.dice
    assert ann_dice is not None and bob_dice is not None
    for p in (2, 4):  # thrown by both in roll 2
        assert ann_dice[p] == bob_dice[p] == face(site_key(), day, 1, 2, p)
    assert ann_dice[1] == face(site_key(), day, 1, 2, 1)  # thrown by Ann alone
    assert bob_dice[1] == opening[1] and bob_dice[3] == opening[3]  # held by Bob


def test_a_second_attempt_is_refused_with_its_reason_and_changes_nothing(player, client_for):
    client = client_for(player)
    first = client.post(START)
    game = Game.objects.get(owner=player)
    assert first.status_code == 302 and first["Location"] == f"/play/{game.pk}/"

    again = client.post(START)

    assert again.status_code == 409
    assert "You have played today's challenge already" in text(again)
    assert "abandoned attempt counts" in text(again)
    assert Game.objects.filter(owner=player).count() == 1
    player.refresh_from_db()
    assert player.trial_games_used == 1


def test_an_abandoned_attempt_counts(player):
    game = services.start_challenge(user=player)
    play.roll_dice(game_id=game.pk, user=player, version=game.version)
    play.abandon_game(game_id=game.pk, user=player)

    with pytest.raises(services.AlreadyPlayed):
        services.start_challenge(user=player)


def test_the_attempt_uses_a_trial_game_and_is_refused_once_they_are_gone(player, client_for):
    player.trial_games_used = TRIAL_GAMES
    player.save()

    refused = client_for(player).post(START)

    assert refused.status_code == 409
    assert not DailyAttempt.objects.exists() and not Game.objects.exists()


def test_the_start_needs_a_post_with_a_csrf_token(player):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(player)

    assert client.get(START).status_code == 405
    assert client.post(START).status_code == 403
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_racing_starts_make_one_game(make_user):
    from tests.licensing.licensing_support import run_together

    racer = make_user()

    results = run_together(2, lambda i: services.start_challenge(user=racer))

    assert sorted(type(r).__name__ for r in results) == ["AlreadyPlayed", "Game"], results
    assert Game.objects.filter(owner=racer).count() == 1
    assert DailyAttempt.objects.filter(user=racer).count() == 1
    racer.refresh_from_db()
    assert racer.trial_games_used == 1
    Game.objects.all().delete()  # transaction=True: the next test starts from nothing


def test_hints_are_refused_and_not_offered(player, client_for):
    game = services.start_challenge(user=player)
    rolled = play.roll_dice(game_id=game.pk, user=player, version=game.version)
    client = client_for(player)

    page = text(client.get(reverse("games:play", args=[game.pk])))
    asked = client.post(reverse("games:hint", args=[game.pk]), {"version": rolled.game.version})

    assert "data-hint" not in page and "no hints" in page
    assert asked.status_code == 409
    assert "No hints in the daily challenge" in text(asked)
    assert Seat.objects.get(game=game).hints == 0


def test_only_its_player_acts_on_a_challenge_game(player, make_user, client_for):
    game = services.start_challenge(user=player)
    other = client_for(make_user())

    answer = other.post(reverse("games:roll", args=[game.pk]), {"version": game.version})

    assert answer.status_code == 404
    assert Game.objects.get(pk=game.pk).version == game.version


def test_the_board_ranks_the_days_players_with_their_accuracy(make_user, client_for):
    best, hasty_one = veteran(make_user, "Best"), veteran(make_user, "Hasty")
    for user, decide in ((hasty_one, hasty), (best, None)):
        game = services.start_challenge(user=user)
        play_out(user, game.pk, *(() if decide is None else (decide,)))

    board = selectors.board(services.today(), viewer=best)
    page = text(client_for(best).get(TODAY))

    assert [line.name for line in board.lines] == ["Best", "Hasty"]
    assert [line.rank for line in board.lines] == [1, 2]
    assert board.lines[0].total > board.lines[1].total
    assert board.lines[0].tenths == 1000  # perfect play loses nothing
    assert board.lines[1].tenths is not None and 0 <= board.lines[1].tenths < 1000
    assert "100.0%" in page
    assert re.search(
        r"<details[^>]*>\s*<summary>How accuracy is worked out</summary>\s*"
        r"<p[^>]*>Accuracy is the share of the expected points you kept: 100 × \(1 − points "
        r"lost ÷ \d+\.\d\)",
        page,
    )  # the formula behind a summary, no longer a paragraph on every board
    perfect = services.challenge(services.today())
    assert board.lines[0].total == perfect.perfect_total  # the same dice, the same play
    assert (
        "For reference: the perfect-play computer, on the same dice, scored "
        f"<strong>{perfect.perfect_total}</strong> (it plays for the best average, not for the "
        "best score on these dice)."
    ) in page
    assert "Perfect play's game on this day's dice" not in page  # not before the day ends


def test_the_board_is_at_most_three_reads_for_a_viewer_below_the_page(
    make_user, django_assert_max_num_queries
):
    day = services.today()
    users = [make_user() for _ in range(4)]
    for number, user in enumerate(users):
        game = Game.objects.create(owner=user, challenge_day=day, status=GameStatus.FINISHED)
        tenths = 950 - number // 2
        DailyAttempt.objects.create(
            day=day, user=user, game=game, display_name=str(user), grand_total=200 + number,
            accuracy=tenths / 10, accuracy_tenths=tenths, ranked=True,
            finished_at=datetime.now(UTC),
        )  # fmt: skip
        results.count_accuracy(day, tenths)

    with django_assert_max_num_queries(3):
        own = selectors.attempt(users[3], day)
        board = selectors.board(day, viewer=users[3], own=own, rows=2)

    assert [line.rank for line in board.lines] == [1, 1]  # equal accuracies share a rank
    assert board.mine is not None and board.mine.rank == 3  # 95.0, 95.0, 94.9, 94.9
    assert board.mine.accuracy_shown == "94.9%"


def test_days_to_come_and_malformed_days_have_no_board(player, client_for):
    client = client_for(player)
    tomorrow = (services.today() + timedelta(days=1)).isoformat()

    assert client.get(reverse("daily:board", args=[tomorrow])).status_code == 404
    assert client.get("/daily/2026-13-45/").status_code == 404


def _attempt(day: date, status: str) -> selectors.Attempt:
    return selectors.Attempt(day, 1, status, 200, 90.0, datetime.now(UTC), "Ann")


def test_the_streak_counts_days_finished_in_a_row():
    today = date(2026, 12, 3)
    played = [_attempt(today - timedelta(days=d), GameStatus.FINISHED) for d in (1, 2, 3, 5)]

    assert selectors.streak(played, today) == 3  # today still to play: up to yesterday
    assert selectors.streak([_attempt(today, GameStatus.FINISHED), *played], today) == 4
    assert selectors.streak([_attempt(today - timedelta(days=2), GameStatus.FINISHED)], today) == 0
    broken = [_attempt(today - timedelta(days=1), GameStatus.ABANDONED)]
    assert selectors.streak(broken, today) == 0


def test_the_streak_and_history_show_on_the_challenge_page(player, client_for):
    game = services.start_challenge(user=player)
    play_out(player, game.pk, hasty)

    page = text(client_for(player).get(TODAY))

    assert "Streak: <strong>1</strong> day in a row" in page
    assert "Replay and analyse your game" in page
    assert reverse("games:analysis", args=[game.pk, 0]) in page


def test_the_countdown_to_tomorrows_challenge(settings):
    now = datetime(2026, 12, 3, 18, 48, tzinfo=UTC)

    assert next_challenge_text(now) == (
        "Tomorrow's challenge in 5 h 12 min, at "
        '<time datetime="2026-12-04T00:00:00+00:00">00:00 UTC</time>'
    )
    settings.TIME_ZONE = "Europe/Paris"  # the site's day: 19:48 there
    assert countdown(clock.next_day_in(now)) == "4 h 12 min"
    assert next_challenge_text(now) == (
        "Tomorrow's challenge in 4 h 12 min, at "
        '<time datetime="2026-12-04T00:00:00+01:00">00:00 CET</time>'
    )
    assert countdown(timedelta(seconds=20)) == "0 h 1 min"


def test_the_dashboard_says_when_tomorrows_challenge_begins(player, client_for):
    page = text(client_for(player).get(reverse("games:dashboard")))

    assert re.search(
        r"Tomorrow's challenge in \d+ h \d+ min, at <time datetime=[^>]+>00:00 UTC<", page
    )
    assert reverse("daily:today") in page


def test_refusals_are_game_errors_answered_once(player):
    services.start_challenge(user=player)

    with pytest.raises(GameError, match="one attempt a day"):
        services.start_challenge(user=player)
    assert store.load(game_id=Game.objects.get().pk, user=player).game.challenge_day is not None


def test_the_day_is_the_sites_day(settings):
    late = datetime(2026, 12, 3, 23, 30, tzinfo=UTC)

    assert services.today(late) == date(2026, 12, 3)
    settings.TIME_ZONE = "Europe/Paris"  # already the 4th there
    assert services.today(late) == date(2026, 12, 4)


def test_a_finished_challenge_links_to_its_days_board(player, client_for):
    game = services.start_challenge(user=player)
    play_out(player, game.pk, hasty)

    page = text(client_for(player).get(reverse("games:play", args=[game.pk])))

    assert reverse("daily:board", args=[services.today().isoformat()]) in page


def test_a_challenge_has_no_guests_nor_computers(player):
    from games.tables import services as tables

    with pytest.raises(tables.BadGuests, match="played alone"):
        tables.start_game(owner=player, computers=["perfect"], challenge_day=services.today())
    assert not Game.objects.exists()


def test_anyone_sees_the_board_with_display_names_only(make_user, client, client_for):
    shown = veteran(make_user, "Shown Name", username="secret_login")
    game = services.start_challenge(user=shown)
    play_out(shown, game.pk, hasty)
    url = reverse("daily:board", args=[services.today().isoformat()])

    public = text(client.get(url))
    later = veteran(make_user, "Later")
    play_out(later, services.start_challenge(user=later).pk)

    assert "Shown Name" in public and "secret_login" not in public
    assert "Later" not in text(client.get(url))  # a visitor's board is drawn every few seconds
    assert "Later" in text(client_for(shown).get(url))  # a player's own view is live
