"""The trainer's pages: the next position to decide, a position (its question while it is due,
else its latest verdict), answering one, and starting the running score again.

Any signed-in account may train, registered or on trial (its trial games used up or not): no
game is started, no trial game used and nothing reaches the high scores. An answer is one
POST: htmx swaps the verdict in; without JavaScript the browser is sent to the position's page,
which shows it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import push_url

from accounts.http import AuthedRequest
from games import rules, strategy
from games.errors import BadInput, status_for
from games.trainer import presenters, selectors, services, tally
from games.trainer.models import TrainingPosition
from games.trainer.positions import Position
from games.web import redirect_to
from yahtzee_site import numbers

PAGE = "games/trainer/train.html"


def _render(request: AuthedRequest, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    template = f"{PAGE}#trainer" if request.htmx else PAGE
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _page(
    request: AuthedRequest,
    row: TrainingPosition,
    now: datetime,
    *,
    decision: strategy.Decision | None = None,
    message: str = "",
    status: int = 200,
) -> HttpResponse:
    """``row``'s question (no ``decision``), or its verdict."""
    zone = services.zone_of(request.user)
    played = None
    action = presenters.played_action(row) if decision is not None else None
    if action is not None:
        played = services.grade(Position.from_json(row.position), action)
    context = presenters.page_context(
        row,
        now=now,
        zone=zone,
        tally=tally.read(request.session),
        standing=selectors.standing(request.user, now),
        decision=decision,
        played=played,
        message=message,
    )
    context["answer_url"] = reverse("games:trainer:answer", kwargs={"position_id": row.pk})
    return _render(request, context, status=status)


def _verdict_or_question(
    request: AuthedRequest, row: TrainingPosition, now: datetime, **kwargs: Any
) -> HttpResponse:
    """A position due shows its question; one answered and waiting, its latest verdict."""
    last = presenters.last_answer(row)
    if services.is_due(row, now) or last is None:
        return _page(request, row, now, **kwargs)
    decision = services.grade(Position.from_json(row.position), last)
    return _page(request, row, now, decision=decision, **kwargs)


@login_required
@require_GET
def train(request: AuthedRequest) -> HttpResponse:
    """The next position to decide, or what is left for later when none is."""
    now = timezone.now()
    row = services.draw(user=request.user, now=now)
    if row is None:
        zone = services.zone_of(request.user)
        standing = selectors.standing(request.user, now)
        kept = tally.read(request.session)
        context = {
            "row": None,
            "tally": kept,
            "tally_lost": f"{kept.lost:.1f}",
            "standing": standing,
            "next_due": presenters.when(standing, timezone.localdate(now, zone), zone),
        }
        return _render(request, context)
    return _page(request, row, now)


def _own(request: AuthedRequest, position_id: int) -> TrainingPosition:
    row = selectors.position_of(request.user, position_id)
    if row is None:
        raise Http404("There is no such position among yours.")
    return row


@login_required
@require_GET
def position(request: AuthedRequest, position_id: int) -> HttpResponse:
    """One of the account's positions: its question while due, else its latest verdict."""
    return _verdict_or_question(request, _own(request, position_id), timezone.now())


def parse_answer(data: QueryDict) -> strategy.Action:
    """The answer a form sends: ``box`` (a box's key), or ``roll`` with the dice to hold as
    ``held`` (their places, 0 to 4: the ticked dice). ``BadInput`` saying why otherwise."""
    box, rolling = data.get("box"), "roll" in data
    if box is not None and rolling:
        raise BadInput("Choose a box to score or dice to roll, not both.")
    if box is not None:
        if box not in rules.CATEGORIES:
            raise BadInput(f"There is no box called “{box}”.")
        return strategy.ScoreBox(0, rules.Box(box))
    if not rolling:
        raise BadInput("Choose a box to score, or the dice to hold and then Roll.")
    places = data.getlist("held")
    held = [False] * rules.DICE_COUNT
    for place in places:
        try:
            index = numbers.whole(place, high=rules.DICE_COUNT - 1)
        except numbers.NotANumber as exc:
            raise BadInput(
                f"There are five dice, numbered 1 to 5: there is no die {_die(place)} to hold."
            ) from exc
        if held[index]:
            raise BadInput(f"Die {index + 1} was sent twice: hold each die once.")
        held[index] = True
    return strategy.RollDice(tuple(held))


def _die(place: str) -> str:
    """How a refused die's place is named back: its number as the page counts (1 to 5), or
    the text sent, cut short."""
    try:
        return str(numbers.whole(place) + 1)
    except numbers.NotANumber:
        return f"“{place[:12]}…”" if len(place) > 12 else f"“{place}”"


@login_required
@require_POST
def answer(request: AuthedRequest, position_id: int) -> HttpResponse:
    """Grade an answer: the verdict (htmx swaps it in; a plain form goes to the position's
    page, which shows it). A refusal shows the position again with the reason, changing
    nothing: 400 bad input, 409 answered already, 404 not the account's."""
    now = timezone.now()
    row = _own(request, position_id)
    try:
        action = parse_answer(request.POST)
        done = services.answer(user=request.user, position_id=row.pk, action=action, now=now)
    except services.PositionNotFound as exc:
        raise Http404(str(exc)) from exc
    except services.NotDue as exc:
        return _verdict_or_question(request, row, now, message=str(exc), status=status_for(exc))
    except (BadInput, rules.IllegalMove) as exc:
        return _page(request, row, now, message=str(exc), status=status_for(exc))
    decision = done.decision
    tally.add(request.session, best=decision.is_best, loss=decision.loss)
    url = reverse("games:trainer:position", kwargs={"position_id": row.pk})
    if not request.htmx:
        return redirect(url)
    return push_url(_page(request, done.row, now, decision=decision), url)


@login_required
@require_POST
def restart(request: AuthedRequest) -> HttpResponse:
    """Start the running score again (the positions keep their schedule)."""
    tally.reset(request.session)
    return redirect_to(request, reverse("games:trainer:train"))
