"""The top-ten page's words and links, and the accuracy trend a player's page states."""

from __future__ import annotations

import statistics
import uuid
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import timezone

from games import rules
from games.models import (
    KIND_CHOICES,
    HighScorePeriod,
    PlayerKind,
)
from games.scores.selectors import TopTen

PLAYER_KINDS = ((PlayerKind.HUMAN, "People"), (PlayerKind.COMPUTER, "Computer"))


def fives_name(kind: str) -> str:
    """What a five of a kind is called in ``kind``'s lists: Yatzy's players count "Yatzys"."""
    return "Yatzys" if kind == rules.YATZY.key else "Yahtzees"


def high_scores_context(top: TopTen) -> dict[str, Any]:
    """The top-ten page's words and links, worked out once here rather than in template loops."""
    choice = {"kind": top.kind, "period": top.period, "player_kind": top.player_kind}

    def tabs(name: str, options: Iterable[tuple[str, Any]]) -> list[tuple[str, str, bool]]:
        return [
            (str(label), "?" + urlencode(choice | {name: value}), value == choice[name])
            for value, label in options
        ]

    blank = uuid.UUID(int=0)
    player_url = reverse("player", kwargs={"public_id": blank}).removesuffix(f"{blank}/")
    rows = [
        {
            "rank": row.rank,
            "name": row.display_name,
            "href": f"{player_url}{row.player_id}/" if row.player_id else "",
            "total": row.grand_total,
            "replay": reverse(
                "games:replay", kwargs={"game_id": row.game_id, "position": row.position}
            ),
            # In the site's time zone, as the date filter writes dates everywhere else.
            "date": f"{timezone.localtime(row.finished_at):%-d %b %y}",
            "iso": row.finished_at.isoformat(),
            "yahtzees": row.yahtzees,
            "hints": row.hints,
            "coached": row.coached,
            "mine": row.mine,
        }
        for row in top.rows
    ]
    return {
        "top": top,
        "rows": rows,
        "fives": fives_name(top.kind),
        "tab_groups": [
            ("Game", tabs("kind", KIND_CHOICES)),
            ("Period", tabs("period", HighScorePeriod.choices)),
            ("Players", tabs("player_kind", PLAYER_KINDS)),
        ],
        "caption": " · ".join(
            [
                rules.KINDS[top.kind].name,
                str(HighScorePeriod(top.period).label),
                *(["computer players"] if top.player_kind == PlayerKind.COMPUTER else []),
            ]
        ),
    }


TREND_GAMES = 20
"""The accuracy trend compares the mean of a player's last this many graded games with the
mean of as many before them."""


def accuracy_trend(accuracies: Sequence[float], *, own: bool) -> str:
    """How a player's accuracy goes, in a sentence: "Your last 20 games: 91.4, up from 87.2."
    (the mean of the last ``TREND_GAMES`` graded games, against the mean of as many before
    them, or of those there are); "Their …" on someone else's page; "" without a graded game.
    """
    if not accuracies:
        return ""
    whose = "Your" if own else "Their"
    last, before = accuracies[-TREND_GAMES:], accuracies[-2 * TREND_GAMES : -TREND_GAMES]
    now = f"{statistics.fmean(last):.1f}"
    if not before:
        games = "one game" if len(last) == 1 else f"{len(last)} games"
        return f"{whose} {games} so far: {now}."
    then = f"{statistics.fmean(before):.1f}"
    than = ""  # the 20 before, unless there were fewer
    if len(before) < TREND_GAMES:
        than = " in the game before" if len(before) == 1 else f" in the {len(before)} before"
    if now == then:
        same = "the game before" if len(before) == 1 else f"the {len(before)} before"
        return f"{whose} last {len(last)} games: {now}, the same as {same}."
    way = "up" if float(now) > float(then) else "down"
    return f"{whose} last {len(last)} games: {now}, {way} from {then}{than}."
