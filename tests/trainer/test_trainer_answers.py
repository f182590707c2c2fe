"""Answering a position on the trainer's page: the verdict beside the best choice (the advisor's
own figures), the running score, bad input refused changing nothing, who may see what, and
nothing of a game: no trial game used, nothing in the high scores."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import TRIAL_GAMES
from games import advice, rules, strategy
from games.models import Game, Score
from games.trainer import instructive, tally
from games.trainer.models import TrainingPosition
from games.trainer.positions import Position
from tests.factories import HTMX, client_for, make_user, page_text

NOW = datetime(2026, 5, 4, 20, 0, tzinfo=UTC)
TRAIN = reverse("games:trainer:train")


@pytest.fixture(autouse=True)
def _table_and_clock(strategy_ready, monkeypatch) -> None:
    monkeypatch.setattr(timezone, "now", lambda: NOW)


def answer_url(row: TrainingPosition) -> str:
    return reverse("games:trainer:answer", kwargs={"position_id": row.pk})


def position_url(row: TrainingPosition) -> str:
    return reverse("games:trainer:position", kwargs={"position_id": row.pk})


def shown(client) -> TrainingPosition:
    """The position the trainer's page shows now."""
    page = client.get(TRAIN)
    assert page.status_code == 200
    return page.context["row"]


def ranked(item: instructive.Instructive) -> list[strategy.Option]:
    position = item.position
    return advice.advisor().options(position.sheet, position.turn)


def option(options: list[strategy.Option], description: str) -> strategy.Option:
    return next(o for o in options if o.description == description)


def form_of(action: strategy.Action) -> dict[str, object]:
    """What the page's form sends for ``action``."""
    if isinstance(action, strategy.ScoreBox):
        return {"box": action.box.value}
    return {"roll": "1", "held": [str(i) for i, held in enumerate(action.held) if held]}


def answer_best(client) -> TrainingPosition:
    row = shown(client)
    position = Position.from_json(row.position)
    best = advice.advisor().options(position.sheet, position.turn)[0].action
    assert client.post(answer_url(row), form_of(best)).status_code == 302
    return row


def unchanged(row: TrainingPosition) -> bool:
    before = (row.right, row.wrong, row.due_at, row.answered_at, row.interval_days)
    row.refresh_from_db()
    return (row.right, row.wrong, row.due_at, row.answered_at, row.interval_days) == before


# --- The verdict ------------------------------------------------------------------------------


def test_a_box_not_the_best_is_answered_with_the_best_its_value_and_the_cost(
    alice_client,
) -> None:
    row = shown(alice_client)  # the set's first: 5 5 5 5 3 after the third roll
    options = ranked(instructive.SET[0])
    best, mine = options[0], option(options, "Score 23 in 4 of a Kind")

    page = alice_client.post(answer_url(row), {"box": "four_of_a_kind"}, headers=HTMX)

    text = page_text(page)
    assert page.status_code == 200 and "<html" not in page.text  # the fragment htmx swaps
    assert best.description == "Score 20 in Fives"
    assert (
        f"Not the best choice Yours Score 23 in 4 of a Kind expects {mine.expected:.1f} "
        f"Best Score 20 in Fives expects {best.expected:.1f} "
        f"Cost −{best.expected - mine.expected:.1f} expected points "
        "Missed: it comes back tomorrow." in text
    )
    assert text.count("4 of a Kind expects") == 1  # said once: no sentence repeating it
    assert page.headers["HX-Push-Url"] == position_url(row)
    row.refresh_from_db()
    assert (row.wrong, row.right, row.interval_days) == (1, 0, 1)
    assert row.last_answer == {"box": "four_of_a_kind"}


def test_the_best_hold_is_answered_as_the_best_and_the_position_is_learned(alice_client) -> None:
    first = shown(alice_client)
    alice_client.post(answer_url(first), {"box": "fives"})
    row = shown(alice_client)  # the set's second: 3 4 5 5 6 on the first roll
    best = ranked(instructive.SET[1])[0]
    assert best.action == strategy.RollDice((False, False, True, True, False))

    page = alice_client.post(answer_url(row), {"roll": "1", "held": ["2", "3"]}, headers=HTMX)

    text = page_text(page)
    assert (
        f"✓ The best choice Yours Hold the two 5s expects {best.expected:.1f} "
        "Learned at first sight: this position does not come back." in text
    )  # the best, the same choice, is not listed a second time
    row.refresh_from_db()
    assert row.learned_at == NOW and row.right == 1


def test_a_worse_hold_says_what_it_cost(alice_client) -> None:
    alice_client.post(answer_url(shown(alice_client)), {"box": "fives"})
    row = shown(alice_client)
    options = ranked(instructive.SET[1])
    mine = option(options, "Hold 3, 4, 5 and 6")

    page = alice_client.post(answer_url(row), {"roll": "1", "held": ["0", "1", "2", "4"]})
    assert page.status_code == 302 and page.headers["Location"] == position_url(row)
    verdict = alice_client.get(position_url(row))  # without JavaScript: the position's page

    loss = options[0].expected - mine.expected
    assert f"Yours Hold 3, 4, 5 and 6 expects {mine.expected:.1f}" in page_text(verdict)
    assert f"Cost −{loss:.1f} expected points" in page_text(verdict)


def test_holding_the_other_of_two_equal_dice_is_the_same_choice(alice_client, player) -> None:
    item = instructive.BY_SLUG["straights-two-twos-and-a-run"]  # 2 2 3 4 5: hold 2, 3, 4, 5
    row = TrainingPosition.objects.create(
        user=player, key=f"set:{item.slug}", source="set", position=item.position.to_json(),
        due_at=NOW,
    )  # fmt: skip
    assert shown(alice_client).pk == row.pk
    assert ranked(item)[0].action == strategy.RollDice((True, False, True, True, True))

    page = alice_client.post(answer_url(row), {"roll": "1", "held": ["1", "2", "3", "4"]})

    text = page_text(alice_client.get(page.headers["Location"]))
    assert "✓ The best choice Yours Hold 2, 3, 4 and 5 expects" in text
    assert "Best Hold" not in text
    row.refresh_from_db()
    assert (row.right, row.wrong) == (1, 0)


def test_nothing_to_train_says_when_the_next_position_comes_back(alice_client, monkeypatch) -> None:
    monkeypatch.setattr(instructive, "SET", instructive.SET[:1])
    alice_client.post(answer_url(shown(alice_client)), {"box": "four_of_a_kind"})

    page = alice_client.get(TRAIN)

    assert page.status_code == 200 and page.context["row"] is None
    assert (
        "Nothing to train right now You have answered every position there is for now. "
        "1 position you missed comes back later, the first tomorrow ." in page_text(page)
    )


def test_the_running_score_counts_tries_best_choices_and_points_lost(alice_client) -> None:
    options = ranked(instructive.SET[0])
    lost = options[0].expected - option(options, "Score 23 in 4 of a Kind").expected
    alice_client.post(answer_url(shown(alice_client)), {"box": "four_of_a_kind"})
    alice_client.post(answer_url(shown(alice_client)), {"roll": "1", "held": ["2", "3"]})

    kept = tally.read(alice_client.session)
    page = alice_client.get(TRAIN)

    assert (kept.tried, kept.best) == (2, 1) and kept.lost == pytest.approx(lost)
    assert f"Tried 2 Best choices 1 Points lost {lost:.1f}" in page_text(page)
    alice_client.post(reverse("games:trainer:restart"))
    assert tally.read(alice_client.session) == tally.Tally()


def test_an_own_position_says_what_was_chosen_in_the_game(alice_client, player) -> None:
    from tests.trainer.trainer_support import finished_game, one_roll_turns

    game = finished_game(player, one_roll_turns(("chance",)), finished_at=NOW)
    row = shown(alice_client)
    assert "From your game of 4 May 2026" in page_text(alice_client.get(TRAIN))

    page = alice_client.post(answer_url(row), {"box": "yahtzee"})
    text = page_text(alice_client.get(page.headers["Location"]))

    assert row.seat.game_id == game.pk
    assert "✓ The best choice Yours Score 50 in YAHTZEE expects" in text
    position = Position.from_json(row.position)
    played = strategy.grade(
        advice.advisor(), position.sheet, position.turn, strategy.ScoreBox(0, rules.Box.CHANCE)
    )
    assert f"In your game of 4 May you chose: score 30 in Chance — {played.loss:.1f} less" in text


def test_an_own_position_right_just_after_the_game_is_not_learned_until_weeks_later(
    alice_client, player, monkeypatch
) -> None:
    """The game's choice was the miss (the coach may have shown the best a minute before): a
    first best answer is the first of the spaced ones, and the one that learns the position
    comes 14 days after the last."""
    from datetime import timedelta

    from tests.trainer.trainer_support import finished_game, one_roll_turns

    finished_game(player, one_roll_turns(("chance",)), finished_at=NOW)
    row = shown(alice_client)
    assert row.source == "own"

    page = alice_client.post(answer_url(row), {"box": "yahtzee"}, headers=HTMX)

    assert "Right: it comes back in 3 days (Thursday 7 May)" in page_text(page)
    assert "Learned" not in page_text(page)
    row.refresh_from_db()
    assert row.learned_at is None and row.interval_days == 3
    for days, said in [(3, "in 7 days"), (7 + 3, "in 14 days"), (14 + 7 + 3, "")]:
        later = NOW + timedelta(days=days)
        monkeypatch.setattr(timezone, "now", lambda later=later: later)
        client = client_for(player)  # weeks later: logged in again
        text = page_text(client.post(answer_url(row), {"box": "yahtzee"}, headers=HTMX))
        if said:
            assert f"Right: it comes back {said}" in text
    assert "Learned: best again after its longest wait, so it does not come back." in text
    row.refresh_from_db()
    assert row.right == 4 and row.learned_at == NOW + timedelta(days=24)


def test_a_choice_as_good_as_the_best_but_another_says_so_once() -> None:
    from zoneinfo import ZoneInfo

    from games.trainer import presenters

    item = instructive.SET[1]  # 3 4 5 5 6 on the first roll
    sheet = item.position.sheet
    best = strategy.Option(strategy.RollDice((False, False, True, True, False)), 20.0, "Hold 5 5")
    other = strategy.Option(strategy.RollDice((False, False, False, False, True)), 20.0, "Hold 6")
    decision = strategy.Decision(1, 1, item.position.dice, other, best, sheet)
    row = TrainingPosition(source="set", key="set:x", position={}, due_at=NOW, learned_at=NOW)
    row.right = 1

    said = presenters.verdict(row, decision, played=None, today=NOW.date(), zone=ZoneInfo("UTC"))

    assert said.is_best and not said.same
    assert said.note == "Just as good: yours and the best expect the same."
    assert (said.yours, said.best) == ("Hold 6", "Hold 5 5")


# --- Bad input changes nothing ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"box": "aces"}, "Aces is already filled."),
        ({"box": "sevens"}, "There is no box called “sevens”."),
        ({"roll": "1"}, "You have used all three rolls: choose a box to score."),
        ({"roll": "1", "held": ["7"]}, "there is no die 8 to hold"),
        ({"roll": "1", "held": ["x"]}, "there is no die “x” to hold"),
        # Digits of other scripts and numbers too long for int() are no dice either (were 500s).
        ({"roll": "1", "held": ["²"]}, "there is no die “²” to hold"),
        ({"roll": "1", "held": ["①"]}, "there is no die “①” to hold"),
        ({"roll": "1", "held": ["١"]}, "there is no die “١” to hold"),
        ({"roll": "1", "held": ["9" * 5000]}, "there is no die “999999999999…” to hold"),
        ({"roll": "1", "held": ["1", "1"]}, "Die 2 was sent twice"),
        ({}, "Choose a box to score, or the dice to hold and then Roll."),
        ({"box": "fives", "roll": "1"}, "Choose a box to score or dice to roll, not both."),
    ],
)
def test_bad_answers_are_refused_saying_why_and_change_nothing(alice_client, data, message) -> None:
    row = shown(alice_client)  # after the third roll: Aces filled, no roll left

    page = alice_client.post(answer_url(row), data, headers=HTMX)

    assert page.status_code == 400
    assert message in page_text(page)
    assert unchanged(row) and row.answered_at is None
    assert tally.read(alice_client.session) == tally.Tally()


def test_the_joker_rule_refuses_a_box_it_does_not_allow(alice_client) -> None:
    answer_best(alice_client)
    answer_best(alice_client)
    row = shown(alice_client)  # five 6s, Sixes and YAHTZEE filled
    assert row.key == f"set:{instructive.SET[2].slug}"

    page = alice_client.post(answer_url(row), {"box": "threes"})

    assert page.status_code == 400
    assert "The Joker rule says this five of a kind must go in:" in page_text(page)
    assert unchanged(row)


def test_a_second_answer_to_a_position_is_refused_and_changes_nothing(alice_client) -> None:
    row = shown(alice_client)
    alice_client.post(answer_url(row), {"box": "four_of_a_kind"})
    row.refresh_from_db()

    again = alice_client.post(answer_url(row), {"box": "fives"}, headers=HTMX)

    assert again.status_code == 409
    assert "You have answered this position already: it comes back tomorrow." in page_text(again)
    assert unchanged(row) and (row.right, row.wrong) == (0, 1)
    assert tally.read(alice_client.session).tried == 1


# --- Who may train, and what it touches -------------------------------------------------------


def test_logged_out_visitors_are_sent_to_log_in(client, player) -> None:
    row = shown(client_for(player))

    for answer in (client.get(TRAIN), client.post(answer_url(row), {"box": "fives"})):
        assert answer.status_code == 302 and "/accounts/login/" in answer.headers["Location"]
    assert unchanged(row)


def test_another_accounts_position_or_a_forged_one_is_not_found(alice_client, make_user) -> None:
    bob = client_for(make_user("bob"))
    row = shown(bob)
    forged = reverse("games:trainer:answer", kwargs={"position_id": row.pk + 1000})

    assert alice_client.get(position_url(row)).status_code == 404
    assert alice_client.post(answer_url(row), {"box": "fives"}).status_code == 404
    assert alice_client.post(forged, {"box": "fives"}).status_code == 404
    assert unchanged(row)


def test_a_trial_account_trains_without_using_a_game_or_scoring(db) -> None:
    spent = make_user("trial", trial_games_used=TRIAL_GAMES, email_confirmed=False)
    client = client_for(spent)

    for _ in range(3):
        answer_best(client)

    spent.refresh_from_db()
    assert spent.trial_games_used == TRIAL_GAMES
    assert not Game.objects.exists() and not Score.objects.exists()
    assert TrainingPosition.objects.filter(user=spent, answered_at__isnull=False).count() == 3


def test_the_page_varies_with_htmx_and_swaps_its_own_root(alice_client) -> None:
    full = alice_client.get(TRAIN)
    fragment = alice_client.get(TRAIN, headers=HTMX)

    assert "HX-Request" in full.headers["Vary"] and "HX-Request" in fragment.headers["Vary"]
    assert "<html" in full.text and "<html" not in fragment.text
    assert fragment.text.lstrip().startswith("<title>")
    assert 'id="trainer"' in fragment.text


def test_the_dashboard_and_the_menu_lead_to_the_trainer(alice_client) -> None:
    page = alice_client.get(reverse("games:dashboard"))

    assert page.text.count(f'href="{TRAIN}"') == 2


def test_the_page_reads_a_few_rows_however_many_games_were_played(
    alice_client, player, django_assert_max_num_queries
) -> None:
    """Once each game has given its positions, a visit reads the session, the account, the
    position due, the latest games (three reads, ``seat_user_turn``), the next position and
    where the training stands."""
    from tests.trainer.trainer_support import finished_game, one_roll_turns

    for _ in range(3):
        finished_game(player, one_roll_turns(("chance",)))
    alice_client.get(TRAIN)  # takes the games' mistakes, once

    with django_assert_max_num_queries(10):
        page = alice_client.get(TRAIN)

    assert page.context["row"].source == "own"
