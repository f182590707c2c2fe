"""What the game page shows, worked out from the loaded game and its match: dice, the card's
rows and offers, totals, every player's standing, the draw for first, what the viewer may do.

The templates only lay this out; presenters make no query: they are handed what they show.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from accounts.models import User
from games import rules, strategy
from games.models import (
    TURN_LIMITS,
    Game,
    GameStatus,
    HighScorePeriod,
    Move,
    PlayerKind,
)
from games.play import card_html
from games.play.words import (
    announcement,
    celebrations,
    describe,
    describe_move,
    high_score_news,
    page_title,
    result_line,
    whose_turn,
)
from games.store import SeatedGame

LIMITS = {
    "upper_threshold": rules.UPPER_BONUS_THRESHOLD,
    "upper_bonus": rules.UPPER_BONUS,
    "yahtzee_bonus": rules.YAHTZEE_BONUS,
}
"""The rule numbers the card spells out ("63 for the bonus"), from the rules, not the template."""


GAME_ACTIONS = (
    "rematch",
    "play",
    "roll",
    "hint",
    "hold",
    "score",
    "undo",
    "skip",
    "resign",
    "computer",
    "first",
    "abandon_page",
)


_ANY_ID = 123456789


@cache
def _url_patterns() -> dict[str, str]:
    """Each action's URL with a stand-in id, reversed once per process instead of per button."""
    return {name: reverse(f"games:{name}", kwargs={"game_id": _ANY_ID}) for name in GAME_ACTIONS}


def game_urls(game_id: int) -> dict[str, str]:
    return {
        name: pattern.replace(str(_ANY_ID), str(game_id))
        for name, pattern in _url_patterns().items()
    }


def play_url(game_id: int) -> str:
    return _url_patterns()["play"].replace(str(_ANY_ID), str(game_id))


def _rows(
    sheet: rules.Sheet, legal: dict[rules.Slot, int], rolled: bool, *, score_url: str
) -> tuple[SafeString, SafeString]:
    """The card's rows as HTML: the upper section's, then the lower's."""
    multi = len(sheet.cards) > 1
    sections: dict[bool, list[str]] = {True: [], False: []}
    for box in rules.CATEGORIES:
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
        sections[box.is_upper].append(card_html.row(box, cells, score_url=score_url, multi=multi))
    return mark_safe("".join(sections[True])), mark_safe("".join(sections[False]))


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


def standings(
    seated: SeatedGame, *, viewer: User, sheets: Sequence[rules.Sheet], totals: Sequence[int]
) -> list[dict[str, Any]]:
    """Every player's card in short, in seating order: name, total, boxes filled, on turn;
    with, once the game is finished, who won (shared wins on equal totals). ``sheets`` and
    their grand ``totals`` are the seats', worked out once for the whole page."""
    game, kind = seated.game, seated.game.rules_kind
    # Equal totals share the win; a resigned seat never wins (the Match decides).
    winners = set(seated.match().winners) if game.status == GameStatus.FINISHED else set()
    return [
        {
            "name": seat.display_name,
            "total": total,
            "filled": sheet.boxes_filled,
            "boxes": kind.rounds,
            "on_turn": seat.is_on_turn(),
            "you": seat.player_kind != PlayerKind.GUEST and seat.user_id == viewer.pk,
            "guest": seat.player_kind == PlayerKind.GUEST,
            "winner": position in winners,
            "resigned": seat.resigned,
        }
        for position, (seat, sheet, total) in enumerate(
            zip(seated.seats, sheets, totals, strict=True)
        )
    ]


def first_draw(seated: SeatedGame, viewer: User) -> dict[str, Any] | None:
    """The draw for first while it lasts: each contender's dice and total so far, and whether
    the viewer has a throw to make (their own seat, or a guest's at their screen)."""
    game = seated.game
    if not (game.is_in_progress and game.contenders):
        return None
    rows, mine = [], False
    for index in game.contenders:
        seat = seated.seats[index]
        dice = game.first_rolls.get(str(index))
        mine = mine or (dice is None and seat.played_by(viewer.pk))
        rows.append(
            {
                "name": seat.display_name,
                "dice": rules.describe_dice(dice) if dice else "",
                "total": sum(dice) if dice else None,
            }
        )
    tie = len(game.contenders) < len(seated.seats)
    return {"rows": rows, "mine": mine, "tie": tie}


def _accounts(seated: SeatedGame) -> int:
    return sum(1 for s in seated.seats if s.user_id is not None)


def _undo(game: Game, seated: SeatedGame, viewer: User) -> str:
    """What the viewer may take back now ("25 in Full House"), or nothing."""
    before = game.undo
    if (
        not game.is_in_progress
        or not before
        or not seated.seats[before["seat"]].played_by(viewer.pk)
    ):
        return ""
    return f"{before['points']} in {rules.Box(before['box']).label}"


def hint_context(hint: strategy.Hint, *, columns: int) -> dict[str, Any]:
    """A hint as the tray shows it: the sentence, and each option with what applies it (the
    dice to hold, or the box to score)."""
    options = []
    for option in hint.options:
        action = option.action
        entry: dict[str, Any] = {
            "description": option.description,
            "expected": f"{option.expected:.1f}",
        }
        if isinstance(action, strategy.RollDice):
            entry["held"] = ",".join("1" if kept else "0" for kept in action.held)
        else:
            suffix = f":{action.column}" if columns > 1 else ""
            entry["box"] = f"{action.box.value}{suffix}"
        options.append(entry)
    return {"sentence": hint.explanation, "options": options, "exact": hint.exact}


def game_context(
    seated: SeatedGame,
    *,
    viewer: User,
    high_scores: dict[int, tuple[int, HighScorePeriod]] | None = None,
    moves: Sequence[Move] = (),
    message: str = "",
    confirm: dict[str, Any] | None = None,
    hint: dict[str, Any] | None = None,
    rematch: tuple[str, str] | None = None,
    log_kept: bool = False,
) -> dict[str, Any]:
    """Everything the game page shows, for ``viewer``; ``high_scores`` as
    ``high_score_entries`` gives them for a finished game, ``moves`` the latest
    moves, newest first. With ``log_kept`` the page keeps its log as it is, and only the line
    of the move just made (``new_moves``) is added to it."""
    game = seated.game
    kind = game.rules_kind
    seat = seated.current if game.is_in_progress else (seated.seat_of(viewer) or seated.current)
    sheet = seat.sheet(kind)
    turn = game.turn() if game.is_in_progress else rules.Turn()
    on_turn = game.is_in_progress and seat.played_by(viewer.pk)
    several = len(seated.seats) > 1
    # The log names the player of each move when several play (the seats are loaded already).
    names = {s.pk: s.display_name for s in seated.seats} if several else {}
    actor = seat if seated.actor is None else seated.seats[seated.actor]
    draw = first_draw(seated, viewer)
    urls = game_urls(game.pk)
    computer_turn = game.is_in_progress and seat.player_kind == PlayerKind.COMPUTER
    # With several players, each one's sheet and totals, worked out once for the page.
    sheets = [s.sheet(kind) for s in seated.seats] if several else []
    totals = [sheet.totals() for sheet in sheets]
    grand = [t["grand_total"] for t in totals]
    players = standings(seated, viewer=viewer, sheets=sheets, totals=grand) if several else []

    def board() -> SafeString:  # the template calls it: drawn only where the page shows it
        # Every card side by side, the player on turn first, then the others in turn order.
        start = game.current_seat if game.is_in_progress else (game.first_seat or 0)
        order = [(start + k) % len(seated.seats) for k in range(len(seated.seats))]
        on_turn = game.is_in_progress
        return card_html.scoreboard(
            kind,
            [
                (seated.seats[i].display_name, on_turn and seated.seats[i] is seat, sheets[i])
                for i in order
            ],
            totals=[totals[i] for i in order],
        )

    turn_of = whose_turn(seat, viewer=viewer, several=several) if game.is_in_progress else ""
    if draw is not None:
        turn_of = "Roll for first"
    dice = turn.dice or ()
    legal = rules.legal_moves(kind, dice, sheet.cards) if on_turn and dice else {}
    joker = any(rules.joker_applies(dice, card, kind=kind) for card in sheet.cards)
    bonus_ahead = rules.yahtzee_bonus(dice, sheet.cards[0], kind=kind) > 0
    grand_total = sheet.grand_total
    finished = game.status == GameStatus.FINISHED
    round = min(game.round, kind.rounds)
    high_score = high_score_news((high_scores or {}).get(seat.pk)) if finished else None
    scoring = seated.record if isinstance(seated.record, rules.Scoring) else None
    news = celebrations(scoring, finished=finished, total=grand_total, high_score=high_score)
    return {
        "game": game,
        "kind": kind,
        "seats": seated.seats,
        "seat": seat,
        "on_turn": on_turn,
        "turn": turn,
        "dice": card_html.dice(turn, hold_url=urls["hold"]),
        "can_roll": on_turn and rules.can_roll(turn),
        "can_hold": on_turn and turn.has_rolled and turn.rolls_left > 0,
        "can_hint": on_turn and turn.has_rolled,
        "scoreboard": board,
        "rows": _rows(sheet, legal, rolled=on_turn and turn.has_rolled, score_url=urls["score"]),
        "columns": _column_totals(sheet),
        "multi_column": kind.columns > 1,
        "yahtzee_bonuses": sheet.yahtzee_bonuses,
        "yahtzee_bonus_chips": range(sheet.yahtzee_bonuses),
        "yahtzee_bonus_points": sheet.yahtzee_bonuses * rules.YAHTZEE_BONUS,
        "grand_total": grand_total,
        "joker": joker,
        "bonus_ahead": bonus_ahead,
        "round": round,
        "rounds": kind.rounds,
        "page_title": page_title(
            game,
            kind,
            round=round,
            total=grand_total,
            whose_turn=turn_of,
        ),
        "players": players,
        "player_chips": card_html.player_chips(players),
        "player_rows": card_html.player_rows(players),
        "turn_of": turn_of,
        # The header's total is the total of the card shown: named when it is not the viewer's.
        "card_owner": seat.display_name
        if several and not (seat.player_kind != PlayerKind.GUEST and seat.user_id == viewer.pk)
        else "",
        # Someone else moves next on another device: the page follows the game by itself.
        "computer_turn": computer_turn,
        "draw": draw,
        # Another device's player on turn, in a game with a time limit: others may skip them.
        "skippable": game.is_in_progress
        and game.turn_limit is not None
        and seat.player_kind == PlayerKind.HUMAN
        and not seat.played_by(viewer.pk),
        "turn_limit": TURN_LIMITS.get(game.turn_limit or 0, ""),
        # Every page of a game that players on several devices play follows every change
        # (the player on turn's too: an undo, a skip, a resignation or the host's end can come
        # at any moment); after the game, they wait for a rematch to be offered. A computer's
        # turn is followed by the pages asking for its steps.
        "live": _accounts(seated) > 1
        and (
            (game.is_in_progress and not computer_turn)
            or (not game.is_in_progress and game.rematch_id is None)
        ),
        "rematch_possible": not game.is_in_progress and _accounts(seated) > 1,
        "result_line": result_line(players) if finished else "",
        "guest_names": [s.display_name for s in seated.seats if s.player_kind == PlayerKind.GUEST],
        "finished": finished,
        "high_score": high_score,
        "celebrations": news,
        "moves": [describe_move(move, name=names.get(move.seat_id, "")) for move in moves],
        "new_moves": [describe(seated.record, who=names.get(actor.pk, ""))]
        if seated.record
        else [],
        "log_kept": log_kept,
        "abandoned": game.status == GameStatus.ABANDONED,
        "message": message,
        "confirm": confirm,
        "hint": hint,
        "rematch": rematch,
        "undo": _undo(game, seated, viewer),
        "hints_used": seat.hints,
        "announcement": " ".join(
            part
            for part in (
                message,
                # The end of the game is said below, with the final score.
                *(event["text"] for event in news if event["kind"] != "game-over"),
                announcement(
                    turn, on_turn=on_turn, finished=finished, total=grand_total, turn_of=turn_of
                ),
            )
            if part
        ),
        "boxes": rules.CATEGORIES,
        "limits": LIMITS,
        "urls": urls,
    }
