"""The dashboard's lines, drawn in Python: what each kind of game says, exactly."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from django.utils import timezone

from games.home import dashboard_html
from games.home.selectors import GameSummary

WHEN = datetime(2026, 3, 7, 23, 30, tzinfo=UTC)


def summary(**fields) -> GameSummary:
    base = {
        "game_id": 41,
        "kind": "classic",
        "status": "in_progress",
        "updated_at": timezone.now() - timedelta(minutes=3),
        "finished_at": None,
        "score": 57,
        "boxes_filled": 4,
        "rounds": 13,
        "your_turn": True,
        "position": 0,
    }
    return GameSummary(**(base | fields))


def text(html: str) -> list[str]:
    """Each line's text, its tags dropped."""
    return [re.sub(r"<[^>]+>", "", line).strip() for line in re.split(r"</li>|</tr>", html)][:-1]


def test_a_game_in_progress_says_whose_turn_and_how_far() -> None:
    html = dashboard_html.open_lines(
        [
            summary(),
            summary(game_id=42, kind="triple", your_turn=False, boxes_filled=7, rounds=39),
            summary(game_id=43, status="waiting", your_turn=False, boxes_filled=0, score=0),
        ]
    )

    assert [re.sub(r"\s+", " ", line) for line in text(html)] == [
        "Resume Classic Yahtzee 4 of 13 boxes filled · 57 points · 3 minutes ago",
        "Resume Triple Yahtzee Another player's turn · 7 of 39 boxes filled · 57 points · "
        "3 minutes ago",
        "Waiting room: Classic Yahtzee 0 of 13 boxes filled · 0 points · 3 minutes ago",
    ]
    assert re.findall(r'href="([^"]+)"', html) == ["/play/41/", "/play/42/", "/play/43/"]
    assert "Another player's turn" in html  # as written, not escaped


def test_a_game_that_is_over_shows_its_date_score_and_analysis() -> None:
    html = dashboard_html.over_lines(
        [
            summary(status="finished", finished_at=WHEN, score=251, position=2),
            summary(game_id=44, status="abandoned", updated_at=WHEN - timedelta(days=1), score=0),
        ]
    )

    assert '<a href="/play/41/">Classic Yahtzee</a> · <a href="/play/41/analysis/2/">' in html
    assert [re.sub(r"\s+", " ", line) for line in text(html)] == [
        "Classic Yahtzee · analysis 7 Mar 2026 251",
        "Classic Yahtzee abandoned 6 Mar 2026 —",
    ]
    assert html.count("analysis</a>") == 1 and html.count('class="tag"') == 1


def test_no_games_no_lines() -> None:
    assert dashboard_html.open_lines([]) == "" and dashboard_html.over_lines([]) == ""
