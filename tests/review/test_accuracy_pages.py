"""Accuracy where a player sees it: at game over (the page asks for it until the task worker
has worked it out), on the dashboard's finished games, in the analysis, as the trend of the
player's page, and explained on the help page with the computer players' measured figures."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games import rules
from games.models import Game, Grading, Score, Seat
from games.play import presenters
from games.review import tasks
from games.scores.presenters import accuracy_trend
from games.tables import services
from tests.factories import HTMX, client_for, finished_game, make_user, page_text, play_out


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


def graded(user, accuracies: list[float], *, how: str = Grading.EXACT) -> None:
    """Finished games of ``user``'s, oldest first, graded at ``accuracies``."""
    for day, accuracy in enumerate(accuracies):
        seat = finished_game(user, 200 + day, when=None).seat
        Seat.objects.filter(pk=seat.pk).update(accuracy=accuracy, grading=how, game_over=True)


def graded_out(game: Game, player, *, seed: int) -> float:
    """``game`` played to its end by a beginner and graded, as the task worker grades it once
    the last move commits: the accuracy of its first seat."""
    play_out(game, player, bot="beginner", seed=seed)
    tasks.grade_game.call(game_id=game.pk)
    accuracy = Seat.objects.get(game=game, position=0).accuracy
    assert accuracy is not None
    return accuracy


def test_game_over_shows_the_accuracy_with_a_link_to_the_analysis(player, alice_client) -> None:
    game = services.start_game(owner=player)
    graded_out(game, player, seed=11)
    accuracy = Seat.objects.get(game=game).accuracy
    assert accuracy is not None and accuracy < 100

    page = alice_client.get(reverse("games:play", args=[game.pk]))

    line = page.text.split('id="game-accuracy"', 1)[1].split("</p>", 1)[0]
    assert f"Accuracy {accuracy:.1f}% · see the analysis" in page_text("<p " + line)
    assert f'href="/play/{game.pk}/analysis/0/"' in line
    assert "estimate" not in line and "hx-get" not in line


def last_scoring_due(match: rules.Match) -> bool:
    """The last seat has rolled in the last round: its scoring ends the game."""
    return match.sheets[-1].boxes_filled == rules.CLASSIC.rounds - 1 and (
        match.on_turn == len(match.sheets) - 1 and match.turn.has_rolled
    )


def last_score(client, game: Game, player, *, seed: int, callbacks) -> str:
    """``game`` played to its last box, which ``client`` scores by htmx; the answer checked to
    be the game over that asks for its grade a second later (it has not waited for it), the
    grading task enqueued for after the commit (``callbacks``). The grade's address."""
    table = play_out(game, player, bot="beginner", seed=seed, until=last_scoring_due)
    (box,) = [b.value for b in rules.CATEGORIES if b not in table.match().sheets[-1].cards[0]]

    with callbacks(execute=True) as committed:
        ended = client.post(
            reverse("games:score", args=[game.pk]),
            {"version": table.game.version, "box": box},
            headers=HTMX,
        )
        assert set(Seat.objects.filter(game=game).values_list("grading", flat=True)) == {""}

    assert committed, "the grading is asked for once the move commits"
    assert "Game over" in ended.text
    grade_url = reverse("games:grade", args=[game.pk])
    assert f'hx-get="{grade_url}" hx-trigger="load delay:1s"' in ended.text
    assert "Accuracy: being worked out…" in page_text(ended)
    return grade_url


def test_the_last_move_of_a_game_of_several_leaves_the_grading_to_the_worker(
    player, alice_client, django_capture_on_commit_callbacks
) -> None:
    game = services.start_game(owner=player, guests=["Ann"])

    grade_url = last_score(
        alice_client, game, player, seed=12, callbacks=django_capture_on_commit_callbacks
    )
    # The callbacks ran on leaving: the worker (run at once in tests) has graded both cards.
    answer = alice_client.get(grade_url, headers=HTMX)

    mine, ann = Seat.objects.filter(game=game).order_by("position")
    assert ann.grading == mine.grading == Grading.ESTIMATE
    assert page_text(answer) == (
        f"Accuracy {mine.accuracy:.1f}% · see the analysis "
        "An estimate: Triple, or a game of several."
    )
    assert 'id="game-accuracy"' in answer.text and "hx-get" not in answer.text
    again = alice_client.get(reverse("games:play", args=[game.pk]))
    assert f"Accuracy {mine.accuracy:.1f}%" in page_text(again)


def test_the_page_asks_again_while_the_grade_is_still_to_come(player, alice_client) -> None:
    game = services.start_game(owner=player)
    play_out(game, player, bot="beginner", seed=18)  # its commit's grading never ran
    url = reverse("games:grade", args=[game.pk])

    waiting = alice_client.get(url, headers=HTMX)

    assert Seat.objects.get(game=game).grading == Grading.PENDING  # asking grades nothing
    assert f'hx-get="{url}" hx-trigger="load delay:1s"' in waiting.text
    assert waiting["Cache-Control"] == "no-store"
    tasks.grade_game.call(game_id=game.pk)
    seat = Seat.objects.get(game=game)
    answer = alice_client.get(url, headers=HTMX)
    assert page_text(answer) == f"Accuracy {seat.accuracy:.1f}% · see the analysis"


def test_a_page_long_after_the_game_stops_asking_and_offers_a_reload(
    player, alice_client, monkeypatch
) -> None:
    game = services.start_game(owner=player)
    play_out(game, player, bot="beginner", seed=19)
    later = Game.objects.get(pk=game.pk).finished_at + presenters.GRADE_AWAITED
    monkeypatch.setattr(timezone, "now", lambda: later)

    page = alice_client.get(reverse("games:play", args=[game.pk]))

    line = page.text.split('id="game-accuracy"', 1)[1].split("</p>", 1)[0]
    assert "hx-get" not in line
    assert "Accuracy: being worked out… Show it" in page_text("<p " + line)


def test_without_javascript_the_grade_link_goes_back_to_the_game(player, alice_client) -> None:
    game = services.start_game(owner=player, computers=["good"])
    play_out(game, player, bot="good", seed=13)

    answer = alice_client.get(reverse("games:grade", args=[game.pk]))

    assert answer.status_code == 302 and answer["Location"] == f"/play/{game.pk}/"


def test_only_a_seated_player_may_ask_and_only_of_a_finished_game(player, alice_client) -> None:
    finished = services.start_game(owner=player, computers=["good"])
    play_out(finished, player, seed=14)
    open_game = services.start_game(owner=player)
    url = reverse("games:grade", args=[finished.pk])

    assert alice_client.post(url).status_code == 405
    assert client_for(make_user("mallory")).get(url, headers=HTMX).status_code == 404
    assert alice_client.get(reverse("games:grade", args=[open_game.pk])).status_code == 404
    assert not Seat.objects.filter(game=finished).exclude(grading="").exists()


def test_the_dashboard_lists_each_finished_games_accuracy(player, alice_client) -> None:
    game = services.start_game(owner=player)
    accuracy = graded_out(game, player, seed=15)
    triple = finished_game(player, 1500, kind="triple").seat
    Seat.objects.filter(pk=triple.pk).update(
        accuracy=88.06, grading=Grading.ESTIMATE, game_over=True
    )

    page = alice_client.get(reverse("games:dashboard"))

    rows = page.text.split('<table class="results">', 1)[1].split("</table>", 1)[0]
    assert "Accuracy" in page_text(rows.split("</thead>")[0])
    cells = re.findall(r'<td class="num">(.*?)</td>', rows)
    assert cells[1] == '<abbr title="An estimate: Triple, or a game of several">≈88.1%</abbr>'
    assert cells[3] == f"{accuracy:.1f}%"


def test_the_analysis_states_the_accuracy_and_its_sum(player, alice_client) -> None:
    game = services.start_game(owner=player)
    accuracy = graded_out(game, player, seed=16)

    page = page_text(alice_client.get(reverse("games:analysis", args=[game.pk, 0])))

    assert f"Accuracy {accuracy:.1f}% . It is 100 × (1 − " in page
    assert "÷ 254.59): the share of the expected points of best play that the decisions" in page


def test_the_players_page_states_the_trend_of_their_last_20_games(
    player, alice_client, client
) -> None:
    # Twenty games at 87.2 on average, then twenty at 91.4 (and five older ones left out).
    graded(player, [50.0] * 5 + [85.2, 89.2] * 10 + [90.4, 92.4] * 10)
    page_url = reverse("player", kwargs={"public_id": player.public_id})

    own = alice_client.get(page_url)
    theirs = client.get(page_url)

    mixed = (
        " The trend and the chart average every graded game together: exact for a Classic "
        "or Yatzy game played alone, the stated estimate for a game of several."
    )
    assert "Your last 20 games: 91.4, up from 87.2." + mixed in page_text(own)
    assert "Their last 20 games: 91.4, up from 87.2." + mixed in page_text(theirs)
    assert 'data-accuracy-trend aria-describedby="accuracy-trend-note"' in own.text
    for page in (own, theirs):
        chart = page.text.split("data-accuracy-chart>", 1)[1].split("</svg>", 1)[0]
        assert "Accuracy of each graded game, in the order played" in chart
        assert "45 graded games; average accuracy 84.9, latest 92.4." in chart
        assert len(re.search(r'points="([^"]+)"', chart)[1].split()) == 45  # type: ignore[index]


def test_a_player_without_a_graded_game_is_told_so(player, alice_client) -> None:
    finished_game(player, 240)  # finished, but from before there was grading

    page = page_text(alice_client.get(reverse("player", kwargs={"public_id": player.public_id})))

    assert "No game graded yet: each game's accuracy is worked out as it finishes." in page
    assert "last 20 games" not in page


def test_the_player_page_of_triple_says_its_accuracy_is_the_estimate(player, alice_client) -> None:
    graded(player, [80.0, 82.0], how=Grading.ESTIMATE)
    Game.objects.filter(seats__user=player).update(kind="triple")
    Score.objects.filter(user=player).update(kind="triple")
    url = reverse("player", kwargs={"public_id": player.public_id}) + "?kind=triple"

    page = page_text(alice_client.get(url))

    assert (
        "Your 2 games so far: 81.0. "
        "Triple is graded by the stated estimate: the trend and the chart compare estimates."
    ) in page


@pytest.mark.parametrize(
    ("accuracies", "own", "words"),
    [
        ([], True, ""),
        ([93.44], True, "Your one game so far: 93.4."),
        ([90.0] * 20, False, "Their 20 games so far: 90.0."),
        ([80.0] + [90.0] * 20, True, "Your last 20 games: 90.0, up from 80.0 in the game before."),
        ([95.0] * 5 + [90.0] * 20, True,
         "Your last 20 games: 90.0, down from 95.0 in the 5 before."),
        ([88.0] * 40, False, "Their last 20 games: 88.0, the same as the 20 before."),
        ([88.04] * 20 + [88.0] * 20, True, "Your last 20 games: 88.0, the same as the 20 before."),
        ([70.0] * 20 + [99.0] * 20 + [80.0] * 20, True,
         "Your last 20 games: 80.0, down from 99.0."),
    ],
)  # fmt: skip
def test_the_trend_in_words(accuracies: list[float], own: bool, words: str) -> None:
    assert accuracy_trend(accuracies, own=own) == words


def test_the_help_page_explains_accuracy_with_the_measured_figures(client) -> None:
    page = page_text(client.get(reverse("help")))

    assert (
        "Accuracy = 100 × (1 − points lost ÷ expected score of perfect play from the first roll)"
    ) in page
    assert "100 × (1 − 10.0 ÷ 254.59) = 96.1" in page
    assert "100 means perfect play on those dice" in page
    assert "accuracy is an estimate" in page
    assert "Perfect 100.0 0.0 100.0–100.0" in page
    assert "Good 98.3 1.2 93.1–100.0" in page
    assert "Beginner 81.3 6.3 52.3–96.2" in page
    assert "Simulated with make bench on 3 December 2026, seed 2026" in page
