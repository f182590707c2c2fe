"""The coach, through the game's views: after a costly decision of a player who turned it on, a
short note beside the card (the exact sentence, the best choices under "Show"); silence after a
best or close choice, with the coach off, in the daily challenge and for guests; the note is its
player's alone and goes with their next move; a coached game is marked in the high scores.

The positions were picked with the advisor (figures in each test's comment), so each sentence
is what perfect play says of it, to one decimal."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import advice, rules, store, strategy
from games.daily import services as daily
from games.models import Game, Score, Seat
from games.play import actions as play
from games.tables import services
from tests.factories import HTMX, cards_of, client_for, page_text, roll_now, score_now

ALL = (True,) * rules.DICE_COUNT


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


@pytest.fixture
def coached(player: User) -> User:
    User.objects.filter(pk=player.pk).update(coach=True)
    player.refresh_from_db()
    return player


def roll_view(client: Client, game: Game, next_dice, *dice: int, held: Sequence[int] = (), **kw):
    """Roll ``dice`` (the ones thrown) through the view, holding the dice numbered ``held``."""
    next_dice(*dice)
    game.refresh_from_db()
    data = {"version": game.version, "held": [str(i) for i in held]}
    return client.post(reverse("games:roll", args=[game.pk]), data, **kw)


def score_view(client: Client, game: Game, box: str, **kw):
    game.refresh_from_db()
    data = {"version": game.version, "box": box}
    return client.post(reverse("games:score", args=[game.pk]), data, **kw)


def note(response) -> str:
    """The coach's note in an answer ("" when there is none)."""
    html = response.text
    if 'id="coach-note"' not in html:
        return ""
    start = html.index('<div id="coach-note"')
    return page_text(html[start : html.index("</div>", start)])


def test_holding_5_5_6_over_5_5_is_said_with_the_best_choices_under_show(
    alice_client, coached, game, next_dice
) -> None:
    # A new card, first roll 5 5 6 2 1: holding the two 5s expects 253.0, 5 5 6 251.1 (1.95).
    roll_view(alice_client, game, next_dice, 5, 5, 6, 2, 1, headers=HTMX)

    answer = roll_view(alice_client, game, next_dice, 3, 4, held=[0, 1, 2], headers=HTMX)

    said = note(answer)
    assert said.startswith(
        "Holding 5 5 was worth 2.0 more expected points than 5 5 6. Show the best choices"
    )
    assert 'role="status"' in answer.text.split('id="coach-note"')[1][:40]
    assert "Your dice after roll 1:" in said
    assert 'aria-label="Dice 5, 5, 6, 2, 1; you held 5, 5 and 6"' in answer.text
    best = said.split("Show the best choices")[1]
    assert best.index("Hold the two 5s expect 253.0") < best.index("Hold 5, 5 and 6 yours")
    assert "Hold 5, 5 and 6 yours expect 251.1" in best
    assert "An estimate" not in said  # Classic solitaire: exact
    seat = Seat.objects.get()
    assert seat.coached and seat.coach_note["sentence"].startswith("Holding 5 5 was worth 2.0")


def test_a_full_house_scored_as_chance_is_named_with_both_scores(
    alice_client, player, game, next_dice
) -> None:
    # 4 4 4 5 5 after the third roll of a new card: Full House 253.9, Chance (22) 242.0.
    roll_now(game, player, 4, 4, 4, 5, 5)
    roll_now(game, player, held=ALL)
    roll_now(game, player, held=ALL)
    User.objects.filter(pk=player.pk).update(coach=True)

    answer = score_view(alice_client, game, "chance", headers=HTMX)

    said = note(answer)
    assert said.startswith("Full House (25) was worth 12.0 more expected points than Chance (22).")
    assert "Score 25 in Full House expect 253.9" in said
    assert "Yours: Score 22 in Chance expect 242.0" in said  # not among the best three


def test_three_of_a_kind_early_over_fours(alice_client, player, game) -> None:
    # 4 4 4 2 3 after three rolls of a new card: Fours (12) 249.41, 3 of a Kind (17) 242.96.
    roll_now(game, player, 4, 4, 4, 2, 3)
    roll_now(game, player, held=ALL)
    roll_now(game, player, held=ALL)
    User.objects.filter(pk=player.pk).update(coach=True)

    said = note(score_view(alice_client, game, "three_of_a_kind", headers=HTMX))

    assert said.startswith("Fours (12) was worth 6.5 more expected points than 3 of a Kind (17).")


def test_a_box_scored_where_holding_on_was_better(alice_client, player, game) -> None:
    # 4 4 4 5 5 after two rolls of a new card: hold the three 4s 255.25, Full House 253.91.
    roll_now(game, player, 4, 4, 4, 5, 5)
    roll_now(game, player, held=ALL)
    User.objects.filter(pk=player.pk).update(coach=True)

    said = note(score_view(alice_client, game, "full_house", headers=HTMX))

    assert said.startswith("Holding 4 4 4 was worth 1.3 more expected points than Full House (25).")
    assert "Your dice after roll 2:" in said


def test_threes_scored_on_five_3s_when_the_yahtzee_box_is_open(
    alice_client, coached, game, next_dice
) -> None:
    # Five 3s on the first roll, YAHTZEE open: 50 there expects 320.8, Threes (15) 264.4.
    roll_view(alice_client, game, next_dice, 3, 3, 3, 3, 3, headers=HTMX)

    said = note(score_view(alice_client, game, "threes", headers=HTMX))

    assert said.startswith("YAHTZEE (50) was worth 56.4 more expected points than Threes (15).")


def test_the_best_choice_passes_in_silence_and_still_marks_the_game(
    alice_client, coached, game, next_dice
) -> None:
    roll_view(alice_client, game, next_dice, 5, 5, 6, 2, 1, headers=HTMX)

    answer = roll_view(alice_client, game, next_dice, 3, 4, 1, held=[0, 1], headers=HTMX)

    assert answer.status_code == 200 and note(answer) == ""
    seat = Seat.objects.get()
    assert seat.coach_note is None and seat.coached


def test_a_close_choice_is_silent_under_the_threshold_and_said_over_a_lower_one(
    alice_client, coached, game, next_dice
) -> None:
    # 1 2 3 3 4 on a new card: hold the two 3s 251.41, hold 1 2 3 4 251.13 (0.27 less).
    roll_view(alice_client, game, next_dice, 1, 2, 3, 3, 4, headers=HTMX)
    quiet = roll_view(alice_client, game, next_dice, 6, held=[0, 1, 2, 4], headers=HTMX)
    assert note(quiet) == ""

    User.objects.filter(pk=coached.pk).update(coach_threshold=Decimal("0.2"))
    again = services.start_game(owner=coached)
    roll_view(alice_client, again, next_dice, 1, 2, 3, 3, 4, headers=HTMX)
    spoken = roll_view(alice_client, again, next_dice, 6, held=[0, 1, 2, 4], headers=HTMX)
    assert note(spoken).startswith("Holding 3 3 was worth 0.3 more expected points than 1 2 3 4.")


def test_with_the_coach_off_nothing_is_said_or_marked(
    alice_client, player, game, next_dice
) -> None:
    roll_view(alice_client, game, next_dice, 3, 3, 3, 3, 3, headers=HTMX)

    answer = score_view(alice_client, game, "threes", headers=HTMX)

    assert note(answer) == ""
    seat = Seat.objects.get()
    assert (seat.coached, seat.coach_note) == (False, None)


def test_the_daily_challenge_is_never_coached(coached) -> None:
    User.objects.filter(pk=coached.pk).update(confirm_zero=False)
    game = daily.start_challenge(user=coached)
    rolled = play.roll_dice(game_id=game.pk, user=coached, version=game.version)
    match = rolled.match()
    ranked = advice.advisor().options(match.sheets[0], match.turn)
    boxes = [o for o in ranked if o.points is not None]
    worst = boxes[-1]
    assert boxes[0].expected - worst.expected >= 10  # a choice the coach would speak of

    answer = score_view(client_for(coached), game, worst.action.box.value, headers=HTMX)

    assert answer.status_code == 200 and note(answer) == ""
    seat = Seat.objects.get(game=game)
    assert worst.action.box.value in cards_of(game)[0]  # scored: the coach had its chance
    assert (seat.coached, seat.coach_note) == (False, None)


def test_the_note_stays_until_the_next_decision_which_takes_it_down(
    alice_client, coached, game, next_dice
) -> None:
    roll_view(alice_client, game, next_dice, 3, 3, 3, 3, 3, headers=HTMX)
    assert note(score_view(alice_client, game, "threes", headers=HTMX))
    # Still there when the page is drawn again (a reload, another device of theirs), and after
    # the next turn's first roll, which decides nothing.
    assert note(alice_client.get(reverse("games:play", args=[game.pk])))
    assert note(roll_view(alice_client, game, next_dice, 1, 2, 4, 5, 6, headers=HTMX))
    match = store.load(game_id=game.pk, user=coached).match()
    best = advice.advisor().options(match.sheets[0], match.turn)[0].action
    assert isinstance(best, strategy.RollDice)  # a straight to draw to: a hold
    held = [i for i, kept in enumerate(best.held) if kept]
    thrown = [6] * (rules.DICE_COUNT - len(held))

    answer = roll_view(alice_client, game, next_dice, *thrown, held=held, headers=HTMX)

    assert note(answer) == "" and Seat.objects.get().coach_note is None


def test_an_undo_takes_the_note_down_with_the_box(alice_client, coached, game, next_dice) -> None:
    roll_view(alice_client, game, next_dice, 3, 3, 3, 3, 3, headers=HTMX)
    score_view(alice_client, game, "threes", headers=HTMX)
    game.refresh_from_db()

    answer = alice_client.post(
        reverse("games:undo", args=[game.pk]), {"version": game.version}, headers=HTMX
    )

    assert answer.status_code == 200 and note(answer) == ""
    assert Seat.objects.get().coach_note is None


def test_without_javascript_the_note_is_on_the_page_the_move_leads_to(
    alice_client, coached, game, next_dice
) -> None:
    roll_view(alice_client, game, next_dice, 3, 3, 3, 3, 3)

    answer = score_view(alice_client, game, "threes", follow=True)

    assert note(answer).startswith(
        "YAHTZEE (50) was worth 56.4 more expected points than Threes (15)."
    )
    assert "<details" in answer.text.split('id="coach-note"')[1]


def test_in_a_game_of_two_the_note_is_an_estimate_and_its_player_s_alone(
    make_user, player, next_dice
) -> None:
    bob = make_user("bob", coach=True)
    User.objects.filter(pk=player.pk).update(coach=True)
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    alice, bobs = client_for(player), client_for(bob)
    roll_view(alice, game, next_dice, 3, 3, 3, 3, 3, headers=HTMX)

    said = note(score_view(alice, game, "threes", headers=HTMX))

    assert said.startswith("YAHTZEE (50) was worth ")
    assert "An estimate: exact play is known for a Classic or Yatzy game played alone." in said
    assert note(bobs.get(reverse("games:play", args=[game.pk]))) == ""
    assert note(alice.get(reverse("games:play", args=[game.pk])))


def test_triple_names_the_column_and_says_it_is_an_estimate(
    alice_client, player, next_dice
) -> None:
    # 4 4 4 5 5 after three rolls of a new Triple card: Full House in column 1 (x1) is best by
    # 0.68 over column 2's (the stated estimate: each column valued as a Classic game).
    game = services.start_game(owner=player, kind="triple")
    roll_now(game, player, 4, 4, 4, 5, 5)
    roll_now(game, player, held=ALL)
    roll_now(game, player, held=ALL)
    User.objects.filter(pk=player.pk).update(coach=True)

    said = note(score_view(alice_client, game, "full_house:1", headers=HTMX))

    assert said.startswith(
        "Full House in column 1 (25) was worth 0.7 more expected points than "
        "Full House in column 2 (25)."
    )
    assert "An estimate: exact play is known for a Classic or Yatzy game played alone." in said


def test_a_guest_at_the_host_s_screen_is_not_coached(alice_client, coached, next_dice) -> None:
    game = services.start_game(owner=coached, guests=["Ann"])
    roll_view(alice_client, game, next_dice, 3, 3, 3, 3, 3, headers=HTMX)
    assert note(score_view(alice_client, game, "threes", headers=HTMX))  # the host's own
    assert note(roll_view(alice_client, game, next_dice, 3, 3, 3, 3, 3, headers=HTMX))

    answer = score_view(alice_client, game, "threes", headers=HTMX)  # Ann's costly choice

    assert note(answer) == ""  # not graded; the host's note went with this decision
    host, ann = Seat.objects.filter(game=game).order_by("position")
    assert (host.coached, host.coach_note) == (True, None)
    assert (ann.coached, ann.coach_note) == (False, None)


def test_a_coached_game_is_marked_in_the_top_ten_and_its_last_note_shown_at_the_end(
    client, alice_client, coached, game, next_dice
) -> None:
    for box in rules.CATEGORIES[:-1]:
        roll_now(game, coached, 1, 2, 3, 4, 6)
        score_now(game, coached, box.value)
    roll_view(alice_client, game, next_dice, 6, 6, 6, 6, 6, headers=HTMX)

    answer = score_view(alice_client, game, "chance", headers=HTMX)  # the only box left

    assert "Game over" in page_text(answer) and note(answer) == ""
    assert Score.objects.get().coached and Score.objects.get().hints == 0
    text = page_text(client.get(reverse("high_scores")))
    assert "Alice played with the coach" in text
    assert "played with hints" not in text


def test_the_last_box_of_a_game_can_be_coached_on_the_game_over_page(
    alice_client, coached, game, next_dice
) -> None:
    User.objects.filter(pk=coached.pk).update(confirm_zero=False)
    for box in rules.CATEGORIES[:-2]:
        roll_now(game, coached, 1, 2, 3, 4, 6)
        score_now(game, coached, box.value)
    roll_view(alice_client, game, next_dice, 6, 6, 6, 6, 6, headers=HTMX)  # Chance and YAHTZEE open
    score_view(alice_client, game, "chance", headers=HTMX)
    roll_view(alice_client, game, next_dice, 1, 1, 2, 3, 5, headers=HTMX)

    answer = score_view(alice_client, game, "yahtzee", headers=HTMX)

    assert "Game over" in page_text(answer)
    said = note(answer)
    # Only YAHTZEE left, 1 1 2 3 5 on the first roll: holding the 1s expects 77.5, a 0 now 76.0.
    assert said.startswith("Holding 1 1 was worth 1.5 more expected points than YAHTZEE (0).")
    assert "Yours: Score 0 in YAHTZEE expect 76.0" in said


def test_a_yatzy_game_alone_is_coached_exactly_by_yatzys_table(
    alice_client, coached, next_dice
) -> None:
    game = services.start_game(owner=coached, kind="yatzy")
    roll_now(game, coached, 6, 6, 6, 6, 2)
    game.refresh_from_db()
    match = store.match_of(game)
    ranked = advice.advisor(rules.YATZY).options(match.sheets[0], match.turn)
    chance = next(o for o in ranked if o.action == strategy.ScoreBox(0, rules.Box.CHANCE))

    answer = score_view(alice_client, game, "chance", headers=HTMX)

    said = note(answer)
    loss = ranked[0].expected - chance.expected
    assert said.startswith("Holding 6 6 6 6 was worth ")
    assert f"was worth {loss:.1f} more expected points than Chance (26)." in said
    assert "An estimate" not in said  # Yatzy solitaire: exact, by its own table
    assert Seat.objects.get(game=game).coached
