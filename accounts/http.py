"""Typed requests for views: what the middleware has attached by the time a view runs.

As django-htmx documents, a view annotates ``request: HtmxRequest`` (anyone) or
``request: AuthedRequest`` (behind ``login_required``), so ``request.htmx`` and
``request.user`` are checked by mypy instead of silenced.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxRequest(HttpRequest):
    user: User | AnonymousUser
    htmx: HtmxDetails


class AuthedRequest(HttpRequest):
    """A request behind ``login_required``: its user is a real account."""

    user: User
    htmx: HtmxDetails
