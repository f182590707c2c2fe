"""What the daily challenge's pages say: the countdown to the next day, accuracy, the perfect
bot's game as lines a person reads."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from games import rules

ACCURACY_FORMULA = (
    "Accuracy is the share of the expected points you kept: 100 × (1 − points lost ÷ "
    "{start}), where each decision's points lost are what the analysis says it cost in "
    "expected final score against the best move on the dice you saw, and {start} is the "
    "expected score of perfect play from the start. Perfect play scores 100; it is clipped "
    "to 0..100."
)


RANKING_NOTE = (
    "Ranked by accuracy: how close each decision came to perfect play on the same dice. "
    "Everyone throws the same dice, so knowing them in advance buys nothing here; the score is "
    "shown beside it. Accounts made on the day play but are not ranked."
)


def countdown(left: timedelta) -> str:
    """ "5 h 12 min" (whole minutes, rounded up: "0 h 1 min" rather than "0 h 0 min")."""
    minutes = max(1, -(-int(left.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def next_challenge_text(left: timedelta) -> str:
    return f"Tomorrow's challenge in {countdown(left)}"


def closes_text(left: timedelta) -> str:
    """When today's challenge closes, ``left`` from now: an attempt started late must be
    finished by then (its moves are refused after)."""
    return (
        f"Today's challenge closes at midnight, in {countdown(left)}: an attempt not finished "
        "by then no longer counts, and can no longer be played."
    )


def accuracy_text(accuracy: float | None) -> str:
    return "—" if accuracy is None else f"{accuracy:.1f}%"


def perfect_lines(turns: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The perfect bot's turns as the page lists them: rolls (held dice marked), box, points."""
    lines = []
    for number, turn in enumerate(turns, start=1):
        rolls = []
        for i, dice in enumerate(turn["rolls"]):
            held = turn["holds"][i] if i < len(turn["holds"]) else [False] * len(dice)
            shown = (f"[{d}]" if h else str(d) for d, h in zip(dice, held, strict=True))
            rolls.append(" ".join(shown))
        lines.append(
            {
                "turn": str(number),
                "rolls": " → ".join(rolls),
                "box": rules.Box(turn["box"]).label,
                "points": str(turn["points"]),
            }
        )
    return lines
