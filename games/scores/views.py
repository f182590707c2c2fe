"""The public top tens and a player's page of statistics."""

from __future__ import annotations

import statistics
import time
import uuid

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.http import (
    Http404,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import User
from games import rules
from games.home.presenters import finished_rows
from games.home.selectors import latest_finished
from games.models import KIND_CHOICES, HighScorePeriod, PlayerKind, Score
from games.ratings import presenters as rating_presenters
from games.ratings import selectors as rating_selectors
from games.ratings.models import RatingChange
from games.scores import charts
from games.scores.presenters import (
    PLAYER_KINDS,
    accuracy_trend,
    fives_name,
    high_scores_context,
)
from games.scores.selectors import (
    PlayerStats,
    newest_score_id,
    player_stats,
    scores_version,
    top_ten,
)
from games.web import KINDS, choice


@require_GET
def high_scores(request: HtmxRequest) -> HttpResponse:
    """The public top ten per game kind, for people or for the computer, over a period."""
    kind = choice(request, "kind", KINDS, rules.CLASSIC.key)
    period = choice(request, "period", HighScorePeriod.values, HighScorePeriod.ALL_TIME)
    # Only the tables the page offers: a guest's name was typed at a host's screen, and nobody
    # can vouch for it, so their scores are never shown to the public.
    public_kinds = [str(value) for value, _ in PLAYER_KINDS]
    player_kind = choice(request, "player_kind", public_kinds, PlayerKind.HUMAN)
    viewer = request.user if isinstance(request.user, User) else None
    # A visitor's table is the same for everyone until the next game finishes (or, for a
    # period, the window moves on): it is rendered once and kept, keyed by the newest score.
    key = None
    if viewer is None:
        window = int(time.time() // 60) if period != HighScorePeriod.ALL_TIME else 0
        version = scores_version()
        key = f"top-ten:{kind}:{player_kind}:{period}:{version}:{window}"
    cached = cache.get(key) if key else None
    if cached is None:
        top = top_ten(kind=kind, player_kind=player_kind, period=period, viewer=viewer)
        context = high_scores_context(top)
        cached = {
            "caption": context["caption"],
            "html": render_to_string("games/scores/_top_ten.html", context, request),
        }
        if key:
            cache.set(key, cached, timeout=300)
    if request.htmx and not request.htmx.history_restore_request:
        response = HttpResponse(cached["html"])
    else:
        context = {"caption": cached["caption"], "table_html": mark_safe(cached["html"])}
        response = render(request, "games/scores/high_scores.html", context)
    patch_vary_headers(response, ["HX-Request", "Cookie"])
    return response


RECORD_FORMAT = 2
"""Part of the key a public record is kept under: a change to what it holds changes it, so no
worker reads another version's."""


@require_GET
def player_page(request: HtmxRequest, public_id: uuid.UUID) -> HttpResponse:
    """A player's statistics: everything for themselves, a public summary for others.

    Others see a page only for someone who has finished a game: an account is not announced
    by having signed up, and the address is the random ``public_id``, never the row's id.
    """
    player = (
        User.objects.annotate(
            has_finished=Exists(
                Score.objects.filter(user=OuterRef("pk"), player_kind=PlayerKind.HUMAN)
            ),
            # A rated game its host ended leaves no score: its players are in the tables.
            has_rating=Exists(RatingChange.objects.filter(user=OuterRef("pk"))),
        )
        .only("id", "public_id", "display_name", "date_joined")
        .filter(public_id=public_id)
        .first()
    )
    if player is None or not (
        player.has_finished or player.has_rating or player.pk == request.user.pk
    ):
        raise Http404("No such player.")
    kind = choice(request, "kind", KINDS, rules.CLASSIC.key)
    own = request.user.is_authenticated and request.user.pk == player.pk

    Record = tuple[PlayerStats, charts.Chart | None, charts.Chart | None, charts.Chart | None]

    def record() -> Record:
        stats = player_stats(user_id=player.pk, kind=kind, private=own)
        return (
            stats,
            charts.score_line(stats.totals),
            charts.score_histogram(stats.totals),
            charts.accuracy_line(stats.accuracies),
        )

    if own:
        stats, line, histogram, accuracy = record()
    else:
        # The public record only changes when the player finishes a game: keep it until then
        # (an hour at most: a game of several is graded just after it finishes).
        newest = newest_score_id(user_id=player.pk, kind=kind)
        key = f"player-record:{RECORD_FORMAT}:{player.pk}:{kind}:{newest}"
        kept: Record | None = cache.get_or_set(key, record, timeout=3600)
        stats, line, histogram, accuracy = kept or record()
    # Not kept with the record: a rating changes with games that leave no score, and a league
    # with everyone else's games. Two queries; none for an account never rated.
    rated = rating_selectors.rated_games(user_id=player.pk) if player.has_rating else {}
    today = timezone.localdate()
    standings = (
        rating_selectors.standings(user_id=player.pk, season=today.replace(day=1), today=today)
        if rated
        else {}
    )
    context = rating_presenters.player_ratings(rated, standings, kind=kind) | {
        "player": player,
        "own": own,
        "stats": stats,
        "kind": kind,
        "kinds": KIND_CHOICES,
        "line": line,
        "histogram": histogram,
        "accuracy_chart": accuracy,
        "accuracy_trend": accuracy_trend(stats.accuracies, own=own),
        "accuracy_mean": statistics.fmean(stats.accuracies) if stats.accuracies else None,
        "exact_kind": kind != rules.TRIPLE.key,
        "fives": fives_name(kind),
        "yahtzee_bonus_kind": rules.KINDS[kind].yahtzee_bonus,
        # Their own page offers the analysis of their latest finished games.
        "analysable": finished_rows(latest_finished(user=player, shown=5)) if own else [],
    }
    return render(request, "games/scores/player.html", context)


@login_required
@require_GET
def my_stats(request: AuthedRequest) -> HttpResponse:
    return redirect("player", public_id=request.user.public_id)
