"""What a watcher's page shows, worked out from the watched game and its match: the dice of the
roll in progress, every player's card side by side with their totals, the round, whose turn,
the latest moves, the result. Built from the game page's own pieces (``games.play``), with no
viewer: nothing a seat may do (no hint, no coach, no action) is worked out at all."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.urls import reverse

from games import rules
from games.models import GameStatus, Move
from games.play.card import tray_dice
from games.play.presenters import board_of, first_draw, standings
from games.play.words import describe_move, page_title, result_line, whose_turn
from games.watching.selectors import Watched

CLOSED = "The tournament has ended: this game no longer counts and moves no more."


def watch_urls(watched: Watched) -> dict[str, str]:
    """The watcher's page and its stream: by the tournament's link, or by the game's own."""
    game_id = watched.seated.game.pk
    if watched.by_tournament:
        args: list[str | int] = [watched.token, game_id]
        return {
            "page": reverse("watching:tournament_game", args=args),
            "stream": reverse("watching:tournament_stream", args=args),
        }
    return {
        "page": reverse("watching:game", args=[watched.token]),
        "stream": reverse("watching:game_stream", args=[watched.token]),
    }


def news(turn: rules.Turn, *, turn_of: str) -> str:
    """What the player on turn has on the table, as a watcher reads it."""
    if not turn.dice:
        return f"{turn_of}: to roll." if turn_of else ""
    left = turn.rolls_left
    rolls = "no rolls left" if left == 0 else f"{left} roll{'s' if left > 1 else ''} left"
    return f"Roll {turn.rolls_used}: {rules.describe_dice(turn.dice)}. {rolls.capitalize()}."


def watch_context(watched: Watched, *, moves: Sequence[Move]) -> dict[str, Any]:
    """Everything the watcher's page shows; ``moves`` the game's latest, newest first."""
    seated = watched.seated
    game, match = seated.game, seated.match()
    kind = game.rules_kind
    sheets = list(match.sheets)
    totals = [sheet.totals() for sheet in sheets]
    grand = [t["grand_total"] for t in totals]
    players = standings(seated, viewer=None, sheets=sheets, totals=grand)
    in_progress = game.is_in_progress and not watched.closed
    on = match.on_turn if in_progress else None
    turn = match.turn if in_progress else rules.Turn()
    turn_of = whose_turn(seated.seats[on], yours=False) if on is not None else ""
    draw = first_draw(seated, None) if in_progress else None
    if draw is not None:
        turn_of = "Roll for first"
    several = len(seated.seats) > 1
    names = {s.pk: s.display_name for s in seated.seats} if several else {}
    finished = game.status == GameStatus.FINISHED
    round = min(game.round, kind.rounds)
    best = max(grand, default=0)
    return {
        "game": game,
        "kind": kind,
        "tournament": watched.tournament,
        "names": " and ".join(s.display_name for s in seated.seats)
        if len(seated.seats) < 3
        else f"{seated.seats[0].display_name} and {len(seated.seats) - 1} others",
        "page_title": page_title(game, kind, round=round, total=best, whose_turn=turn_of),
        "turn_of": turn_of,
        "turn": turn,
        "dice": tray_dice(turn),
        "news": news(turn, turn_of=turn_of),
        "draw": draw,
        "round": round,
        "rounds": kind.rounds,
        "players": players,
        "board": board_of(seated, sheets, totals, marked=on),
        "total": grand[on] if on is not None else best,
        "finished": finished,
        "abandoned": game.status == GameStatus.ABANDONED,
        "result_line": result_line(players) if finished else "",
        "closed": CLOSED if watched.closed else "",
        "moves": [describe_move(move, name=names.get(move.seat_id, "")) for move in moves],
        # Followed while anything can still change for it.
        "live": in_progress,
        "urls": watch_urls(watched),
    }
