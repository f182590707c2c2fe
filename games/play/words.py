"""The sentences of the game page: the title, whose turn it is, the news of a roll or a box,
a line of the log, who won."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import rules
from games.models import (
    Game,
    GameStatus,
    HighScorePeriod,
    Move,
    MoveAction,
    Seat,
)
from games.scores.selectors import PERIOD_PHRASES


def announcement(
    turn: rules.Turn, *, on_turn: bool, finished: bool, total: int, turn_of: str = ""
) -> str:
    if finished:
        return f"Game over. Final score {total}."
    if not turn.dice:
        if turn_of:
            return f"{turn_of.rstrip('!')}: roll the dice."
        return "Your turn: roll the dice." if on_turn else ""
    left = turn.rolls_left
    rolls = (
        "no rolls left, choose a box" if left == 0 else f"{left} roll{'s' if left > 1 else ''} left"
    )
    return f"Roll {turn.rolls_used}: {rules.describe_dice(turn.dice)}. {rolls.capitalize()}."


def page_title(
    game: Game, kind: rules.GameKind, *, round: int, total: int, whose_turn: str = ""
) -> str:
    """The tab's title: it follows the game, so a player in another tab sees where it stands
    (and, with several players, whose turn it is)."""
    if game.status == GameStatus.FINISHED:
        return f"Game over — {total} — {kind.name}"
    if game.status == GameStatus.ABANDONED:
        return f"Abandoned — {kind.name}"
    turn = f"{whose_turn} — " if whose_turn else ""
    return f"{turn}Round {round} of {kind.rounds} — {kind.name}"


def whose_turn(seat: Seat, *, yours: bool) -> str:
    """Who is to play, as the viewer reads it: "Your turn!" for their own seat."""
    return "Your turn!" if yours else f"{seat.display_name}'s turn"


def result_line(players: Sequence[dict[str, Any]]) -> str:
    """Who won a finished game of several players, ties shared."""
    winners = [p["name"] for p in players if p["winner"]]
    if not winners or len(players) < 2:
        return ""
    total = next(p["total"] for p in players if p["winner"])
    if len(winners) == 1:
        return f"{winners[0]} wins with {total}."
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win with {total}."


def celebrations(
    scoring: rules.Scoring | None,
    *,
    finished: bool,
    total: int,
    high_score: dict[str, str] | None,
    kind: rules.GameKind = rules.CLASSIC,
) -> list[dict[str, str]]:
    """What the scoring just done deserves beyond a line of text, biggest news last; a five of
    a kind is called as ``kind``'s players call it (YAHTZEE!, Yatzy!)."""
    if scoring is None:
        return []
    events = []
    if rules.is_yahtzee(scoring.dice):
        bonus = f" +{scoring.yahtzee_bonus} bonus." if scoring.yahtzee_bonus else ""
        shout = "Yatzy!" if kind is rules.YATZY else "YAHTZEE!"
        events.append({"kind": "yahtzee", "text": f"{shout}{bonus}"})
    if scoring.upper_bonus:
        events.append({"kind": "upper-bonus", "text": f"Upper bonus +{scoring.upper_bonus}!"})
    if finished:
        events.append({"kind": "game-over", "text": f"Game over — {total}"})
    if finished and high_score:
        events.append({"kind": "high-score", "text": high_score["text"]})
    return events


def describe(record: rules.Roll | rules.Scoring, *, who: str = "") -> str:
    """One line of the game's log: "Roll 2: 6, 6, 3, 6, 1" or "24 in Sixes"."""
    prefix = f"{who}: " if who else ""
    if isinstance(record, rules.Roll):
        return f"{prefix}Roll {record.roll_number}: {rules.describe_dice(record.dice)}"
    line = f"{prefix}{record.points} in {rules.Box(record.box).label}"
    if record.column > 0:
        line += f" (column {record.column + 1})"
    if record.yahtzee_bonus:
        line += f", +{record.yahtzee_bonus} Yahtzee bonus"
    return line


def describe_move(move: Move, *, name: str = "") -> str:
    """A logged move as a line of the game's log (with the player's ``name`` when several play)."""
    record: rules.Roll | rules.Scoring
    prefix = f"{name}: " if name else ""
    if move.action == MoveAction.UNDO:
        return f"{prefix}Took back {move.points} in {rules.Box(move.box).label}"
    if move.action == MoveAction.FIRST:
        dice = tuple(move.dice)
        return f"{prefix}Rolled for first: {rules.describe_dice(dice)} = {sum(dice)}"
    if move.action == MoveAction.RESIGN:
        return f"{prefix}Resigned"
    if move.action == MoveAction.END:
        return f"{prefix}Ended the game for everyone"
    if move.action == MoveAction.SKIP:
        return f"{prefix}Skipped (idle): 0 in {rules.Box(move.box).label}"
    if move.action == MoveAction.ROLL:
        record = rules.Roll(
            dice=tuple(move.dice), held=tuple(move.held), roll_number=move.roll_number or 0
        )
    else:
        record = rules.Scoring(
            column=move.column or 0,
            box=move.box,
            points=move.points or 0,
            yahtzee_bonus=move.yahtzee_bonus,
            dice=tuple(move.dice),
            joker=move.joker,
        )
    return describe(record, who=name)


def high_score_news(entry: tuple[int, HighScorePeriod] | None) -> dict[str, str] | None:
    """What the game-over panel says when the game entered the high scores."""
    if entry is None:
        return None
    rank, period = entry
    return {
        "text": f"New high score — #{rank} {PERIOD_PHRASES[period]}!",
        "period": period,
    }
