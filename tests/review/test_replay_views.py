"""A finished game step by step: the dice, the hold or box, the best choice and its cost at any
step; public while in a top ten, 404 otherwise; a player's shared link and its result card."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from accounts.models import User
from games import advice, rules
from games.daily.services import today
from games.models import Game, Score, SharedGame
from games.play import actions as play
from games.scores.selectors import public_rank
from games.tables import services
from tests.factories import (
    HTMX,
    client_for,
    finished_game,
    make_user,
    page_text,
    roll_now,
    score_now,
)


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


@pytest.fixture
def queen(db) -> User:
    """A player whose login name and address must never show on a public page."""
    return make_user("queen_login", display_name="Dice Queen", email="queen@private.example")


def replay_url(game: Game, position: int = 0) -> str:
    return reverse("games:replay", kwargs={"game_id": game.pk, "position": position})


def play_known_game(player: User) -> Game:
    """Turn 1: 6 6 1 2 3, the two 6s held, three 6s come: five 6s, scored in Chance (YAHTZEE was
    best). Then twelve one-roll turns of 1 2 3 4 6, a box each in the card's order."""
    game = services.start_game(owner=player)
    roll_now(game, player, 6, 6, 1, 2, 3)
    game.refresh_from_db()
    play.roll_dice(
        game_id=game.pk,
        user=player,
        version=game.version,
        held=[True, True, False, False, False],
        dice_source=lambda n: (6, 6, 6)[:n],
    )
    game_over(game, player)
    game.refresh_from_db()
    return game


def game_over(game: Game, player: User) -> Game:
    """Score the turn on the table in Chance, then twelve one-roll turns to the end."""
    score_now(game, player, "chance")
    for box in rules.CATEGORIES:
        if box.value != "chance":
            roll_now(game, player, 1, 2, 3, 4, 6)
            score_now(game, player, box.value)
    return game


def best_and_cost(turn: rules.Turn, sheet: rules.Sheet, description: str) -> tuple[str, float]:
    """What the advisor itself ranks first for this position, and what ``description`` costs."""
    ranked = advice.advisor().options(sheet, turn)
    chosen = next(o for o in ranked if o.description == description)
    return ranked[0].description, ranked[0].expected - chosen.expected


def test_a_step_shows_the_dice_the_box_chosen_and_the_best_with_its_cost(queen) -> None:
    game = play_known_game(queen)
    best, cost = best_and_cost(
        rules.Turn(dice=(6, 6, 6, 6, 6), held=(True, True, False, False, False), rolls_used=2),
        rules.Sheet(),
        "Score 30 in Chance",
    )

    response = client_for(queen).get(replay_url(game), {"step": 2})

    text = page_text(response)
    assert response.status_code == 200
    assert best == "Score 50 in YAHTZEE" and cost > 1
    assert "Step 2 of 15" in text and "Turn 1 of 13, after roll 2" in text
    assert re.findall(r'data-die="(\d)"', response.text) == ["6"] * 5
    assert "Chosen Score 30 in Chance" in text
    assert f"Best {best} (expects" in text
    assert f"Cost −{cost:.1f} expected points" in text
    # The card as it stood: the box chosen and the best one are marked with their points.
    assert re.search(r'data-mark="chosen">[^<]*<span[^>]*>✎</span> 30<', response.text)
    assert re.search(r'data-mark="best">[^<]*<span[^>]*>★</span> 50<', response.text)


def test_a_hold_step_shows_which_dice_were_held_and_the_best_hold(queen) -> None:
    game = play_known_game(queen)
    best, cost = best_and_cost(
        rules.Turn(dice=(6, 6, 1, 2, 3), rolls_used=1), rules.Sheet(), "Hold the two 6s"
    )

    response = client_for(queen).get(replay_url(game), {"step": 1})

    text = page_text(response)
    dice = re.findall(r'<span class="preview-die( is-held)?" data-die="(\d)"', response.text)
    assert dice == [(" is-held", "6"), (" is-held", "6"), ("", "1"), ("", "2"), ("", "3")]
    assert "Turn 1 of 13, after roll 1" in text and "Chosen Hold the two 6s" in text
    if cost < 1e-9:
        assert "Best ✓ the best" in text
    else:
        assert f"Best {best} (expects" in text


def test_a_step_after_a_reroll_shows_the_turns_earlier_rolls_and_the_dice_kept(queen) -> None:
    game = play_known_game(queen)
    client = client_for(queen)

    first = page_text(client.get(replay_url(game), {"step": 1}))
    second = client.get(replay_url(game), {"step": 2})

    assert "after roll 1 Roll 1: 6, 6, 1, 2, 3 Chosen Hold the two 6s" in first
    assert (
        "Turn 1 of 13, after roll 2 Roll 1 : 6, 6, 1, 2, 3; kept 6 and 6 "
        "Roll 2: 6, 6, 6, 6, 6 Chosen Score 30 in Chance" in page_text(second)
    )
    kept = re.search(r'data-roll-number="1">.*?</li>', second.text, re.S)
    assert kept is not None
    assert re.findall(r'preview-die( is-held)?"', kept.group()) == [" is-held"] * 2 + [""] * 3


def test_the_turns_say_in_words_which_cost_points_beside_a_legend(queen) -> None:
    game = play_known_game(queen)

    page = client_for(queen).get(replay_url(game))

    assert (
        "Go to a turn ✓ every decision of the turn was the best "
        "✗ a decision of the turn cost points 1 2 3" in page_text(page)
    )
    named = re.findall(r'class="replay-turn[^"]*" aria-label="([^"]+)">(\d+)<', page.text)
    assert named[:2] == [
        ("Turn 1: a decision cost points", "1"),
        ("Turn 2: a decision cost points", "2"),
    ]


def test_a_turn_played_best_throughout_is_named_so(queen) -> None:
    from tests.trainer.trainer_support import hasty_game

    game = hasty_game(queen, computers=["perfect"])

    page = client_for(queen).get(replay_url(game, position=1))

    named = re.findall(r'class="replay-turn is-best" aria-label="([^"]+)">', page.text)
    assert named[:2] == ["Turn 1: every decision the best", "Turn 2: every decision the best"]
    assert len(named) == 13


def test_a_later_step_shows_the_card_so_far_and_the_end_shows_the_final_card(queen) -> None:
    game = play_known_game(queen)
    client = client_for(queen)

    third = client.get(replay_url(game), {"step": 3})
    end = client.get(replay_url(game), {"step": 999})  # past the end: the end

    assert "Turn 2 of 13, after roll 1" in page_text(third)
    assert re.search(r"<th scope=\"row\">Chance</th><td class=\"num\">30</td>", third.text)
    assert "The end: " in page_text(end) and "Step 15 of 15" in page_text(end)
    total = game.seats.get().grand_total
    assert f'<th scope="row">Total</th><td class="num" colspan="1">{total}</td>' in end.text


def test_next_and_previous_over_htmx_answer_with_the_step_alone(queen) -> None:
    game = play_known_game(queen)

    response = client_for(queen).get(replay_url(game), {"step": 5}, headers=HTMX)

    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.lstrip().startswith('<section id="replay-step"')
    assert f'href="{replay_url(game)}?step=4"' in response.text
    assert f'hx-get="{replay_url(game)}?step=6"' in response.text
    assert "HX-Request" in response["Vary"]


def test_a_top_ten_game_is_watched_logged_out_with_display_names_only(queen) -> None:
    game = play_known_game(queen)

    response = Client().get(replay_url(game), {"step": 2})

    assert response.status_code == 200
    assert "Dice Queen" in response.text
    assert "queen_login" not in response.text and "queen@private" not in response.text
    assert "Share this game" not in response.text  # only for the card's own player


def test_the_top_ten_links_each_score_to_its_replay(queen) -> None:
    game = play_known_game(queen)

    page = Client().get(reverse("high_scores"))

    assert f'href="{replay_url(game)}"' in page.text


def test_a_game_out_of_every_top_ten_is_404_but_to_its_players(queen) -> None:
    game = play_known_game(queen)
    total = game.seats.get().grand_total
    for i in range(10):
        finished_game(make_user(f"better{i}"), total + 1 + i)  # ten better, all this week

    assert public_rank(Score.objects.get(game=game)) is None
    assert Client().get(replay_url(game)).status_code == 404
    assert client_for(make_user("stranger")).get(replay_url(game)).status_code == 404
    assert client_for(queen).get(replay_url(game)).status_code == 200


def test_a_recent_score_out_of_the_all_time_ten_stays_public_in_its_week(queen) -> None:
    game = play_known_game(queen)
    total = game.seats.get().grand_total
    old = Score.objects.get(game=game).finished_at.replace(year=2020)
    for i in range(10):
        finished_game(make_user(f"old{i}"), total + 1 + i, when=old)

    assert public_rank(Score.objects.get(game=game)) == (1, "30d")
    assert Client().get(replay_url(game)).status_code == 200


def test_an_unfinished_game_has_no_replay(queen) -> None:
    game = services.start_game(owner=queen)

    assert client_for(queen).get(replay_url(game)).status_code == 404


def share(client: Client, game: Game, action: str = "share"):
    return client.post(reverse(f"games:{action}", kwargs={"game_id": game.pk, "position": 0}))


def test_share_open_logged_out_then_withdraw_and_the_link_is_gone(queen) -> None:
    game = play_known_game(queen)
    for i in range(10):  # out of the top ten: only the link shows it
        finished_game(make_user(f"better{i}"), 400 + i)
    owner = client_for(queen)

    assert share(owner, game).status_code == 302
    token = SharedGame.objects.get(seat__game=game).token
    link = reverse("shared", kwargs={"token": token})
    assert link in owner.get(replay_url(game)).text  # the owner sees the link to copy
    visitor = Client()
    page = visitor.get(link, {"step": 2})

    assert page.status_code == 200
    assert "Dice Queen" in page.text and "Chosen Score 30 in Chance" in page_text(page)
    assert "queen_login" not in page.text and "queen@private" not in page.text
    image = f"http://testserver{reverse('shared_card', kwargs={'token': token})}"
    assert f'<meta property="og:image" content="{image}">' in page.text
    assert '<meta name="robots" content="noindex">' in page.text

    assert share(owner, game, "withdraw").status_code == 302
    assert visitor.get(link).status_code == 404
    assert visitor.get(reverse("shared_card", kwargs={"token": token})).status_code == 404
    assert Client().get(replay_url(game)).status_code == 404


def test_sharing_twice_keeps_one_link_and_sharing_again_after_withdrawing_makes_a_new_one(
    queen,
) -> None:
    game = play_known_game(queen)
    owner = client_for(queen)
    share(owner, game)
    share(owner, game)
    first = SharedGame.objects.get(seat__game=game).token

    share(owner, game, "withdraw")
    share(owner, game)

    again = SharedGame.objects.get(seat__game=game).token
    assert again != first and len(again) >= 40
    assert Client().get(reverse("shared", kwargs={"token": first})).status_code == 404


def test_only_the_cards_own_player_may_share_or_withdraw(queen) -> None:
    game = play_known_game(queen)
    owner = client_for(queen)
    share(owner, game)
    token = SharedGame.objects.get().token

    assert share(client_for(make_user("mallory")), game).status_code == 404
    assert share(client_for(make_user("mallory2")), game, "withdraw").status_code == 404
    assert share(Client(), game).status_code == 302  # to the log-in page
    assert (
        owner.get(reverse("games:share", kwargs={"game_id": game.pk, "position": 0})).status_code
        == 405
    )
    assert SharedGame.objects.get().token == token


def test_sharing_needs_the_csrf_token(queen) -> None:
    game = play_known_game(queen)
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(queen)

    assert share(guarded, game).status_code == 403
    assert not SharedGame.objects.exists()


def test_an_unfinished_game_cannot_be_shared(queen) -> None:
    game = services.start_game(owner=queen)

    response = client_for(queen).post(
        reverse("games:share", kwargs={"game_id": game.pk, "position": 0})
    )

    assert response.status_code == 409
    assert not SharedGame.objects.exists()


def test_the_result_card_is_a_png_of_the_size_the_page_announces(queen) -> None:
    game = play_known_game(queen)
    share(client_for(queen), game)
    token = SharedGame.objects.get().token

    response = Client().get(reverse("shared_card", kwargs={"token": token}))

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    picture = Image.open(io.BytesIO(response.content))
    assert picture.format == "PNG" and picture.size == (1200, 630)
    assert Client().head(reverse("shared_card", kwargs={"token": token})).status_code == 200
    page = Client().get(reverse("shared", kwargs={"token": token})).text
    assert '<meta property="og:image:width" content="1200">' in page
    assert '<meta property="og:image:height" content="630">' in page


def test_a_game_of_several_is_graded_by_the_stated_estimate_and_a_guests_card_stays_private(
    queen,
) -> None:
    game = services.start_game(owner=queen, guests=["Guest Gus"])
    for box in rules.CATEGORIES:  # the host plays for the guest at her screen
        for _seat in range(2):
            roll_now(game, queen, 1, 2, 3, 4, 6)
            score_now(game, queen, box.value)
    game.refresh_from_db()

    page = Client().get(replay_url(game, 0), {"step": 1})
    guest_card = Client().get(replay_url(game, 1))

    assert page.status_code == 200
    assert "(one of 2 players)" in page_text(page)
    assert "An estimate: exact grading is known for a Classic or Yatzy game alone" in page_text(
        page
    )
    assert "Exact: graded by the solved table" not in page_text(page)
    assert guest_card.status_code == 404  # a guest's typed name is never public
    assert client_for(queen).get(replay_url(game, 1)).status_code == 200  # but to the host


def test_the_game_over_panel_links_to_the_replay(queen) -> None:
    game = play_known_game(queen)

    page = client_for(queen).get(reverse("games:play", kwargs={"game_id": game.pk}))

    assert f'href="{replay_url(game)}">Replay or share' in page.text


def test_a_result_without_its_moves_shows_its_card_and_says_it_cannot_be_replayed(queen) -> None:
    score = finished_game(queen, 20)

    response = Client().get(replay_url(score.game))

    assert response.status_code == 200
    assert "This game's log holds no moves: it cannot be replayed." in page_text(response)
    assert "Accuracy" not in page_text(response)
    assert "Step 1 of 1" in page_text(response) and "The end: 20 points" in page_text(response)


def test_a_triple_game_is_replayed_by_column_with_the_estimate_and_its_card_drawn(queen) -> None:
    game = services.start_game(owner=queen, kind=rules.TRIPLE.key)
    for column in range(3):
        for box in rules.CATEGORIES:
            roll_now(game, queen, 2, 2, 3, 4, 5)
            score_now(game, queen, box.value, column)
    game.refresh_from_db()
    client = client_for(queen)
    client.post(reverse("games:share", kwargs={"game_id": game.pk, "position": 0}))
    token = SharedGame.objects.get().token

    step = client.get(replay_url(game), {"step": 39})
    card = Client().get(reverse("shared_card", kwargs={"token": token}))

    text = page_text(step)
    assert "Turn 39 of 39, after roll 1" in text and "Column 3" in text
    assert "Chosen Score 16 in Chance of column 3" in text
    assert "An estimate" in text
    assert Image.open(io.BytesIO(card.content)).size == (1200, 630)


def test_a_visitor_stepping_through_a_top_ten_game_costs_three_queries_a_step(
    queen, django_assert_num_queries
) -> None:
    game = play_known_game(queen)
    visitor = Client()
    visitor.get(replay_url(game), {"step": 1})  # graded once, then kept

    with django_assert_num_queries(3):  # the card, its score, the ten ahead of it
        response = visitor.get(replay_url(game), {"step": 2}, headers=HTMX)

    assert "Score 30 in Chance" in response.text


def test_a_costly_hold_shows_the_dice_the_best_choice_would_have_held(queen) -> None:
    game = services.start_game(owner=queen)
    roll_now(game, queen, 6, 6, 6, 1, 2)
    game.refresh_from_db()
    play.roll_dice(
        game_id=game.pk,
        user=queen,
        version=game.version,
        held=[False, False, False, True, True],  # the 1 and the 2 kept, the three 6s thrown
        dice_source=lambda n: (3, 4, 5)[:n],
    )
    best, cost = best_and_cost(
        rules.Turn(dice=(6, 6, 6, 1, 2), rolls_used=1), rules.Sheet(), "Hold 1 and 2"
    )

    response = client_for(queen).get(replay_url(game_over(game, queen)), {"step": 1})

    held = re.findall(r'class="preview-die( is-held)?" data-die="(\d)"', response.text)
    best_held = re.findall(r'class="preview-die( is-held)?" data-best-die="(\d)"', response.text)
    assert best == "Hold the three 6s" and cost > 1
    assert held == [("", "6"), ("", "6"), ("", "6"), (" is-held", "1"), (" is-held", "2")]
    assert best_held == [(" is-held", "6")] * 3 + [("", "1"), ("", "2")]
    assert f"Cost −{cost:.1f} expected points" in page_text(response)


def test_the_shared_page_keeps_the_content_security_policy(queen) -> None:
    game = play_known_game(queen)
    share(client_for(queen), game)
    token = SharedGame.objects.get().token

    page = Client().get(reverse("shared", kwargs={"token": token}))

    policy = page["Content-Security-Policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce is not None and "'unsafe-inline'" not in policy
    scripts = re.findall(r"<script\b[^>]*>", page.text)
    assert scripts and all(f'nonce="{nonce.group(1)}"' in tag and "src=" in tag for tag in scripts)
    assert '<script src="/static/js/replay.js"' in page.text
    assert not re.search(r"\son[a-z]+=|\sstyle=", page.text)  # no inline handlers or styles


def test_a_daily_challenge_is_its_players_alone_until_its_day_is_over(queen) -> None:
    # The day's dice are everyone's that day: no link may show them, and the top ten never
    # ranks a challenge (another account could have read the dice for it).
    day = today()
    game = services.start_game(owner=queen, challenge_day=day)
    for box in rules.CATEGORIES:
        roll_now(game, queen, 1, 2, 3, 4, 6)  # the day's dice are thrown, not these
        score_now(game, queen, box.value)
    game.refresh_from_db()
    seat = game.seats.get()
    assert public_rank(Score.objects.get(seat=seat)) is None  # in no top ten

    owner, stranger = client_for(queen), Client()
    page = owner.get(replay_url(game))
    assert page.status_code == 200 and "Share this game</button>" not in page.text
    assert "it can be shared once the day is over" in page.text
    assert stranger.get(replay_url(game)).status_code == 404
    refused = share(owner, game)
    assert refused.status_code == 409
    assert "once its day is over" in refused.text
    assert not SharedGame.objects.filter(seat=seat).exists()

    Game.objects.filter(pk=game.pk).update(challenge_day=day - timedelta(days=1))
    assert stranger.get(replay_url(game)).status_code == 404  # in no public table
    assert "Share this game</button>" in owner.get(replay_url(game)).text
    assert share(owner, game).status_code == 302
