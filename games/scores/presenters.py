"""The top-ten page's words and links."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
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
