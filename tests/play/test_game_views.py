"""The game pages and actions over HTTP: full pages, HTMX partials, and every bad input."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from accounts import licensing
from games import rules
from games.models import Game, GameStatus, Move
from games.play import actions as play
from games.tables import services
from tests.factories import HTMX, match_of, sheet_of


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.pk})


def state(game: Game) -> tuple:
    """Everything a request could change, to check that a refused one changed nothing."""
    game.refresh_from_db()
    match, sheet = match_of(game), sheet_of(game)
    return (
        game.status,
        game.version,
        match.turn.dice,
        match.turn.held,
        match.turn.rolls_used,
        game.round,
        sheet.cards,
        sheet.yahtzee_bonuses,
        game.state,  # all of the match (the undo too), as the store keeps it
        Move.objects.filter(game=game).count(),
    )


def post_roll(client, game, *, held=(), headers=HTMX, version=None):
    game.refresh_from_db()
    data = {"version": game.version if version is None else version, "held": list(held)}
    return client.post(url("roll", game), data, headers=headers)


def post_score(client, game, box, *, confirmed=False, headers=HTMX):
    game.refresh_from_db()
    data = {"version": game.version, "box": box}
    if confirmed:
        data = {"version": game.version, "confirmed": box}
    return client.post(url("score", game), data, headers=headers)


# --- Pages ----------------------------------------------------------------------------------


def test_the_front_page_invites_to_sign_up(client, db):
    response = client.get("/")
    assert response.status_code == 200
    assert reverse("accounts:signup") in response.text


def test_the_dashboard_needs_a_login(client, db):
    response = client.get(reverse("games:dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_the_dashboard_lists_games_in_progress_and_finished(alice_client, game, player):
    done = services.start_game(owner=player)
    play.abandon_game(game_id=done.pk, user=player)

    response = alice_client.get(reverse("games:dashboard"))

    assert response.status_code == 200
    assert url("play", game) in response.text
    assert "abandoned" in response.text


def test_new_game_starts_a_game_and_opens_it(alice_client, player):
    response = alice_client.post(reverse("games:new"), {"kind": "classic"})

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("play", game)
    assert game.owner == player


def test_new_game_refuses_get_and_unknown_kinds(alice_client):
    assert alice_client.get(reverse("games:new")).status_code == 405
    assert alice_client.post(reverse("games:new"), {"kind": "poker"}).status_code == 404
    assert not Game.objects.exists()


def test_the_game_page_shows_five_dice_and_thirteen_boxes(alice_client, game):
    response = alice_client.get(url("play", game))

    assert response.status_code == 200
    assert response.text.count('class="die-toggle"') == 5
    assert response.text.count('class="score-row') == 13
    assert "Round <strong>1</strong> of 13" in response.text
    assert response["Content-Security-Policy"].startswith("default-src 'self'")


def test_a_game_is_invisible_to_anyone_not_seated(client_for, game, make_user):
    stranger = client_for(make_user("mallory"))
    before = state(game)

    assert stranger.get(url("play", game)).status_code == 404
    for action in ("roll", "hold", "score", "abandon"):
        response = stranger.post(url(action, game), {"version": 0, "box": "chance"}, headers=HTMX)
        assert response.status_code == 404, action
    assert state(game) == before


def test_actions_need_a_login(client, game):
    response = client.post(url("roll", game), {"version": 0})
    assert response.status_code == 302
    assert state(game)[1] == 0


# --- Rolling and holding -------------------------------------------------------------------


def test_roll_over_htmx_answers_with_only_what_a_roll_changes(alice_client, game, next_dice):
    next_dice(2, 3, 4, 5, 6)

    response = post_roll(alice_client, game)

    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.startswith('<section id="tray"')  # swapped in place of the tray
    assert 'id="game"' not in response.text  # not the whole game
    for region in ("rows-upper", "rows-lower"):
        assert f'id="{region}" hx-swap-oob="true"' in response.text, region
    assert re.search(r'<input type="hidden" id="game-version" [^>]*value="1" hx-swap-oob="true">',
                     response.text)  # fmt: skip
    assert '<p id="turn-news" class="turn-news" hx-swap-oob="true">Roll 1' in response.text
    assert (
        '<ol hx-swap-oob="afterbegin:#move-log"><li>Roll 1: 2, 3, 4, 5, 6</li></ol>'
        in response.text
    )
    assert 'id="announcer" hx-swap-oob' in response.text
    assert 'value="large_straight"' in response.text and ">40</button>" in response.text
    assert "Roll 1: 2, 3, 4, 5, 6. 2 rolls left." in response.text
    assert "HX-Request" in response["Vary"]
    assert state(game)[2] == (2, 3, 4, 5, 6)


def test_roll_without_javascript_redirects_back_to_the_page(alice_client, game, next_dice):
    next_dice(1, 1, 2, 2, 3)

    response = post_roll(alice_client, game, headers={})

    assert response.status_code == 302
    assert response["Location"] == url("play", game)


def test_roll_applies_the_held_dice_sent_with_it(alice_client, game, next_dice):
    next_dice(6, 6, 1, 2, 6)
    post_roll(alice_client, game)
    dice = next_dice(6, 6)

    post_roll(alice_client, game, held=["0", "1", "4"])

    assert state(game)[2:5] == ((6, 6, 6, 6, 6), (True, True, False, False, True), 2)
    assert dice.asked == [2]


def test_hold_over_htmx_moves_only_the_version_on(alice_client, game, next_dice):
    next_dice(1, 2, 3, 4, 5)
    post_roll(alice_client, game)

    response = alice_client.post(url("hold", game), {"version": 1, "held": ["2"]}, headers=HTMX)

    assert response.status_code == 200
    assert response.text.strip() == (
        '<input type="hidden" id="game-version" name="version" value="2" hx-swap-oob="true">'
    )
    assert state(game)[3] == (False, False, True, False, False)


def test_a_fourth_roll_is_refused_with_the_game_unchanged(alice_client, game, next_dice):
    for _ in range(3):
        next_dice(1, 2, 3, 4, 6)
        post_roll(alice_client, game)
    before = state(game)

    response = post_roll(alice_client, game)

    assert response.status_code == 400
    assert "used all three rolls" in response.text
    assert state(game) == before


@pytest.mark.parametrize(
    "held",
    [["5"], ["-1"], ["x"], ["1", "1"], ["1.5"]],
    ids=["past-five", "negative", "not-a-number", "twice", "fraction"],
)
def test_a_malformed_hold_list_is_refused(alice_client, game, next_dice, held):
    next_dice(1, 2, 3, 4, 6)
    post_roll(alice_client, game)
    before = state(game)

    for action in ("hold", "roll"):
        response = alice_client.post(url(action, game), {"version": 1, "held": held}, headers=HTMX)
        assert response.status_code == 400, action
        assert "Dice to hold must be numbered 1 to 5" in response.text
    assert state(game) == before


def test_holding_before_the_first_roll_is_refused(alice_client, game):
    response = alice_client.post(url("hold", game), {"version": 0, "held": ["1"]}, headers=HTMX)

    assert response.status_code == 400
    assert "Roll the dice before holding" in response.text
    assert state(game)[1] == 0


@pytest.mark.parametrize("version", ["", "abc"])
def test_a_missing_or_garbled_version_is_refused(alice_client, game, version):
    response = alice_client.post(url("roll", game), {"version": version}, headers=HTMX)

    assert response.status_code == 400
    assert "The request was incomplete; here is the game as it is now." in response.text
    assert state(game)[1] == 0


def test_a_refused_roll_redraws_the_whole_game_not_just_the_tray(alice_client, game, next_dice):
    next_dice(1, 2, 3, 4, 6)
    post_roll(alice_client, game)

    response = post_roll(alice_client, game, version=0)

    assert response.status_code == 409
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#game", "outerHTML")
    assert 'id="game"' in response.text


def test_a_stale_request_answers_409_with_the_current_state(alice_client, game, next_dice):
    next_dice(1, 2, 3, 4, 6)
    post_roll(alice_client, game)
    before = state(game)

    response = post_roll(alice_client, game, version=0)

    assert response.status_code == 409
    assert "The game has moved on" in response.text
    assert "Roll 1: 1, 2, 3, 4, 6." in response.text
    assert state(game) == before


def test_a_double_submitted_roll_rolls_once(alice_client, game, next_dice):
    next_dice(1, 2, 3, 4, 6, 5, 5, 5, 5, 5)

    first = post_roll(alice_client, game, version=0)
    second = post_roll(alice_client, game, version=0)

    assert (first.status_code, second.status_code) == (200, 409)
    assert Move.objects.filter(game=game, action="roll").count() == 1


def test_posts_need_a_csrf_token(client_for, player, game):
    strict = client_for(player, enforce_csrf_checks=True)

    response = strict.post(url("roll", game), {"version": 0}, headers=HTMX)

    assert response.status_code == 403
    assert state(game)[1] == 0


def test_actions_refuse_get(alice_client, game):
    for action in ("roll", "hold", "score", "abandon"):
        assert alice_client.get(url(action, game)).status_code == 405


# --- Scoring -------------------------------------------------------------------------------


def test_scoring_fills_the_box_and_shows_it(alice_client, game, next_dice):
    next_dice(3, 3, 3, 2, 2)
    post_roll(alice_client, game)

    response = post_score(alice_client, game, "full_house")

    assert response.status_code == 200
    assert state(game)[6] == ({"full_house": 25},)
    assert "Round <strong>2</strong> of 13" in response.text
    assert '<span class="filled">25</span>' in response.text


def test_scoring_a_filled_box_is_refused(alice_client, game, next_dice):
    next_dice(3, 3, 3, 2, 2)
    post_roll(alice_client, game)
    post_score(alice_client, game, "full_house")
    next_dice(3, 3, 3, 2, 2)
    post_roll(alice_client, game)
    before = state(game)

    response = post_score(alice_client, game, "full_house")

    assert response.status_code == 400
    assert "Full House is already filled" in response.text
    assert state(game) == before


@pytest.mark.parametrize(
    ("box", "message"),
    [
        ("", "There is no box called ''."),
        ("bonus", "There is no box called 'bonus'."),
        ("aces:1", "There is no column 2."),
        ("aces:x", "There is no such column."),
    ],
)
def test_an_unknown_box_or_column_is_refused(alice_client, game, next_dice, box, message):
    next_dice(3, 3, 3, 2, 2)
    post_roll(alice_client, game)
    before = state(game)

    response = post_score(alice_client, game, box)

    assert response.status_code == 400
    # The message as the page reads it (HTML escapes a quote as &#39; or &#x27; alike).
    assert message in html.unescape(response.text)
    assert state(game) == before


def test_scoring_before_rolling_is_refused(alice_client, game):
    response = post_score(alice_client, game, "chance")

    assert response.status_code == 400
    assert "Roll the dice before scoring" in response.text


def test_a_zero_asks_for_confirmation_first(alice_client, game, next_dice):
    next_dice(1, 2, 3, 4, 6)
    post_roll(alice_client, game)
    before = state(game)

    asked = post_score(alice_client, game, "yahtzee")

    assert asked.status_code == 200
    assert "Score 0 in YAHTZEE?" in asked.text
    assert state(game) == before

    confirmed = post_score(alice_client, game, "yahtzee", confirmed=True)

    assert confirmed.status_code == 200
    assert state(game)[6] == ({"yahtzee": 0},)


def test_the_joker_rule_forbids_other_boxes(alice_client, game, next_dice, fill_card):
    fill_card(game, {"yahtzee": 50})
    next_dice(2, 2, 2, 2, 2)
    post_roll(alice_client, game)
    before = state(game)

    page = alice_client.get(url("play", game)).text
    response = post_score(alice_client, game, "chance")

    assert "Not allowed by the Joker rule" in page
    assert response.status_code == 400
    assert "must go in: Twos" in response.text
    assert state(game) == before


def test_the_last_box_shows_the_game_over_panel(alice_client, game, next_dice, fill_card):
    fill_card(game, {box: 0 for box in rules.CATEGORIES if box != "chance"})
    next_dice(6, 6, 6, 6, 5)
    post_roll(alice_client, game)

    response = post_score(alice_client, game, "chance")

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert "Game over" in response.text
    assert "Final score <strong>29</strong>" in response.text
    assert "Play again" in response.text


def test_abandon_ends_the_game_and_returns_to_the_dashboard(alice_client, game):
    response = alice_client.post(url("abandon", game))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:dashboard")
    assert state(game)[0] == GameStatus.ABANDONED
    assert alice_client.post(url("abandon", game), headers=HTMX).status_code == 409


# --- Cost ------------------------------------------------------------------------------------


def test_roll_and_score_requests_stay_small(
    settings, alice_client, game, next_dice, django_assert_num_queries
):
    # As without REDIS_URL (whatever the suite runs with): the session read from the database.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    next_dice(3, 3, 3, 2, 2)
    # session, user, SAVEPOINT, the seats with their game (locked), UPDATE game, INSERT move,
    # RELEASE: the answer is the tray and the card's offers, from what is in hand.
    with django_assert_num_queries(7):
        response = alice_client.post(url("roll", game), {"version": 0}, headers=HTMX)
    assert response.status_code == 200

    # ... and for scoring the same seven: the card is in the game's state, written with the
    # turn; the page keeps its log of moves (not read again), to which the answer adds the
    # line of this scoring.
    with django_assert_num_queries(7):
        response = alice_client.post(
            url("score", game), {"version": 1, "box": "full_house"}, headers=HTMX
        )
    assert response.status_code == 200
    assert state(game)[6] == ({"full_house": 25},)
    log = re.search(r'<ol id="move-log"[^>]*>(.*?)</ol>', response.text, re.S)
    assert log and 'hx-preserve="true"' in log.group(0) and "<li>" not in log.group(1)
    assert '<ol hx-swap-oob="afterbegin:#move-log"><li>25 in Full House</li></ol>' in response.text


def test_the_dashboard_reads_a_page_of_each_list_in_three_queries(
    settings, alice_client, player, django_assert_num_queries
):
    # As without REDIS_URL (whatever the suite runs with): the session read from the database.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    serial = licensing.mint_serials(count=1, batch_name="test")[0]
    licensing.redeem_serial(user=player, text=serial, client_ip="127.0.0.1")  # no trial limit
    for _ in range(12):
        play.abandon_game(game_id=services.start_game(owner=player).pk, user=player)
    for _ in range(11):
        services.start_game(owner=player)

    # session, user; a page of open games with their count, a page of ended ones, the live serial.
    with django_assert_num_queries(5):
        response = alice_client.get(reverse("games:dashboard"))

    assert 'Games in progress <span class="count">(11)</span>' in response.text
    assert response.text.count('class="game-item"') == 10
    assert response.text.count('<span class="tag">abandoned</span>') == 10
    assert 'href="?open=20&amp;done=10">Show more games in progress' in response.text
    assert 'href="?open=10&amp;done=20">Show more finished games' in response.text
    assert "{#" not in response.text and "{%" not in response.text  # no template text leaks


def test_show_more_finished_games_pages_on_and_bad_numbers_fall_back(alice_client, player):
    serial = licensing.mint_serials(count=1, batch_name="test")[0]
    licensing.redeem_serial(user=player, text=serial, client_ip="127.0.0.1")
    for _ in range(12):
        play.abandon_game(game_id=services.start_game(owner=player).pk, user=player)
    dashboard = reverse("games:dashboard")
    ended = '<span class="tag">abandoned</span>'

    more = alice_client.get(f"{dashboard}?open=10&done=20").text
    garbage = alice_client.get(f"{dashboard}?open=lots&done=-5").text

    assert more.count(ended) == 12 and "Show more finished games" not in more
    assert garbage.count(ended) == 10 and 'href="?open=10&amp;done=20"' in garbage
