"""The HTTP scenario's pure parts: reading the game's answers, and the figures and targets."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from bench import load, turns
from bench.client import Sample
from bench.load import FRONT, NOT_MODIFIED, ROLL, SCORE
from games.tables import services
from tests.factories import HTMX

ROLL_ANSWER = """<section id="tray" class="tray"></section>
<template><tbody id="rows-upper" hx-swap-oob="true">
<button type="submit" class="score-option" name="box" value="ones" formaction="/play/7/score/">3</button>
<button type="submit" class="score-option is-zero" name="box" value="twos:2">0</button>
</tbody></template><input type="hidden" id="game-version" name="version" value="12" hx-swap-oob="true">
"""  # noqa: E501


def test_reads_the_version_and_the_open_boxes_of_a_roll_answer() -> None:
    assert turns.version_of(ROLL_ANSWER) == 12
    assert turns.open_boxes(ROLL_ANSWER) == ["ones", "twos:2"]


def test_an_answer_without_a_version_or_boxes_reads_as_none_and_empty() -> None:
    assert turns.version_of("<p>Not found</p>") is None
    assert turns.open_boxes("<p>Not found</p>") == []


def test_tells_a_live_game_from_one_that_is_over() -> None:
    live = '<form id="game" class="game game-single is-live" method="post">'
    over = '<form id="game" class="game game-single" method="post">'

    assert not turns.game_over(live)
    assert turns.game_over(over)
    assert not turns.game_over("<p>no game here</p>")  # not a game partial: nothing to tell


def test_reads_the_game_a_new_game_redirect_points_at() -> None:
    assert turns.game_id_from("/play/4321/") == 4321
    assert turns.game_id_from("http://localhost/play/9/") == 9
    assert turns.game_id_from("/accounts/serial/") is None


def test_nearest_rank_percentile_and_mean() -> None:
    values = [n / 1000 for n in range(1, 21)]  # 1 to 20 ms

    assert load.percentile(values, 0.95) == pytest.approx(0.019)
    assert load.percentile(values[:1], 0.95) == pytest.approx(0.001)
    assert load.percentile(list(reversed(values)), 0.5) == pytest.approx(0.010)
    assert load.mean(values) == pytest.approx(0.0105)


def samples(kind: str, ms: list[float], status: int = 200) -> list[Sample]:
    return [Sample(kind, status, t / 1000) for t in ms]


def test_figures_give_rates_from_mean_latencies_and_ratios_to_the_front_page() -> None:
    taken = (
        samples(FRONT, [10, 10, 10, 10])
        + samples(ROLL, [12, 12, 14, 2])  # mean 10: as cheap as the front page
        + samples(SCORE, [20, 20])
        + samples(NOT_MODIFIED, [2, 3], status=304)
    )

    got = load.figures(taken, clients=2)

    assert list(got) == [FRONT, ROLL, SCORE, NOT_MODIFIED]  # the report's order
    assert got[FRONT].rate == pytest.approx(200.0)  # 2 clients / 10 ms
    assert got[FRONT].ratio == pytest.approx(1.0)
    assert got[ROLL].ratio == pytest.approx(1.0)
    assert got[SCORE].ratio == pytest.approx(0.5)
    assert got[SCORE].rate == pytest.approx(100.0)
    assert got[NOT_MODIFIED].ratio == pytest.approx(4.0)
    assert got[ROLL].p95_ms == pytest.approx(14.0)
    assert got[SCORE].requests == 2
    assert all(f.errors == 0 for f in got.values())


def test_a_conditional_request_answered_in_full_is_an_error() -> None:
    taken = samples(FRONT, [5]) + samples(NOT_MODIFIED, [1], 304) + samples(NOT_MODIFIED, [5])
    taken += samples(ROLL, [5], status=409)

    got = load.figures(taken, clients=1)

    assert got[NOT_MODIFIED].errors == 1
    assert got[NOT_MODIFIED].statuses == {200: 1, 304: 1}
    assert got[ROLL].errors == 1
    assert got[FRONT].errors == 0


def test_figures_need_the_front_page() -> None:
    with pytest.raises(ValueError, match="front page"):
        load.figures(samples(ROLL, [1]), clients=1)


def test_the_targets_of_the_issue() -> None:
    def limits(**kwargs: object) -> dict[tuple[str, str], float]:
        return {(t.kind, t.what): t.limit for t in load.targets(**kwargs)}  # type: ignore[arg-type]

    sqlite = limits(vendor="sqlite", shared_cache=False)
    postgres = limits(vendor="postgresql", shared_cache=True)

    # Issue 36: roll ≥ 0.95× / 0.75×, score ≥ 0.85× / 0.65×, dashboard ≥ 0.75× / 0.67×, the
    # update check ≥ 2× the front page (SQLite / PostgreSQL + Redis).
    assert (sqlite[(ROLL, "ratio")], sqlite[(SCORE, "ratio")]) == (0.95, 0.85)
    assert (postgres[(ROLL, "ratio")], postgres[(SCORE, "ratio")]) == (0.75, 0.65)
    assert sqlite[(NOT_MODIFIED, "ratio")] == postgres[(NOT_MODIFIED, "ratio")] == 2.0
    assert sqlite[(load.DASHBOARD, "ratio")] == 0.75
    assert postgres[(load.DASHBOARD, "ratio")] == 0.67
    assert sqlite[(NOT_MODIFIED, "queries")] == 2
    assert postgres[(NOT_MODIFIED, "queries")] == 1
    # Issue 39: a Yatzy move is held to a Classic move's targets.
    for limits_of in (sqlite, postgres):
        assert limits_of[(load.ROLL_YATZY, "ratio")] == limits_of[(ROLL, "ratio")]
        assert limits_of[(load.SCORE_YATZY, "ratio")] == limits_of[(SCORE, "ratio")]


def test_a_ratio_target_is_a_floor_and_a_query_target_a_ceiling() -> None:
    floor = load.Target(ROLL, "ratio", 0.75, True)
    ceiling = load.Target(NOT_MODIFIED, "queries", 2, False)

    assert floor.met(0.75) and floor.met(0.9) and not floor.met(0.74)
    assert ceiling.met(2) and ceiling.met(0) and not ceiling.met(3)


def test_the_parsers_read_the_real_answers(player: User, alice_client: Client) -> None:
    """The markup the clients read is the game's own: a roll, then a score, then the 304."""
    player.confirm_zero = False
    player.save(update_fields=["confirm_zero"])
    game = services.start_game(owner=player)

    rolled = alice_client.post(f"/play/{game.pk}/roll/", {"version": 0}, headers=HTMX)
    text = rolled.content.decode()
    assert turns.version_of(text) == 1
    boxes = turns.open_boxes(text)
    assert len(boxes) == 13

    scored = alice_client.post(
        f"/play/{game.pk}/score/", {"version": 1, "box": boxes[0]}, headers=HTMX
    )
    text = scored.content.decode()
    assert scored.status_code == 200
    assert turns.version_of(text) == 2
    assert not turns.game_over(text)
    assert turns.open_boxes(text) == []  # nothing to score before the next roll
