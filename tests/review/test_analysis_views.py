"""The analysis of a finished game: every decision beside the best, replayed from the log."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules, strategy
from games.models import Game
from games.play import actions as play
from games.review import replays
from games.review.selectors import game_record
from tests.factories import client_for, make_user, page_text, roll_now, score_now


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


def analysis_url(game: Game, position: int = 0) -> str:
    return reverse("games:analysis", kwargs={"game_id": game.pk, "position": position})


def play_out(game: Game, player, first_box: str = "chance") -> None:
    """Thirteen one-roll turns: five 6s in Chance first (a poor choice), then the rest."""
    roll_now(game, player, 6, 6, 6, 6, 6)
    score_now(game, player, first_box)
    for box in rules.CATEGORIES:
        if box.value != first_box:
            roll_now(game, player, 1, 2, 3, 4, 6)
            score_now(game, player, box.value)


def test_the_record_is_read_back_from_the_log_with_holds_and_undos(player, game) -> None:
    roll_now(game, player, 6, 6, 1, 2, 3)
    game.refresh_from_db()
    play.roll_dice(
        game_id=game.pk,
        user=player,
        version=game.version,
        held=[True, True, False, False, False],
        dice_source=lambda n: (6, 6, 6)[:n],
    )
    score_now(game, player, "chance")
    game.refresh_from_db()
    play.undo_score(game_id=game.pk, user=player, version=game.version)
    score_now(game, player, "sixes")

    record = game_record(game.seats.get())

    assert record.turns == (
        strategy.TurnRecord(
            rolls=((6, 6, 1, 2, 3), (6, 6, 6, 6, 6)),
            holds=((True, True, False, False, False),),
            box="sixes",
        ),
    )


def test_the_analysis_names_the_costliest_choice(alice_client, player, game) -> None:
    play_out(game, player)

    response = alice_client.get(analysis_url(game))

    text = page_text(response)
    assert response.status_code == 200
    assert "Final score" in text and "Perfect play from the first roll expects 254.6" in text
    assert (
        "Turn 1, after roll 1 (6, 6, 6, 6, 6): you chose “Score 30 in Chance”; "
        "best was “Score 50 in YAHTZEE”" in text
    )


def test_only_finished_games_of_the_viewer_are_analysed(alice_client, player, game) -> None:
    assert alice_client.get(analysis_url(game)).status_code == 404  # not finished
    play_out(game, player)
    stranger = client_for(make_user("mallory"))

    assert stranger.get(analysis_url(game)).status_code == 404
    assert alice_client.get(analysis_url(game, position=5)).status_code == 404


def test_the_game_over_panel_links_to_the_analysis(alice_client, player, game) -> None:
    play_out(game, player)

    page = alice_client.get(reverse("games:play", kwargs={"game_id": game.pk}))

    assert f'href="{analysis_url(game)}">Analyse this game' in page.text


def test_the_players_own_page_links_to_the_analysis_and_no_one_elses_does(
    alice_client, player, game
) -> None:
    play_out(game, player)
    page = reverse("player", kwargs={"public_id": player.public_id})

    own = alice_client.get(page)
    other = client_for(make_user("bob")).get(page)

    assert f'href="{analysis_url(game)}"' in own.text
    assert "analysis" not in page_text(other)


# --- What the page costs: a finished game is graded once, then read from the cache -------


@pytest.fixture
def analyses(monkeypatch) -> list[int]:
    """Counts each grading of a whole game (``strategy.analyse``), however it is reached."""
    calls: list[int] = []
    real = strategy.analyse

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(strategy, "analyse", counted)
    return calls


def test_a_finished_games_analysis_is_worked_out_once_then_read_back(
    alice_client, player, game, analyses
) -> None:
    play_out(game, player)

    first = alice_client.get(analysis_url(game))
    again = alice_client.get(analysis_url(game))

    assert len(analyses) == 1
    assert first.status_code == again.status_code == 200
    said = "you chose “Score 30 in Chance”; best was “Score 50 in YAHTZEE”"
    assert said in page_text(first) and said in page_text(again)


def test_its_replay_shares_the_one_grading(alice_client, player, game, analyses) -> None:
    play_out(game, player)

    alice_client.get(analysis_url(game))
    replay = alice_client.get(reverse("games:replay", kwargs={"game_id": game.pk, "position": 0}))

    assert replay.status_code == 200 and len(analyses) == 1


def test_a_game_still_in_play_is_never_read_back_stale(player, game, analyses) -> None:
    roll_now(game, player, 6, 6, 6, 6, 6)
    score_now(game, player, "chance")
    game.refresh_from_db()
    seat = game.seats.get()
    first = replays.replay_of(seat)
    assert replays.replay_of(seat) == first  # the same, worked out again: nothing kept

    roll_now(game, player, 6, 6, 6, 6, 6)
    score_now(game, player, "yahtzee")
    seat = game.seats.get()
    then = replays.replay_of(seat)

    assert [step.choice for step in first.steps] == ["Score 30 in Chance"]
    assert [step.choice for step in then.steps] == ["Score 30 in Chance", "Score 50 in YAHTZEE"]
    assert len(analyses) == 3
