"""The score card's rows as HTML, built here rather than by a template loop: every roll and
every score redraws them (13 rows of up to three cells), and this is several times faster than
the ``{% for %}`` it replaces (measured: ~1.1 ms of a roll's answer went on those loops).
The markup is the same; every value put into it is escaped by ``format_html``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games import rules

FORBIDDEN = mark_safe(
    '<span class="forbidden" title="The Joker rule does not allow this box for this roll">'
    '<span aria-hidden="true">—</span>'
    '<span class="visually-hidden">Not allowed by the Joker rule</span></span>'
)
OPEN = mark_safe('<span class="open"><span class="visually-hidden">Open</span></span>')


@cache
def _row_start(box: rules.Box) -> SafeString:
    """What a row says of its box, the same in every game: made once per process."""
    return format_html(
        '<tr class="score-row{}" data-row="{}">'
        '<td class="key-cell" aria-hidden="true"><kbd>{}</kbd></td>'
        '<th scope="row" class="box-name">{}<span class="row-hint">{}</span></th>',
        " is-upper" if box.is_upper else "",
        box.letter.lower(),
        box.letter,
        box.label,
        box.hint,
    )


@cache
def _option_pattern(box: rules.Box, column: int, multi_column: bool) -> str:
    """The button that scores this box in this column, escaped once per process; only the
    game's score URL and the points are filled in for each roll."""
    return format_html(
        '<button type="submit" class="score-option{{zero}}" name="box" value="{}"'
        ' formaction="{{url}}" hx-post="{{url}}" hx-sync="#game-table:queue last"'
        ' data-box-key="{}" data-box-label="{}" data-column="{}"'
        ' aria-label="Score {{points}} in {}{} (key {})">{{points}}</button>',
        f"{box.value}:{column}" if column else box.value,
        box.letter.lower(),
        box.label,
        column + 1,
        box.label,
        f", column {column + 1}" if multi_column else "",
        box.letter,
    )


def _cell(box: rules.Box, cell: dict[str, Any], *, score_url: str, multi_column: bool) -> str:
    if cell["filled"] is not None:
        return f'<span class="filled">{int(cell["filled"])}</span>'
    option = cell["option"]
    if option is not None:
        pattern = _option_pattern(box, cell["column"], multi_column)
        points = int(option)
        zero = " is-zero" if points == 0 else ""
        return pattern.format(zero=zero, url=escape(score_url), points=points)
    return FORBIDDEN if cell["forbidden"] else OPEN


def row(box: rules.Box, cells: Sequence[dict[str, Any]], *, score_url: str, multi: bool) -> str:
    """One row of the card: its box, then each column's cell (filled, an option, or open)."""
    tds = "".join(
        f'<td class="score-cell">{_cell(box, c, score_url=score_url, multi_column=multi)}</td>'
        for c in cells
    )
    return mark_safe(f"{_row_start(box)}{tds}</tr>")
