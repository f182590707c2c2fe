"""Quick play's pages: the one click that starts a wait, the waiting page and the check it makes
every second (htmx polling; the answer once seated is ``HX-Redirect`` to the game: the way there
where the page's stream, ``stream``, cannot be had), cancel, and the computer offered after a
while. Thin: ``services`` decides."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from accounts import licensing
from accounts.http import AuthedRequest
from games import rules
from games.errors import status_for
from games.models import KIND_CHOICES
from games.quickplay import services
from games.quickplay.services import Waiting
from games.web import redirect_to

View = Callable[[AuthedRequest], HttpResponse]
PAGE = "games:quick"


def post_only(view: View) -> View:
    """Like ``require_POST``, with a sentence for whoever followed the address by hand."""

    def only_post(request: AuthedRequest) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(
                ["POST"],
                "This address takes the quick-play form's button, not a visit.",
                content_type="text/plain",
            )
        return view(request)

    only_post.__name__ = only_post.__qualname__ = view.__name__
    only_post.__doc__ = view.__doc__
    return only_post


def render_page(
    request: AuthedRequest,
    *,
    waiting: Waiting | None,
    message: str = "",
    status: int = 200,
    licence_link: tuple[str, str] | None = None,
) -> HttpResponse:
    """The waiting page (the buttons to start one, when not waiting), or its status partial
    for the page's own check."""
    context = {
        "waiting": waiting,
        "kind": rules.KINDS[waiting.kind] if waiting else None,
        "kinds": KIND_CHOICES,
        "message": message,
        "licence_link": licence_link,
        "computer_after": int(services.COMPUTER_AFTER.total_seconds()),
    }
    template = "games/quickplay/waiting.html"
    if request.htmx and waiting is not None:
        template += "#status"
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"
    return response


LICENCE_LINKS: dict[type[Exception], tuple[str, str]] = {
    licensing.TrialOver: ("accounts:serial", "Enter a serial number"),
    licensing.EmailNotConfirmed: ("games:dashboard", "Send the link again from your games page"),
}


def _refused(request: AuthedRequest, error: Exception, waiting: Waiting | None) -> HttpResponse:
    link = LICENCE_LINKS.get(type(error))
    return render_page(
        request,
        waiting=waiting,
        message=str(error),
        status=status_for(error),
        licence_link=(reverse(link[0]), link[1]) if link else None,
    )


def _waiting_now(request: AuthedRequest) -> Waiting | None:
    try:
        return services.check_in(user=request.user)
    except services.NotWaiting:
        return None


def _game_url(game_id: int) -> str:
    return reverse("games:play", kwargs={"game_id": game_id})


@login_required
@require_GET
def page(request: AuthedRequest) -> HttpResponse:
    """The waiting page: who you wait as and for how long, or the game once seated."""
    waiting = _waiting_now(request)
    if waiting is not None and waiting.game_id is not None:
        return redirect(_game_url(waiting.game_id))
    return render_page(request, waiting=waiting)


@login_required
@require_GET
def check(request: AuthedRequest) -> HttpResponse:
    """The page's check, every second: the status again, or off to the game once seated. One
    read of the wait beside the session's (and a look for an opponent when the window has
    just widened)."""
    try:
        waiting = services.check_in(user=request.user)
    except services.NotWaiting as error:
        # Cancelled elsewhere: the page itself says so.
        response = HttpResponse(str(error), status=409, content_type="text/plain")
        response["HX-Redirect"] = reverse(PAGE)
        return response
    if waiting.game_id is not None:
        return redirect_to(request, _game_url(waiting.game_id))
    return render_page(request, waiting=waiting)


@login_required
@post_only
def join(request: AuthedRequest) -> HttpResponse:
    """One click: wait for an opponent at the kind chosen (or be seated at once)."""
    try:
        waiting = services.join(user=request.user, kind=request.POST.get("kind", ""))
    except (services.QuickPlayError, licensing.LicenceError) as error:
        return _refused(request, error, _waiting_now(request))
    if waiting.game_id is not None:
        return redirect_to(request, _game_url(waiting.game_id))
    return redirect_to(request, reverse(PAGE))


@login_required
@post_only
def cancel(request: AuthedRequest) -> HttpResponse:
    try:
        services.cancel(user=request.user)
    except services.AlreadySeated as error:
        waiting = _waiting_now(request)
        if waiting is not None and waiting.game_id is not None:
            messages.info(request, str(error))
            return redirect_to(request, _game_url(waiting.game_id))
        return _refused(request, error, waiting)
    except services.QuickPlayError as error:
        return _refused(request, error, None)
    messages.info(request, "You stopped waiting for an opponent.")
    return redirect_to(request, reverse("games:dashboard"))


@login_required
@post_only
def computer(request: AuthedRequest) -> HttpResponse:
    """Play the computer of your strength instead of waiting on (after a while)."""
    try:
        game = services.play_computer(user=request.user)
    except (services.QuickPlayError, licensing.LicenceError) as error:
        return _refused(request, error, _waiting_now(request))
    return redirect_to(request, _game_url(game.pk))
