"""What the game page shows, worked out from the loaded game and its match: dice, the card's
rows and offers, totals, every player's standing, the draw for first, what the viewer may do.

The templates only lay this out; presenters make no query: they are handed what they show.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.urls import get_script_prefix, reverse
from django.utils import timezone

from accounts.models import User
from games import rules, strategy
from games.daily import clock as daily_clock
from games.models import (
    TURN_LIMITS,
    Game,
    GameStatus,
    Grading,
    HighScorePeriod,
    Move,
    PlayerKind,
    Seat,
)
from games.play import coach
from games.play.card import Scoreboard, card_rows, scoreboard, tray_dice
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
from games.ratings import services as ratings
from games.rules import actions
from games.store import SeatedGame
from games.tournaments import closing as tournament_closing
from games.tournaments.selectors import game_tournament as tournament_of


def limits(kind: rules.GameKind) -> dict[str, int]:
    """The rule numbers a ``kind``'s card spells out ("63 for the bonus", Yatzy's bonus of 50),
    from the rules, not the template."""
    return {
        "upper_threshold": rules.UPPER_BONUS_THRESHOLD,
        "upper_bonus": kind.upper_bonus,
        "yahtzee_bonus": rules.YAHTZEE_BONUS,
    }


LIMITS = limits(rules.CLASSIC)
"""Classic's rule numbers (the trainer's card is Classic's)."""


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
    "grade",
    "stream",
)


def game_urls(game_id: int) -> dict[str, str]:
    """Every action's address for ``game_id``."""
    return {name: game_url(name, game_id) for name in GAME_ACTIONS}


def play_url(game_id: int) -> str:
    return game_url("play", game_id)


def game_url(name: str, game_id: int, *more: int) -> str:
    """The address of the game's page ``name`` (``more``: its other numbers, a seat's place)."""
    return _reversed(name, (game_id, *more), get_script_prefix())


@lru_cache(maxsize=8192)
def _reversed(name: str, args: tuple[int, ...], prefix: str) -> str:
    # Reversed once per address and process (a game page has 14, a dashboard 20 and more, at
    # 30-50 us a reverse): an address is fixed by the URLconf, its numbers and the prefix.
    return reverse(f"games:{name}", args=args)


def _column_totals(sheet: rules.Sheet) -> list[dict[str, Any]]:
    columns = []
    for card, multiplier in zip(sheet.cards, sheet.kind.multipliers, strict=True):
        totals = rules.totals(card, kind=sheet.kind)
        subtotal = totals["upper_subtotal"]
        columns.append(
            {
                **totals,
                "multiplier": multiplier,
                "weighted": multiplier * totals["grand_total"],
                "upper_needed": max(0, rules.UPPER_BONUS_THRESHOLD - subtotal),
                "upper_progress": min(subtotal, rules.UPPER_BONUS_THRESHOLD),
                "upper_done": all(box in card for box in sheet.kind.upper),
            }
        )
    return columns


def standings(
    seated: SeatedGame,
    *,
    viewer: User | None,
    sheets: Sequence[rules.Sheet],
    totals: Sequence[int],
) -> list[dict[str, Any]]:
    """Every player's card in short, in seating order: name, total, boxes filled, on turn;
    with, once the game is finished, who won (shared wins on equal totals). ``sheets`` and
    their grand ``totals`` are the seats', worked out once for the whole page; ``viewer``
    ``None`` for a watcher, who is nobody at the table."""
    match, kind = seated.match(), seated.game.rules_kind
    by = seated.position_of(viewer) if viewer is not None else None
    # Equal totals share the win; a resigned seat never wins (the Match decides).
    winners = set(match.winners)
    return [
        {
            "name": seat.display_name,
            "total": total,
            "filled": sheet.boxes_filled,
            "boxes": kind.rounds,
            "on_turn": match.on_turn == position,
            "you": position == by,
            "guest": seat.player_kind == PlayerKind.GUEST,
            "winner": position in winners,
            "resigned": seat.resigned,
        }
        for position, (seat, sheet, total) in enumerate(
            zip(seated.seats, sheets, totals, strict=True)
        )
    ]


def board_of(
    seated: SeatedGame,
    sheets: Sequence[rules.Sheet],
    totals: Sequence[rules.GameTotals],
    *,
    marked: int | None,
) -> Scoreboard:
    """Every card side by side, the player on turn first, then the others in turn order;
    ``sheets`` and their ``totals`` the seats', worked out once for the page; the column of
    the seat at ``marked`` marked as on turn while the game is in progress."""
    game, match = seated.game, seated.match()
    start = match.on_turn if match.on_turn is not None else (match.first or 0)
    order = [(start + k) % len(seated.seats) for k in range(len(seated.seats))]
    return scoreboard(
        game.rules_kind,
        [
            (seated.seats[i].display_name, game.is_in_progress and i == marked, sheets[i])
            for i in order
        ],
        totals=[totals[i] for i in order],
    )


def first_draw(seated: SeatedGame, by: rules.Player) -> dict[str, Any] | None:
    """The draw for first while it lasts: each contender's dice and total so far, and whether
    the viewer has a throw to make (their own seat, or a guest's at their screen)."""
    match = seated.match()
    if match.phase is not rules.MatchPhase.ROLLING_FOR_FIRST:
        return None
    rows = []
    for index in match.contenders:
        dice = match.first_rolls[index]
        rows.append(
            {
                "name": seated.seats[index].display_name,
                "dice": rules.describe_dice(dice) if dice else "",
                "total": sum(dice) if dice else None,
            }
        )
    tie = len(match.contenders) < len(match.playing)
    return {"rows": rows, "mine": match.can(actions.ThrowForFirst(by)), "tie": tie}


def _devices(match: rules.Match) -> int:
    """How many people play the match, each on their own device."""
    return len({player for player in match.players if player is not None})


def watch_switch(game: Game, match: rules.Match, viewer: User) -> dict[str, str] | None:
    """The host's switch for the game's watch link (``games.watching``): where to turn it on
    and off, and the link while it is on; ``None`` for anyone but the host of an online game of
    several (a tournament's games are watched from its page)."""
    if game.owner_id != viewer.pk or game.tournament_id is not None or _devices(match) < 2:
        return None
    token = game.watch_token
    return {
        "link": reverse("watching:game", args=[token]) if token else "",
        "allow": reverse("watching:allow", args=[game.pk]),
        "withdraw": reverse("watching:withdraw", args=[game.pk]),
    }


def _undo(match: rules.Match, by: rules.Player) -> str:
    """What the viewer may take back now ("25 in Full House"), or nothing."""
    if not match.can(actions.Undo(by)):
        return ""
    scored = next(e for e in reversed(match.log) if isinstance(e, rules.Scored))
    return f"{scored.points} in {rules.Box(scored.box).label}"


def _skip_label(seated: SeatedGame, match: rules.Match) -> str:
    """Whom the Skip button would skip: the player on turn, or those still to throw."""
    if match.on_turn is not None:
        return f"Skip {seated.seats[match.on_turn].display_name}'s turn"
    return "Skip those still to roll for first"


GRADE_AWAITED = timedelta(minutes=2)
"""How long after a game finishes its page keeps asking for the grade (the worker grades it
within a second or two; past this, it shows when the page is next drawn)."""


def accuracy_context(seat: Seat, game: Game) -> dict[str, Any]:
    """The game-over line of ``seat``'s accuracy: the figure, whether it is the estimate, or
    that the task worker is still working it out (``games.review.tasks``), and whether the
    page should ask again for it in a second."""
    pending = seat.ungraded
    recent = game.finished_at is not None and timezone.now() - game.finished_at < GRADE_AWAITED
    return {
        "accuracy": seat.accuracy,
        "accuracy_estimate": seat.grading == Grading.ESTIMATE,
        "accuracy_pending": pending,
        "accuracy_awaited": pending and recent,
    }


def hint_context(hint: strategy.Hint, *, columns: int) -> dict[str, Any]:
    """A hint as the tray shows it: the sentence, and each option with what applies it (the
    dice to hold, or the box to score)."""
    options = []
    for option in hint.options:
        action = option.action
        entry: dict[str, Any] = {
            "description": option.description,
            "expected": f"{option.expected:.1f}",
            "box": "",
            "held": "",
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
    game, match = seated.game, seated.match()
    kind = game.rules_kind
    by = seated.position_of(viewer)
    # The card shown: the seat on turn's, else (the draw, a game over) the viewer's own.
    shown = match.on_turn if match.on_turn is not None else by if by is not None else 0
    seat, sheet = seated.seats[shown], match.sheets[shown]
    turn = match.turn if game.is_in_progress else rules.Turn()
    # A day's challenge whose day is over no longer moves (``games.daily.clock``): its page says
    # so and offers nothing that would be refused.
    day = game.challenge_day
    closed = game.is_in_progress and day is not None and not daily_clock.is_open(day)
    if closed and day is not None and not message:
        message = daily_clock.closed_text(day)
    # A tournament's game after the tournament's end, likewise (one read, for those games alone).
    tournament = tournament_of(game)
    if (
        game.is_in_progress
        and tournament is not None
        and tournament_closing.end_of(tournament) is not None
    ):
        closed = True
        message = message or tournament_closing.ended_text(tournament)
    on_turn = not closed and match.on_turn is not None and match.player_of(match.on_turn) == by
    several = len(seated.seats) > 1
    # The log names the player of each move when several play (the seats are loaded already).
    names = {s.pk: s.display_name for s in seated.seats} if several else {}
    actor = seat if seated.actor is None else seated.seats[seated.actor]
    draw = first_draw(seated, by)
    urls = game_urls(game.pk)
    computer_turn = match.computer_on_turn
    # With several players, each one's sheet and totals, worked out once for the page.
    sheets = list(match.sheets) if several else []
    totals = [sheet.totals() for sheet in sheets]
    grand = [t["grand_total"] for t in totals]
    players = standings(seated, viewer=viewer, sheets=sheets, totals=grand) if several else []

    def board() -> Scoreboard:  # the template calls it: worked out only where it is shown
        return board_of(seated, sheets, totals, marked=shown)

    turn_of = whose_turn(seat, yours=shown == by) if several and game.is_in_progress else ""
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
    news = celebrations(
        scoring, finished=finished, total=grand_total, high_score=high_score, kind=kind
    )
    return {
        "game": game,
        "kind": kind,
        "seats": seated.seats,
        "seat": seat,
        "on_turn": on_turn,
        "turn": turn,
        "dice": tray_dice(turn),
        "can_roll": not closed and match.can(actions.Roll(by)),
        "can_hold": not closed and match.can(actions.Hold(by, turn.held)),
        # The daily challenge is played without hints (its page says so).
        "can_hint": match.can_hint(by),
        "challenge_day": game.challenge_day,
        "rated": ratings.counts(game, seated.seats),
        "tournament": tournament,
        "scoreboard": board,
        "rows": card_rows(sheet, legal, rolled=on_turn and turn.has_rolled),
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
        "turn_of": turn_of,
        # The header's total is the total of the card shown: named when it is not the viewer's.
        "card_owner": seat.display_name if several and shown != by else "",
        # Someone else moves next on another device: the page follows the game by itself.
        "computer_turn": computer_turn,
        "draw": draw,
        # Someone else keeps the game waiting, in a game with a time limit: once the limit has
        # passed, the viewer may skip them (the button says after how long).
        "skippable": match.can(actions.Skip(by, idle=math.inf)) if by is not None else False,
        "skip_label": _skip_label(seated, match),
        "turn_limit": TURN_LIMITS.get(game.turn_limit or 0, ""),
        # Every page of a game that players on several devices play follows every change
        # (the player on turn's too: an undo, a skip, a resignation or the host's end can come
        # at any moment); after the game, they wait for a rematch to be offered. A computer's
        # turn is followed by the pages asking for its steps.
        "live": _devices(match) > 1
        and (
            (game.is_in_progress and not computer_turn)
            or (not game.is_in_progress and game.rematch_id is None)
        ),
        "rematch_possible": not game.is_in_progress and _devices(match) > 1,
        "watch": watch_switch(game, match, viewer),
        "result_line": result_line(players) if finished else "",
        "guest_names": [s.display_name for s in seated.seats if s.player_kind == PlayerKind.GUEST],
        "finished": finished,
        **(accuracy_context(seat, game) if finished else {}),
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
        # The coach's note on the viewer's latest decision, until their next move.
        "coach": coach.shown(seated, viewer),
        "rematch": rematch,
        "undo": "" if closed else _undo(match, by),
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
        "boxes": kind.boxes,
        "limits": limits(kind),
        "urls": urls,
        "oob": False,  # the roll answer sets it; set here, the templates never look it up in vain
    }
