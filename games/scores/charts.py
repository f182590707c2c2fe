"""Geometry for the small SVG charts of the statistics page, drawn by templates on the server.

No JavaScript and nothing fetched: a chart is a viewBox, some points or bars and axis ticks.
"""

from __future__ import annotations

import math
import statistics
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
    right_ticks: tuple[Tick, ...] = ()
    """A second scale's ticks, on the right (a chart of two measures)."""
    marks: tuple[tuple[float, float], ...] = ()
    """Points of the second measure, drawn as dots against the right scale."""


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


RATING_RIGHT = 40
"""The rating chart's right margin: room for its second scale's labels."""


def rating_history(
    start: int, ratings: Sequence[int], accuracies: Sequence[float | None]
) -> Chart | None:
    """A player's rating from ``start`` through each rated game (``ratings``, the line, on the
    left scale) and each of those games' accuracy (``accuracies``, ``None`` where not graded:
    dots on the right scale, up to 100 from the round ten below the lowest). Long records are
    averaged in groups of games, as ``score_line``."""
    if not ratings:
        return None
    group = max(1, math.ceil(len(ratings) / MAX_POINTS))
    line = [float(start)] + [
        statistics.fmean(ratings[i : i + group]) for i in range(0, len(ratings), group)
    ]
    graded = [(a, i // group) for i, a in enumerate(accuracies) if a is not None]
    low, high = min(line), max(line)
    step = _nice_step(max(high - low, 40))
    bottom = math.floor(low / step) * step
    top = max(bottom + step, math.ceil(high / step) * step)
    a_bottom = min(90, int(min((a for a, _ in graded), default=90) // 10 * 10))
    a_step = 10 if 100 - a_bottom <= 40 else 20
    right = WIDTH - RATING_RIGHT
    plot_width, plot_height = right - LEFT, HEIGHT - BOTTOM - TOP
    last = len(line) - 1

    def x_of(point: float) -> float:
        return round(LEFT + point / last * plot_width, 1)

    def y_of(value: float, low: float, high: float) -> float:
        return round(HEIGHT - BOTTOM - (value - low) / (high - low) * plot_height, 1)

    by_point: dict[int, list[float]] = {}
    for accuracy, point in graded:
        by_point.setdefault(point, []).append(accuracy)
    x_step = _nice_step(len(ratings), 5)
    return Chart(
        WIDTH, HEIGHT, LEFT, right, TOP, HEIGHT - BOTTOM,
        x_ticks=[
            Tick(x_of(game / group), str(game))
            for game in dict.fromkeys([0, *range(x_step, len(ratings) + 1, x_step)])
        ],
        y_ticks=[Tick(y_of(v, bottom, top), str(v)) for v in range(bottom, top + 1, step)],
        right_ticks=tuple(
            Tick(y_of(v, a_bottom, 100), str(v)) for v in range(a_bottom, 101, a_step)
        ),
        points=" ".join(f"{x_of(i)},{y_of(v, bottom, top)}" for i, v in enumerate(line)),
        marks=tuple(
            (x_of(point + 1), y_of(statistics.fmean(values), a_bottom, 100))
            for point, values in by_point.items()
        ),
        averaged_over=group,
    )  # fmt: skip
