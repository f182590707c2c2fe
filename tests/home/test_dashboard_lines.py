"""The dashboard's lines, drawn by their templates: what each kind of game says, exactly; and
the same finished-game line on the dashboard and the player's own page."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from django.template import engines
from django.urls import reverse
from django.utils import timezone

from games.home.presenters import finished_rows, open_rows
from games.home.selectors import GameSummary
from games.models import Seat
from tests.factories import finished_game, page_text

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


def render(name: str, lines: list) -> str:
    """The lines as the dashboard draws them: the line's template for each."""
    macros = engines["jinja2"].env.get_template(name).module
    line_of = getattr(macros, name.rsplit("/", 1)[1].removesuffix(".html"))
    return "".join(str(line_of(line)) for line in lines)


def text(html: str) -> list[str]:
    """Each line's text, its tags dropped."""
    return [re.sub(r"<[^>]+>", "", line).strip() for line in re.split(r"</li>|</tr>", html)][:-1]


def test_a_game_in_progress_says_whose_turn_and_how_far() -> None:
    html = render(
        "games/home/open_line.html",
        open_rows(
            [
                summary(),
                summary(game_id=42, kind="triple", your_turn=False, boxes_filled=7, rounds=39),
                summary(game_id=43, status="waiting", your_turn=False, boxes_filled=0, score=0),
            ]
        ),
    )

    assert [re.sub(r"\s+", " ", line) for line in text(html)] == [
        "Resume Classic Yahtzee 4 of 13 boxes filled · 57 points · 3 minutes ago",
        "Resume Triple Yahtzee Another player's turn · 7 of 39 boxes filled · 57 points · "
        "3 minutes ago",
        "Waiting room: Classic Yahtzee 0 of 13 boxes filled · 0 points · 3 minutes ago",
    ]
    assert re.findall(r'href="([^"]+)"', html) == ["/play/41/", "/play/42/", "/play/43/"]
    assert "Another player's turn" in html  # as written, not escaped


def test_an_open_line_is_laid_out_as_the_list_styles_it() -> None:
    html = render("games/home/open_line.html", open_rows([summary()]))

    assert html == (
        '<li class="game-item">\n<a class="game-link" href="/play/41/">\n'
        '<span class="game-item-title">Resume Classic Yahtzee</span>\n'
        '<span class="game-item-meta">4 of 13 boxes filled · 57 points · 3\xa0minutes ago</span>\n'
        "</a>\n</li>"
    )


def test_a_game_that_is_over_shows_its_date_score_and_analysis() -> None:
    html = render(
        "games/home/finished_line.html",
        finished_rows(
            [
                summary(status="finished", finished_at=WHEN, score=251, position=2, accuracy=93.44),
                summary(
                    game_id=44, status="abandoned", updated_at=WHEN - timedelta(days=1), score=0
                ),
            ]
        ),
    )

    assert html == (
        '<tr>\n<td><a href="/play/41/">Classic Yahtzee</a> · '
        '<a href="/play/41/analysis/2/">analysis</a></td>\n'
        '<td>7 Mar 2026</td>\n<td class="num">251</td>\n<td class="num">93.4%</td>\n</tr>'
        '<tr>\n<td><a href="/play/44/">Classic Yahtzee</a> <span class="tag">abandoned</span>'
        '</td>\n<td>6 Mar 2026</td>\n<td class="num">—</td>\n<td class="num">—</td>\n</tr>'
    )


def test_a_finished_games_accuracy_is_marked_as_the_estimate_or_missing_while_ungraded() -> None:
    html = render(
        "games/home/finished_line.html",
        finished_rows(
            [
                summary(status="finished", kind="triple", accuracy=88.06, estimated=True),
                summary(game_id=45, status="finished", accuracy=None),
            ]
        ),
    )

    cells = re.findall(r'<td class="num">(.*?)</td>', html)
    assert cells[1] == ('<abbr title="An estimate: Triple, or a game of several">≈88.1%</abbr>')
    assert cells[3] == "—"  # finished, not graded yet


def test_no_games_no_lines() -> None:
    assert render("games/home/open_line.html", []) == ""
    assert render("games/home/finished_line.html", []) == ""


def test_the_dashboard_and_the_players_page_list_the_same_finished_game(
    alice_client, player
) -> None:
    finished_game(player, 251, when=WHEN)
    Seat.objects.filter(user=player).update(game_over=True)

    dashboard = alice_client.get(reverse("games:dashboard")).text
    own_page = alice_client.get(reverse("player", kwargs={"public_id": player.public_id})).text

    line = dashboard.split('<table class="results">', 1)[1].split("</table>", 1)[0]
    analysed = own_page.split('<ul class="analysable">', 1)[1].split("</ul>", 1)[0]
    link = re.findall(r'href="(/play/\d+/analysis/0/)"', line)
    assert len(link) == 1 and link == re.findall(r'href="([^"]+)"', analysed)
    assert "Classic Yahtzee · analysis 7 Mar 2026 251" in page_text(line)
    assert page_text(analysed) == "Classic Yahtzee, 7 Mar 2026: 251 — analysis"
