"""What the game page's hottest fragments show, as values: the score card's rows, the tray's
dice, every player's card side by side. The templates under ``templates/jinja2/games/play/``
draw them (every roll and every score redraws them); nothing here knows their markup.

Values are frozen dataclasses rather than dictionaries: Jinja2 reads ``row.label`` as an
attribute first, and a dictionary's miss on that costs more than drawing the cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games import rules


@dataclass(frozen=True, slots=True)
class Cell:
    """One column of a card's row: the points filled, or those this roll offers there, or
    neither (``forbidden`` when the Joker rule keeps this roll out of the open box)."""

    filled: int | None
    option: int | None
    forbidden: bool
    value: str
    """What its score button sends: the box, and the column after the first ("aces:2")."""
    column: int
    """Counted from 1, as the page says it."""


@dataclass(frozen=True, slots=True)
class CardRow:
    """A row of the score card: its box (the same in every game), then a cell per column."""

    upper: bool
    key: str
    """The box's letter as the row's ``data-row`` has it ("a")."""
    letter: str
    """The key that scores it ("A")."""
    label: str
    hint: str
    cells: tuple[Cell, ...]


@cache
def _box_facts(box: rules.Box, kind: rules.GameKind) -> dict[str, Any]:
    """What a row says of its box, the same in every game of a kind: worked out once per
    process."""
    letter = kind.letter(box)
    return {
        "upper": box.is_upper,
        "key": letter.lower(),
        "letter": letter,
        "label": box.label,
        "hint": box.hint,
    }


def card_rows(
    sheet: rules.Sheet, legal: Mapping[rules.Slot, int], *, rolled: bool
) -> tuple[list[CardRow], list[CardRow]]:
    """The card's rows, the upper section's then the lower's; ``legal`` the points this roll
    offers in each open box (none off turn), ``rolled`` whether the dice are on the table
    (an open box they cannot go in is then forbidden)."""
    sections: dict[bool, list[CardRow]] = {True: [], False: []}
    for box in sheet.kind.boxes:
        cells = []
        for column, card in enumerate(sheet.cards):
            filled = card.get(box)
            option = legal.get((column, box))
            cells.append(
                Cell(
                    filled=filled,
                    option=option,
                    forbidden=rolled and filled is None and option is None,
                    value=f"{box.value}:{column}" if column else box.value,
                    column=column + 1,
                )
            )
        sections[box.is_upper].append(CardRow(**_box_facts(box, sheet.kind), cells=tuple(cells)))
    return sections[True], sections[False]


@dataclass(frozen=True, slots=True)
class Die:
    """One die of the tray: its place, its face (``None`` before the turn's first roll),
    whether it is held, and what a screen reader says of it."""

    index: int
    number: int
    value: int | None
    held: bool
    label: str
    label_held: str
    """The labels the page swaps between as the die is tapped, before the server answers."""
    label_free: str


@cache
def _die(index: int, value: int | None, held: bool) -> Die:
    number = index + 1
    return Die(
        index=index,
        number=number,
        value=value,
        held=held,
        label=rules.describe_die(number, value, held=held),
        label_held=rules.describe_die(number, value, held=True),
        label_free=rules.describe_die(number, value, held=False),
    )


def tray_dice(turn: rules.Turn) -> list[Die]:
    """The five dice of the tray: the values of ``turn`` (blank before its first roll)."""
    values: Sequence[int | None] = turn.dice or (None,) * rules.DICE_COUNT
    held = turn.held if turn.dice else (False,) * rules.DICE_COUNT
    return [_die(i, value, bool(held[i])) for i, value in enumerate(values)]


@dataclass(frozen=True, slots=True)
class BoardRow:
    label: str
    css: str
    cells: tuple[tuple[int | None, bool], ...]
    """Each player's points (``None``: nothing yet) and whether that player is on turn."""


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """Every player's card side by side: a column per player, a row per box, then the
    bonuses and the total. In Triple a box shows its columns' points weighted."""

    weighted: bool
    players: tuple[tuple[str, bool], ...]
    """Each column's player: name, and whether on turn."""
    rows: tuple[BoardRow, ...]


def _weighted(cards: Sequence[Mapping[str, int]], weights: Sequence[int]) -> Mapping[str, int]:
    """A sheet's filled boxes, each box's points summed over its columns, weighted."""
    if len(cards) == 1 and weights[0] == 1:
        return cards[0]
    points: dict[str, int] = {}
    for card, weight in zip(cards, weights, strict=False):
        for box, value in card.items():
            points[box] = points.get(box, 0) + value * weight
    return points


def scoreboard(
    kind: rules.GameKind,
    players: Sequence[tuple[str, bool, rules.Sheet]],
    *,
    totals: Sequence[rules.GameTotals] | None = None,
) -> Scoreboard:
    """Every player's card side by side: a column each (name, whether on turn, sheet), in the
    order given; ``totals`` the sheets' own, when the caller has them already. In Triple a
    box counts its columns' points ×1, ×2, ×3."""
    on_turn = [turn for _, turn, _ in players]
    sheets = [sheet for _, _, sheet in players]
    weights = kind.multipliers

    def row(label: str, css: str, values: Sequence[int | None]) -> BoardRow:
        return BoardRow(label, css, tuple(zip(values, on_turn, strict=True)))

    boxes = [_weighted(sheet.cards, weights) for sheet in sheets]
    rows = [row(box.label, "", [points.get(box) for points in boxes]) for box in kind.boxes]
    if totals is None:
        totals = [sheet.totals() for sheet in sheets]
    upper_bonus: list[int | None] = [
        sum(col["upper_bonus"] * m for col, m in zip(t["columns"], weights, strict=False))
        for t in totals
    ]
    rows.append(row("Upper bonus", "scoreboard-sum", upper_bonus))
    if kind.yahtzee_bonus:
        rows.append(row("Yahtzee bonus", "", [t["yahtzee_bonus"] for t in totals]))
    rows.append(row("Total", "scoreboard-total", [t["grand_total"] for t in totals]))
    return Scoreboard(
        weighted=kind.columns > 1,
        players=tuple((name, turn) for name, turn, _ in players),
        rows=tuple(rows),
    )
