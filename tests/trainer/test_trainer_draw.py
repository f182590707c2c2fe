"""The trainer's draw: positions due again first, then the player's own costly decisions from
their recent finished games alone (costliest first), then the instructive set in its order; and
its spacing: a miss comes back the next day and not before, a best answer waits its interval."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from accounts.models import User
from games import advice, strategy
from games.models import Seat
from games.play import actions as play
from games.review.selectors import game_record
from games.tables import services as tables
from games.trainer import instructive, selectors, services
from games.trainer.models import Source, TrainerHarvest, TrainingPosition
from games.trainer.positions import Position
from tests.factories import play_out, roll_now, score_now
from tests.trainer.trainer_support import finished_game, hasty_game, one_roll_turns

MONDAY_EVENING = datetime(2026, 5, 4, 20, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _table(strategy_ready) -> None:
    pass


def best_action(row: TrainingPosition) -> strategy.Action:
    position = Position.from_json(row.position)
    return advice.advisor().options(position.sheet, position.turn)[0].action


def worse_action(row: TrainingPosition) -> strategy.Action:
    position = Position.from_json(row.position)
    return advice.advisor().options(position.sheet, position.turn)[1].action


def answer(row: TrainingPosition, action: strategy.Action, now: datetime) -> services.Answer:
    return services.answer(user=row.user, position_id=row.pk, action=action, now=now)


def draw(user: User, now: datetime = MONDAY_EVENING) -> TrainingPosition:
    found = services.draw(user=user, now=now)
    assert found is not None
    return found


def costly(seat: Seat) -> list[strategy.Decision]:
    """The analysis' own decisions of ``seat`` costing half a point or more, costliest first."""
    found = strategy.analyse(advice.advisor(), game_record(seat))
    return sorted((d for d in found.decisions if d.loss >= 0.5), key=lambda d: -d.loss)


# --- Where positions come from ----------------------------------------------------------------


def test_a_player_without_games_gets_the_instructive_set_in_its_order(player) -> None:
    first = draw(player)
    assert (first.key, first.source, first.theme) == (
        f"set:{instructive.SET[0].slug}",
        Source.SET,
        instructive.SET[0].theme,
    )
    assert draw(player).pk == first.pk  # drawn again until answered: the same row

    answer(first, best_action(first), MONDAY_EVENING)

    second = draw(player)
    assert second.key == f"set:{instructive.SET[1].slug}"
    assert Position.from_json(second.position) == instructive.SET[1].position


def test_own_mistakes_come_first_costliest_first_then_the_set(player) -> None:
    game = finished_game(player, one_roll_turns(("chance",)))
    expected = costly(game.seats.get())
    assert len(expected) == 13  # more than one game may give: its ten costliest are trained

    drawn = []
    for _ in range(services.PER_GAME):
        row = draw(player)
        assert row.source == Source.OWN and row.seat_id == game.seats.get().pk
        drawn.append(row)
        answer(row, worse_action(row), MONDAY_EVENING)
    after = draw(player)

    assert [row.cost for row in drawn] == pytest.approx([d.loss for d in expected[:10]])
    first = Position.from_json(drawn[0].position)
    assert (first.dice, dict(first.card), first.rolls_used) == ((6, 6, 6, 6, 6), {}, 1)
    assert drawn[0].played == {"box": "chance"}
    assert after.key == f"set:{instructive.SET[0].slug}"


def test_decisions_that_cost_less_than_the_threshold_are_not_trained(player, monkeypatch) -> None:
    """With the threshold at 5 points: the last turn's hold (4.8) and box (4.5) stay out, as
    does the best choice (five 6s in YAHTZEE); the eleven dearer choices are trained."""
    monkeypatch.setattr(services, "COSTLY", 5.0)
    monkeypatch.setattr(services, "PER_GAME", 100)
    turns = one_roll_turns(("yahtzee",))
    turns[-1] = ([(1, 2, 3, 4, 6), (1, 2, 3, 4, 5)], [(True, True, True, True, False)], "chance")
    game = finished_game(player, turns)
    losses = sorted(d.loss for d in costly(game.seats.get()))
    assert [round(x, 1) for x in losses[:3]] == [4.5, 4.8, 5.4]

    services.harvest(user=player, now=MONDAY_EVENING)

    trained = TrainingPosition.objects.filter(user=player, source=Source.OWN)
    assert sorted(trained.values_list("cost", flat=True)) == pytest.approx(losses[2:])
    assert trained.count() == 11


def test_own_mistakes_of_several_games_come_costliest_first(player) -> None:
    """Five 6s scored in YAHTZEE (the best) leaves smaller mistakes than in Chance."""
    cheap = finished_game(player, one_roll_turns(("yahtzee",)))
    dear = finished_game(player, one_roll_turns(("chance",)))
    losses = sorted(
        [d.loss for d in costly(cheap.seats.get())[:10]]
        + [d.loss for d in costly(dear.seats.get())[:10]],
        reverse=True,
    )

    drawn = []
    for _ in range(len(losses)):
        row = draw(player)
        drawn.append(row)
        answer(row, best_action(row), MONDAY_EVENING)

    assert [row.cost for row in drawn] == pytest.approx(losses)
    assert {row.seat_id for row in drawn} == {cheap.seats.get().pk, dear.seats.get().pk}


def test_a_position_after_a_hold_keeps_the_dice_held_and_its_roll(player) -> None:
    turns = one_roll_turns(("chance",))
    turns[0] = ([(6, 6, 1, 2, 3), (6, 6, 6, 6, 6)], [(True, True, False, False, False)], "chance")
    finished_game(player, turns)

    row = draw(player)

    position = Position.from_json(row.position)
    assert (position.dice, position.rolls_used) == ((6, 6, 6, 6, 6), 2)
    assert position.held == (True, True, False, False, False)


def test_each_finished_game_is_analysed_once(player, monkeypatch) -> None:
    game = finished_game(player, one_roll_turns(("chance",)))
    draw(player)
    assert TrainerHarvest.objects.get(seat__game=game).positions == services.PER_GAME

    def analysed_again(seat: Seat) -> list[services.Mistake]:
        raise AssertionError(f"seat {seat.pk} analysed again")

    monkeypatch.setattr(services, "mistakes_in", analysed_again)
    for _ in range(3):
        row = draw(player)
        answer(row, best_action(row), MONDAY_EVENING)


def test_only_the_latest_games_give_positions(player, monkeypatch) -> None:
    monkeypatch.setattr(selectors, "RECENT_GAMES", 1)
    older = finished_game(player, one_roll_turns(("chance",)), finished_at=MONDAY_EVENING)
    newer = finished_game(
        player, one_roll_turns(("yahtzee",)), finished_at=MONDAY_EVENING + timedelta(hours=1)
    )

    draw(player)

    taken = set(TrainingPosition.objects.filter(user=player).values_list("seat_id", flat=True))
    assert taken == {newer.seats.get().pk} and older.seats.get().pk not in taken


def test_games_with_others_and_unfinished_games_give_no_positions(player) -> None:
    hasty_game(player, guests=["Bob"])
    hasty_game(player, computers=["beginner"])
    unfinished = tables.start_game(owner=player)
    roll_now(unfinished, player, 6, 6, 6, 6, 6)
    score_now(unfinished, player, "chance")  # a costly choice, in a game not finished
    abandoned = tables.start_game(owner=player)
    roll_now(abandoned, player, 6, 6, 6, 6, 6)
    score_now(abandoned, player, "chance")
    play.abandon_game(game_id=abandoned.pk, user=player)

    row = draw(player)

    assert row.source == Source.SET
    assert not TrainingPosition.objects.filter(source=Source.OWN).exists()


def test_another_players_games_are_not_mine(player, make_user) -> None:
    bob = make_user("bob")
    finished_game(bob, one_roll_turns(("chance",)))

    assert draw(player).source == Source.SET
    assert draw(bob).source == Source.OWN


# --- When positions come back ------------------------------------------------------------------


def test_a_missed_position_comes_back_the_next_day_and_not_before(player) -> None:
    missed = draw(player)
    answer(missed, worse_action(missed), MONDAY_EVENING)
    midnight = datetime(2026, 5, 5, tzinfo=UTC)

    assert draw(player, midnight - timedelta(seconds=1)).pk != missed.pk
    assert draw(player, midnight).pk == missed.pk


def test_a_position_due_again_comes_before_new_ones_own_or_not(player) -> None:
    missed = draw(player)
    answer(missed, worse_action(missed), MONDAY_EVENING)
    finished_game(player, one_roll_turns(("chance",)))

    assert draw(player, MONDAY_EVENING + timedelta(days=1)).pk == missed.pk


def test_best_answers_after_a_miss_wait_3_7_and_14_days_then_it_is_learned(player) -> None:
    row = draw(player)
    answer(row, worse_action(row), MONDAY_EVENING)
    day = datetime(2026, 5, 5, 9, 0, tzinfo=UTC)
    for wait in (3, 7, 14):
        assert draw(player, day).pk == row.pk
        answer(row, best_action(row), day)
        day += timedelta(days=wait)
        assert draw(player, day - timedelta(hours=10)).pk != row.pk  # the evening before
        row.refresh_from_db()
        assert row.interval_days == wait and row.learned_at is None
    assert draw(player, day).pk == row.pk
    answer(row, best_action(row), day)

    row.refresh_from_db()
    assert (row.right, row.wrong, row.learned_at) == (4, 1, day)
    for later in range(1, 60, 7):
        assert draw(player, day + timedelta(days=later)).pk != row.pk


def test_a_position_right_at_first_sight_never_comes_back(player) -> None:
    row = draw(player)
    answer(row, best_action(row), MONDAY_EVENING)

    row.refresh_from_db()
    assert row.learned_at == MONDAY_EVENING and (row.right, row.wrong) == (1, 0)
    assert all(
        draw(player, MONDAY_EVENING + timedelta(days=d)).pk != row.pk for d in (1, 3, 7, 14, 30)
    )


def test_a_miss_late_in_the_evening_comes_back_from_midnight_where_the_player_lives(
    make_user,
) -> None:
    """20:00 UTC is 05:00 next morning in Tokyo: "tomorrow" is Tokyo's."""
    tokyo = make_user("kenji", time_zone="Asia/Tokyo")
    row = draw(tokyo)
    answer(row, worse_action(row), MONDAY_EVENING)

    row.refresh_from_db()
    assert row.due_at == datetime(2026, 5, 5, 15, 0, tzinfo=UTC)  # 6 May 00:00 in Tokyo


def test_nothing_left_says_so(player, monkeypatch) -> None:
    monkeypatch.setattr(instructive, "SET", instructive.SET[:2])
    for _ in range(2):
        row = draw(player)
        answer(row, worse_action(row), MONDAY_EVENING)

    assert services.draw(user=player, now=MONDAY_EVENING) is None
    standing = selectors.standing(player, MONDAY_EVENING)
    assert (standing.waiting, standing.learned) == (2, 0)
    assert standing.next_due == datetime(2026, 5, 5, tzinfo=UTC)


def test_a_finished_yatzy_game_gives_the_classic_trainer_nothing(player: User) -> None:
    game = tables.start_game(owner=player, kind="yatzy")
    play_out(game, player, bot="beginner", seed=8)  # a beginner's costly decisions

    assert services.mistakes_in(Seat.objects.select_related("game").get(game=game)) == []
    assert not TrainingPosition.objects.filter(user=player).exists()
