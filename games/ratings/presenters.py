"""What the rating pages show: a table's words and links, an account's ratings on its player
page (with its "Performance"), and the help page's figures (the computers' ratings)."""

from __future__ import annotations

import datetime
import statistics
import uuid
from collections.abc import Sequence
from typing import Any, Final
from urllib.parse import urlencode

from django.urls import reverse

from games import rules
from games.models import KIND_CHOICES
from games.ratings import anchors
from games.ratings.scale import SHOWN_AT_START
from games.ratings.selectors import RatedGame, Standing, Table, provisional
from games.scores import charts
from games.strategy import BOT_NAMES


def season_name(season: datetime.date) -> str:
    return f"{season:%B %Y}"


def season_value(season: datetime.date) -> str:
    """A season as the address writes it: ``2026-11``."""
    return f"{season:%Y-%m}"


def signed(change: int) -> str:
    """A rating's change as a person writes it: +66, −12 (a minus sign), ±0."""
    if change > 0:
        return f"+{change}"
    return f"\N{MINUS SIGN}{-change}" if change < 0 else "\N{PLUS-MINUS SIGN}0"


def _player_url(public_id: uuid.UUID) -> str:
    return reverse("player", kwargs={"public_id": public_id})


def table_context(
    table: Table | None,
    *,
    kind: str,
    season: datetime.date | None,
    current: datetime.date,
    past: Sequence[datetime.date],
    viewer_id: int | None,
) -> dict[str, Any]:
    """A rating table's page: the kind and season switches, the rows, the pages; ``table``
    ``None`` for a season asked for that cannot be (the page says why, with the links)."""
    season_url, all_time_url = reverse("ratings:season"), reverse("ratings:all_time")

    def season_href(some: datetime.date | None, some_kind: str = kind) -> str:
        if some is None:
            return f"{all_time_url}?{urlencode({'kind': some_kind})}"
        if some == current:
            return f"{season_url}?{urlencode({'kind': some_kind})}"
        return f"{season_url}?{urlencode({'kind': some_kind, 'season': season_value(some)})}"

    last = current - datetime.timedelta(days=1)
    last_season = last.replace(day=1)
    scopes = [("This season", season_href(current), season == current)]
    if last_season in past:
        scopes.append(("Last season", season_href(last_season), season == last_season))
    scopes.append(("All time", season_href(None), season is None))

    name = rules.KINDS[kind].name
    if season is None:
        when = "all time"
    elif season == current:
        when = f"{season_name(season)}, this season"
    else:
        when = f"{season_name(season)}, final table"
    context: dict[str, Any] = {
        "caption": f"{name} · {when}",
        "tab_groups": [
            (
                "Game",
                [
                    (str(label), season_href(season, str(value)), value == kind)
                    for value, label in KIND_CHOICES
                ],
            ),
            ("Season", scopes),
        ],
        "other_seasons": [
            (season_name(s), season_href(s), s == season) for s in past if s != last_season
        ],
        "all_time": season is None,
        "table": table,
        "rows": [],
    }
    if table is None:
        return context
    page_href = season_href(season)
    context["rows"] = [
        {
            "place": row.place,
            "name": row.name,
            "href": _player_url(row.player_id),
            "rating": f"{row.rating:,}",
            "provisional": row.provisional,
            "games": row.games,
            "league": row.league.value,
            "league_class": f"league-{row.league.value.lower()}",
            "mine": row.user_id == viewer_id,
        }
        for row in table.rows
    ]
    context["previous_page"] = f"{page_href}&page={table.page - 1}" if table.page > 1 else ""
    context["next_page"] = f"{page_href}&page={table.page + 1}" if table.page < table.pages else ""
    return context


PERFORMANCE_GAMES: Final = 20
""""Performance" is the mean accuracy of this many latest rated games (those graded)."""


def performance(games: Sequence[RatedGame]) -> tuple[float | None, int, int]:
    """How well an account played lately, luck removed: the mean accuracy of its graded games
    among its last ``PERFORMANCE_GAMES`` rated ones (``None`` without one graded), how many were
    graded, and of how many."""
    latest = games[-PERFORMANCE_GAMES:]
    graded = [game.accuracy for game in latest if game.accuracy is not None]
    return (statistics.fmean(graded) if graded else None), len(graded), len(latest)


def player_ratings(
    games: dict[str, list[RatedGame]], standings: dict[str, Standing], *, kind: str
) -> dict[str, Any]:
    """An account's ratings on its page: per kind it has played rated games, its rating now,
    what its latest game did to it, its league this season and its performance; the history
    of the page's ``kind`` as a chart."""
    shown = []
    for value, label in KIND_CHOICES:
        if not (history := games.get(value)):
            continue
        latest, standing = history[-1], standings.get(value)
        mean, graded, counted = performance(history)
        shown.append(
            {
                "kind": value,
                "name": label,
                "rating": f"{latest.after:,}",
                "provisional": provisional(latest.sigma),
                "games": len(history),
                "change": signed(latest.change),
                "league": standing.league.value if standing else "",
                "league_class": f"league-{standing.league.value.lower()}" if standing else "",
                "place": standing.place if standing else None,
                "players": standing.players if standing else None,
                "table": f"{reverse('ratings:season')}?{urlencode({'kind': value})}",
                "performance": f"{mean:.1f}" if mean is not None else "",
                "graded": graded,
                "counted": counted,
            }
        )
    history = games.get(kind, [])
    chart = charts.rating_history(
        history[0].before if history else SHOWN_AT_START,
        [game.after for game in history],
        [game.accuracy for game in history],
    )
    graded_games = [game for game in history if game.accuracy is not None]
    return {
        "ratings": shown,
        "kind_name": rules.KINDS[kind].name,
        "rating_chart": chart,
        "rating_games": len(history),
        "rating_graded": len(graded_games),
        "rating_latest": f"{history[-1].after:,}" if history else "",
        "rating_best": f"{max(game.after for game in history):,}" if history else "",
    }


def rating_help() -> dict[str, Any]:
    """The help page's figures on ratings: each computer player's fixed rating per kind, read
    from the anchors themselves."""
    return {
        "rating_start": f"{SHOWN_AT_START:,}",
        "computer_kinds": [str(label) for _, label in KIND_CHOICES],
        "computer_ratings": [
            {
                "name": bot.title(),
                "ratings": [f"{anchors.anchor(str(k), bot).shown:,}" for k, _ in KIND_CHOICES],
            }
            for bot in BOT_NAMES
        ],
    }
