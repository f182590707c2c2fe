"""The site's own error pages, in the site's look when they can be.

Django's default handlers for 400, 403 and 404 run the CSRF middleware's check first
(``requires_csrf_token``), which reads the request's body: a POST of 1,500 fields or 3 MB to an
address that matches no page then failed inside the 404 handler itself, a 500. These draw the
page without reading the body (the page's own token comes from the cookie, as on any page).
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render

logger = logging.getLogger(__name__)

BARE_500 = (
    "<!doctype html><html lang=en><meta charset=utf-8><title>Something went wrong · Yahtzee</title>"
    "<h1>Something went wrong on our side</h1><p>Sorry — the site hit an error. Your games are "
    'saved after every move. <a href="/">Back to the front page</a></p></html>'
)


def server_error(request: HttpRequest) -> HttpResponse:
    """Render ``500.html`` with the header and the player's theme, as the other error pages.

    Django's own handler renders it without the request (no theme, no user); this one tries
    with it, and falls back to a bare page when the failure was in what that needs (the
    database behind the session, a template).
    """
    try:
        return render(request, "500.html", status=500)
    except Exception:
        logger.exception("the 500 page itself failed; answered with the bare one")
        return HttpResponseServerError(BARE_500)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "400.html", status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "403.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "404.html", status=404)
