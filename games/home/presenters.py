"""What the front page and the dashboard show: a turn drawn on the front page, the new-game
form's choices, the lines of games open and over with their links."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince

from games import rules, strategy
from games.home.selectors import GameSummary
from games.models import (
    KIND_CHOICES,
    TURN_LIMITS,
    GameStatus,
)
from games.play.presenters import game_url, play_url
from games.strategy import yatzy
from games.strategy.bots import (
    MEASURED_ACCURACY,
    MEASURED_ACCURACY_DATE,
    MEASURED_ACCURACY_SEED,
    MEASURED_MEAN,
)

PREVIEW_DICE = (4, 4, 2, 4, 6)


PREVIEW_HELD = (True, True, False, True, False)


def home_preview() -> dict[str, Any]:
    """A turn drawn on the front page: three 4s held, and what the card offers for the dice
    (worked out by the rules, so the picture never tells a wrong score)."""
    options = [
        (box.label, rules.box_score(box, PREVIEW_DICE))
        for box in (rules.Box.FOURS, rules.Box.FULL_HOUSE, rules.Box.CHANCE)
    ]
    return {
        "preview_dice": list(zip(PREVIEW_DICE, PREVIEW_HELD, strict=True)),
        "preview_rows": [(rules.Box.THREES.label, 9, False)] + [(*o, True) for o in options],
        "preview_options": ", ".join(f"{label} {points}" for label, points in options),
    }


EXAMPLE_LOSS = 10.0
"""The points lost in the help page's worked example of accuracy."""


def accuracy_help() -> dict[str, Any]:
    """The help page's figures on accuracy: the expected score of perfect play (the formula's
    denominator in Classic), a worked example through ``strategy.accuracy`` itself, and each
    computer player's measured accuracy with the seed and the day of the measurement."""
    start = MEASURED_MEAN["perfect"]
    return {
        "perfect_start": f"{start:.2f}",
        "yatzy_perfect_start": f"{yatzy.EXPECTED:.2f}",
        "example_loss": f"{EXAMPLE_LOSS:.1f}",
        "example_accuracy": f"{strategy.accuracy(EXAMPLE_LOSS, start):.1f}",
        "bot_accuracy": [
            {
                "name": name.title(),
                "mean": f"{MEASURED_ACCURACY[name]['mean']:.1f}",
                "sd": f"{MEASURED_ACCURACY[name]['sd']:.1f}",
                "lowest": f"{MEASURED_ACCURACY[name]['lowest']:.1f}",
                "highest": f"{MEASURED_ACCURACY[name]['highest']:.1f}",
            }
            for name in strategy.BOT_NAMES
        ],
        "measured_seed": MEASURED_ACCURACY_SEED,
        "measured_date": MEASURED_ACCURACY_DATE,
    }


@cache
def new_game_choices(*, opened: bool) -> SafeString:
    """The new-game form's fixed choices: computer players, seats online, the kinds of game.

    The same for every player, so rendered once per process (``opened`` after a mistake in
    the names typed, to show every choice again)."""
    context = {
        "opened": opened,
        "computer_slots": range(1, 4),
        "bot_choices": [
            (name, f"{name.title()} (average {MEASURED_MEAN[name]:.0f})")
            for name in strategy.BOT_NAMES
        ],
        "seat_choices": range(rules.MAX_SEATS),
        "turn_limits": TURN_LIMITS.items(),
        "kinds": KIND_CHOICES,
    }
    return mark_safe(render_to_string("games/home/_new_game_choices.html", context))


@dataclass(frozen=True, slots=True)
class OpenLine:
    """A game in progress (or waiting for players) on the dashboard: its link and kind, what
    the viewer's card shows, when it last moved, whether another player is on turn."""

    url: str
    kind: str
    waiting: bool
    others_turn: bool
    boxes_filled: int
    rounds: int
    score: int
    ago: str
    """How long since it last moved, in Django's words ("3 minutes")."""


def open_rows(items: Sequence[GameSummary]) -> list[OpenLine]:
    return [
        OpenLine(
            url=play_url(item.game_id),
            kind=_KIND_NAMES[item.kind],
            waiting=item.status == GameStatus.WAITING,
            # Games where it is the viewer's move come first; the others say so.
            others_turn=item.status == GameStatus.IN_PROGRESS and not item.your_turn,
            boxes_filled=item.boxes_filled,
            rounds=item.rounds,
            score=item.score,
            ago=timesince(item.updated_at),
        )
        for item in items
    ]


@dataclass(frozen=True, slots=True)
class FinishedLine:
    """A game that is over, as the dashboard and the player's own page list it: link, kind,
    the day it ended, the score, the accuracy (once graded; "≈" marks the stated estimate) and
    the link to its analysis (of a finished game)."""

    url: str
    kind: str
    finished: bool
    abandoned: bool
    when: str
    score: int
    analysis_url: str
    accuracy: str = "—"
    estimated: bool = False
    graded: bool = False


def finished_rows(items: Sequence[GameSummary]) -> list[FinishedLine]:
    zone = timezone.get_current_timezone()
    return [
        FinishedLine(
            url=play_url(item.game_id),
            kind=_KIND_NAMES[item.kind],
            finished=item.status == GameStatus.FINISHED,
            abandoned=item.status == GameStatus.ABANDONED,
            # As the date filter "j M Y" writes it (English month names: the site's language).
            when=f"{(item.finished_at or item.updated_at).astimezone(zone):%-d %b %Y}",
            score=item.score,
            analysis_url=analysis_url(item.game_id, item.position),
            accuracy=accuracy_text(item.accuracy, estimated=item.estimated),
            estimated=item.estimated,
            graded=item.accuracy is not None,
        )
        for item in items
    ]


def accuracy_text(accuracy: float | None, *, estimated: bool = False) -> str:
    """An accuracy as the lists show it: "93.4%", "≈93.4%" for the stated estimate, "—" for
    none (not graded yet, or a card that cannot be)."""
    if accuracy is None:
        return "—"
    return f"{'≈' if estimated else ''}{accuracy:.1f}%"


_KIND_NAMES = dict(KIND_CHOICES)


def analysis_url(game_id: int, position: int) -> str:
    return game_url("analysis", game_id, position)
