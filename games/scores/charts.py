"""Geometry for the small SVG charts of the statistics page, drawn by templates on the server.

No JavaScript and nothing fetched: a chart is a viewBox, some points or bars and axis ticks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 30
MAX_POINTS = 120


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    low: int
    high: int
    count: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    points: str = ""
    dots: tuple[tuple[float, float], ...] = ()
    bars: tuple[Bar, ...] = ()
    averaged_over: int = 1


def _nice_step(span: float, steps: int = 4) -> int:
    raw = max(span / steps, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    return int(next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw))


def _frame(
    x_ticks: list[Tick],
    y_ticks: list[Tick],
    *,
    points: str = "",
    dots: tuple[tuple[float, float], ...] = (),
    bars: tuple[Bar, ...] = (),
    averaged_over: int = 1,
) -> Chart:
    return Chart(
        WIDTH, HEIGHT, LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM, x_ticks, y_ticks,
        points=points, dots=dots, bars=bars, averaged_over=averaged_over,
    )  # fmt: skip


def _y_scale(top_value: float, bottom: int = 0) -> tuple[int, list[Tick], float]:
    """The value axis from ``bottom`` up past ``top_value``: its top, its ticks, its height."""
    step = _nice_step(top_value - bottom)
    y_max = max(bottom + step, math.ceil(top_value / step) * step)
    plot_height = HEIGHT - BOTTOM - TOP
    ticks = [
        Tick(HEIGHT - BOTTOM - (value - bottom) / (y_max - bottom) * plot_height, str(value))
        for value in range(bottom, y_max + 1, step)
    ]
    return y_max, ticks, plot_height


def score_line(totals: Sequence[float]) -> Chart | None:
    """Final scores in the order played; long records are averaged in groups of games."""
    return _line(totals, bottom=0)


def accuracy_line(accuracies: Sequence[float]) -> Chart | None:
    """Each graded game's accuracy in the order played (averaged in groups, as ``score_line``),
    on a scale up to 100 from the round ten below the lowest: a change of a few points, where
    players are, shows."""
    if not accuracies:
        return None
    return _line(accuracies, bottom=min(90, int(min(accuracies) // 10 * 10)), top=100)


def _line(values: Sequence[float], *, bottom: int, top: float | None = None) -> Chart | None:
    if not values:
        return None
    group = max(1, math.ceil(len(values) / MAX_POINTS))
    points = [
        sum(values[i : i + group]) / len(values[i : i + group])
        for i in range(0, len(values), group)
    ]
    y_max, y_ticks, plot_height = _y_scale(
        top if top is not None else int(max(points)), bottom=bottom
    )
    plot_width = WIDTH - LEFT - RIGHT
    last = len(points) - 1

    def x_of(point: float) -> float:
        """Where a point (0 for the first) goes across; a lone point stands in the middle."""
        return round(LEFT + (point / last if last else 0.5) * plot_width, 1)

    def y_of(value: float) -> float:
        return round(HEIGHT - BOTTOM - (value - bottom) / (y_max - bottom) * plot_height, 1)

    dots = tuple((x_of(i), y_of(value)) for i, value in enumerate(points))
    x_step = _nice_step(len(values), 5)
    x_ticks = [
        Tick(x_of((game - 1) / group), str(game))
        for game in dict.fromkeys([1, *range(x_step, len(values) + 1, x_step)])
        if last or game == 1
    ]
    return _frame(
        x_ticks,
        y_ticks,
        points=" ".join(f"{x},{y}" for x, y in dots),
        dots=dots if len(dots) <= 40 else (),
        averaged_over=group,
    )


def score_histogram(totals: list[int], bin_size: int = 25) -> Chart | None:
    """How many games ended in each band of final scores."""
    if not totals:
        return None
    low = min(totals) // bin_size * bin_size
    high = max(totals) // bin_size * bin_size
    bands = list(range(low, high + 1, bin_size))
    counts = {band: 0 for band in bands}
    for total in totals:
        counts[total // bin_size * bin_size] += 1
    y_max, y_ticks, plot_height = _y_scale(max(counts.values()))
    plot_width = WIDTH - LEFT - RIGHT
    slot = plot_width / len(bands)
    bars = tuple(
        Bar(
            x=round(LEFT + i * slot + slot * 0.1, 1),
            y=round(HEIGHT - BOTTOM - counts[band] / y_max * plot_height, 1),
            width=round(slot * 0.8, 1),
            height=round(counts[band] / y_max * plot_height, 1),
            low=band,
            high=band + bin_size - 1,
            count=counts[band],
        )
        for i, band in enumerate(bands)
    )
    label_every = max(1, math.ceil(len(bands) / 8))
    x_ticks = [
        Tick(LEFT + i * slot + slot / 2, str(band))
        for i, band in enumerate(bands)
        if i % label_every == 0
    ]
    return _frame(x_ticks, y_ticks, bars=bars)
