"""After the game: each decision of a finished game set beside the best one, replayed from the
``Move`` log through the rules and graded by the perfect-play table."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.http import AuthedRequest
from games import advice, rules, store, strategy
from games.errors import GameNotFound
from games.models import GameStatus
from games.review.selectors import NoRecord, game_record
from games.scores import charts

COSTLIEST = 3


def _choice_words(decision: strategy.Decision) -> dict[str, Any]:
    return {
        "turn": decision.turn_number,
        "roll": decision.roll_number,
        "dice": rules.describe_dice(decision.dice),
        "choice": decision.choice.description,
        "best": decision.best.description,
        "loss": f"{decision.loss:.1f}",
        "is_best": decision.is_best,
    }


@login_required
@require_GET
def analysis(request: AuthedRequest, game_id: int, position: int) -> HttpResponse:
    """The analysis of the card at ``position`` in a finished game the viewer sat in."""
    try:
        seated = store.load(game_id=game_id, user=request.user)
    except GameNotFound as exc:
        raise Http404(str(exc)) from exc
    game = seated.game
    seat = next((s for s in seated.seats if s.position == position), None)
    if seat is None or game.status != GameStatus.FINISHED:
        raise Http404("Only a finished game's cards can be analysed.")
    context: dict[str, Any] = {"game": game, "seat": seat, "kind": game.rules_kind}
    try:
        record = game_record(seat)
    except NoRecord as exc:
        context["message"] = str(exc)
        return render(request, "games/review/analysis.html", context)
    found = strategy.analyse(advice.advisor(), record, players=len(seated.seats))
    context |= {
        "analysis": found,
        "start": f"{found.start:.1f}",
        "total_loss": f"{found.total_loss:.1f}",
        "best_count": sum(1 for d in found.decisions if d.is_best),
        "costliest": [_choice_words(d) for d in found.costliest(COSTLIEST)],
        "decisions": [_choice_words(d) for d in found.decisions],
        "chart": charts.score_line([round(value) for value in found.path]),
        "other_seats": [s for s in seated.seats if s.pk != seat.pk],
    }
    return render(request, "games/review/analysis.html", context)
