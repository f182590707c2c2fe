"""The statistics charts' geometry: dots, ticks and bars where a reader expects them."""

from __future__ import annotations

from games.scores import charts


def test_one_game_puts_its_dot_and_its_label_together_in_the_middle() -> None:
    chart = charts.score_line([230])

    assert chart is not None
    ((x, _y),) = chart.dots
    (tick,) = chart.x_ticks
    middle = (chart.plot_left + chart.plot_right) / 2
    assert x == tick.position == middle
    assert tick.label == "1"


def test_the_first_and_last_games_sit_at_the_ends_of_the_axis() -> None:
    chart = charts.score_line([200, 250, 180, 300, 260])

    assert chart is not None
    assert chart.dots[0][0] == chart.plot_left
    assert chart.dots[-1][0] == chart.plot_right
    first = next(t for t in chart.x_ticks if t.label == "1")
    assert first.position == chart.dots[0][0]


def test_a_higher_score_is_drawn_higher() -> None:
    chart = charts.score_line([100, 300])

    assert chart is not None
    assert chart.dots[1][1] < chart.dots[0][1]  # SVG y grows downwards


def test_no_games_no_chart() -> None:
    assert charts.score_line([]) is None
    assert charts.score_histogram([]) is None
