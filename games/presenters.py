"""Turns a game table into what the game page shows: dice, score-card rows, totals, words.

The template only lays this out; every number and phrase a player reads is decided here.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from games import rules, selectors
from games.models import GameKind, GameStatus, HighScorePeriod, Score, Seat, SeatKind
from games.services import Table

FACE_NAMES = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
KEY_LETTERS = "ABCDEFGHIJKLM"
"""Keyboard letters of the boxes in card order, as the DOS original had them."""

HINTS = {
    "aces": "Count and add only aces",
    "twos": "Count and add only twos",
    "threes": "Count and add only threes",
    "fours": "Count and add only fours",
    "fives": "Count and add only fives",
    "sixes": "Count and add only sixes",
    "three_of_a_kind": "Add all dice",
    "four_of_a_kind": "Add all dice",
    "full_house": "Score 25",
    "small_straight": "Sequence of 4 — score 30",
    "large_straight": "Sequence of 5 — score 40",
    "yahtzee": "5 of a kind — score 50",
    "chance": "Add all dice",
}


def describe_dice(dice: rules.Dice) -> str:
    return ", ".join(str(d) for d in dice)


def _dice(turn: rules.Turn) -> list[dict[str, Any]]:
    values = turn.dice or (None,) * rules.DICE_COUNT
    dice = []
    for index, value in enumerate(values):
        held = bool(turn.held[index]) if turn.dice else False
        face = FACE_NAMES[value] if value else "not rolled yet"
        label = f"Die {index + 1} shows {face}" + (", held" if held else "")
        dice.append(
            {"index": index, "number": index + 1, "value": value, "held": held, "label": label}
        )
    return dice


def _rows(sheet: rules.Sheet, legal: dict[rules.Slot, int], rolled: bool) -> list[dict[str, Any]]:
    rows = []
    for position, box in enumerate(rules.CATEGORIES):
        cells = []
        for column, card in enumerate(sheet.cards):
            filled = card.get(box)
            option = legal.get((column, box))
            cells.append(
                {
                    "column": column,
                    "filled": filled,
                    "option": option,
                    "forbidden": rolled and filled is None and option is None,
                }
            )
        rows.append(
            {
                "key": box,
                "label": rules.LABELS[box],
                "hint": HINTS[box],
                "letter": KEY_LETTERS[position],
                "upper": box in rules.UPPER,
                "cells": cells,
            }
        )
    return rows


def _column_totals(sheet: rules.Sheet) -> list[dict[str, Any]]:
    columns = []
    for card, multiplier in zip(sheet.cards, sheet.kind.multipliers, strict=True):
        totals = rules.totals(card)
        subtotal = totals["upper_subtotal"]
        columns.append(
            {
                **totals,
                "multiplier": multiplier,
                "weighted": multiplier * totals["grand_total"],
                "upper_needed": max(0, rules.UPPER_BONUS_THRESHOLD - subtotal),
                "upper_progress": min(subtotal, rules.UPPER_BONUS_THRESHOLD),
                "upper_done": all(box in card for box in rules.UPPER),
            }
        )
    return columns


def _announcement(turn: rules.Turn, *, on_turn: bool, finished: bool, total: int) -> str:
    if finished:
        return f"Game over. Final score {total}."
    if not turn.dice:
        return "Your turn: roll the dice." if on_turn else ""
    left = turn.rolls_left
    rolls = (
        "no rolls left, choose a box" if left == 0 else f"{left} roll{'s' if left > 1 else ''} left"
    )
    return f"Roll {turn.rolls_used}: {describe_dice(turn.dice)}. {rolls.capitalize()}."


def _high_score_news(seat: Seat) -> dict[str, str] | None:
    """What the game-over panel says when the game entered the high scores."""
    score = Score.objects.filter(seat=seat).only("high_score_rank", "high_score_period").first()
    if score is None or not score.high_score_rank:
        return None
    phrase = selectors.PERIOD_PHRASES[HighScorePeriod(score.high_score_period)]
    return {
        "text": f"New high score — #{score.high_score_rank} {phrase}!",
        "period": score.high_score_period,
    }


def table_context(
    table: Table,
    *,
    viewer: Any,
    message: str = "",
    confirm: dict[str, Any] | None = None,
) -> dict[str, Any]:
    game = table.game
    kind = game.rules_kind
    seat = table.current if game.is_in_progress else (table.seat_of(viewer) or table.current)
    sheet = seat.sheet(kind)
    turn = game.turn() if game.is_in_progress else rules.Turn()
    on_turn = game.is_in_progress and seat.user_id == viewer.pk
    legal = rules.legal_moves(kind, turn.dice, sheet.cards) if on_turn and turn.dice else {}
    joker = bool(turn.dice) and any(
        rules.joker_applies(turn.dice, card, kind=kind) for card in sheet.cards
    )
    bonus_ahead = bool(turn.dice) and rules.yahtzee_bonus(turn.dice, sheet.cards[0], kind=kind) > 0
    grand_total = sheet.grand_total
    finished = game.status == GameStatus.FINISHED
    high_score = _high_score_news(seat) if finished else None
    return {
        "game": game,
        "kind": kind,
        "seats": table.seats,
        "seat": seat,
        "on_turn": on_turn,
        "turn": turn,
        "dice": _dice(turn),
        "can_roll": on_turn and rules.can_roll(turn),
        "can_hold": on_turn and turn.has_rolled and turn.rolls_left > 0,
        "rows": _rows(sheet, legal, rolled=on_turn and turn.has_rolled),
        "columns": _column_totals(sheet),
        "multi_column": kind.columns > 1,
        "yahtzee_bonuses": sheet.yahtzee_bonuses,
        "yahtzee_bonus_chips": range(sheet.yahtzee_bonuses),
        "yahtzee_bonus_points": sheet.yahtzee_bonuses * rules.YAHTZEE_BONUS,
        "grand_total": grand_total,
        "joker": joker,
        "bonus_ahead": bonus_ahead,
        "round": min(game.round, kind.rounds),
        "rounds": kind.rounds,
        "finished": finished,
        "high_score": high_score,
        "abandoned": game.status == GameStatus.ABANDONED,
        "message": message,
        "confirm": confirm,
        "announcement": " ".join(
            part
            for part in (
                message,
                _announcement(turn, on_turn=on_turn, finished=finished, total=grand_total),
            )
            if part
        ),
        "key_letters": KEY_LETTERS,
    }


# --- High scores ---------------------------------------------------------------------------

PLAYER_KINDS = ((SeatKind.HUMAN, "People"), (SeatKind.COMPUTER, "Computer"))


def high_scores_context(table: selectors.TopTen) -> dict[str, Any]:
    """The top-ten page's words and links, worked out once here rather than in template loops."""
    choice = {"kind": table.kind, "period": table.period, "players": table.player_kind}

    def tabs(name: str, options: Any) -> list[tuple[str, str, bool]]:
        return [
            (str(label), "?" + urlencode(choice | {name: value}), value == choice[name])
            for value, label in options
        ]

    player_url = reverse("player", kwargs={"user_id": 0}).removesuffix("0/")
    rows = [
        {
            "rank": row.rank,
            "name": row.display_name,
            "href": f"{player_url}{row.user_id}/" if row.user_id else "",
            "total": row.grand_total,
            "date": f"{row.finished_at:%-d %b %y}",
            "iso": row.finished_at.isoformat(),
            "yahtzees": row.yahtzees,
            "mine": row.mine,
        }
        for row in table.rows
    ]
    return {
        "table": table,
        "rows": rows,
        "tab_groups": [
            ("Game", tabs("kind", GameKind.choices)),
            ("Period", tabs("period", HighScorePeriod.choices)),
            ("Players", tabs("players", PLAYER_KINDS)),
        ],
        "caption": " · ".join(
            [
                str(GameKind(table.kind).label),
                str(HighScorePeriod(table.period).label),
                *(["computer players"] if table.player_kind == SeatKind.COMPUTER else []),
            ]
        ),
    }
