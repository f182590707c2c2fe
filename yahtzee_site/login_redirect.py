"""A redirect to the log-in page is kept short, whoever made it (``login_required``,
``redirect_to_login``).

Such a redirect carries the page asked for back in ``next=``, percent-encoded: a logged-out
request with a 4 KB query got an 8 KB ``Location``, past the header buffer of a proxy in front
(nginx answered 502) and of some browsers. Past ``MAX_LOCATION`` bytes the page's query is left
out of ``next`` (after logging in, the player lands on the page without it), and if even that is
too long, ``next`` itself.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponseBase, QueryDict
from django.shortcuts import resolve_url
from django.utils.deprecation import MiddlewareMixin

MAX_LOCATION: Final = 2000
"""Bytes a redirect to the log-in page may take in its ``Location`` (well under the 4 KB of an
nginx header buffer by default, and any browser's limit on an address)."""


class ShortLoginRedirect(MiddlewareMixin):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        location = response.get("Location")
        if location is not None and len(location) > MAX_LOCATION:
            shorter = shortened(location, login_url=resolve_url(settings.LOGIN_URL))
            if shorter is not None:
                response["Location"] = shorter
        return response


def shortened(location: str, *, login_url: str) -> str | None:
    """``location`` with its ``next`` cut down to fit ``MAX_LOCATION`` (its query and fragment
    left out, or the whole of it); ``None`` when ``location`` is no redirect to
    ``login_url`` with a ``next``."""
    address, login = urlsplit(location), urlsplit(login_url)
    if (address.scheme, address.netloc, address.path) != (login.scheme, login.netloc, login.path):
        return None
    query = QueryDict(address.query, mutable=True)
    back = query.get(REDIRECT_FIELD_NAME)
    if not isinstance(back, str):
        return None
    after = urlsplit(back)
    query[REDIRECT_FIELD_NAME] = urlunsplit(after._replace(query="", fragment=""))
    shorter = urlunsplit(address._replace(query=query.urlencode(safe="/")))
    if len(shorter) <= MAX_LOCATION:
        return shorter
    del query[REDIRECT_FIELD_NAME]
    return urlunsplit(address._replace(query=query.urlencode(safe="/")))
