"""The pages the site's optional mail links to: the unsubscribe link (no log-in needed) and the
mail provider's bounce webhook.

Both take POSTs without Django's CSRF token, each for its own reason given at the view; every
other form of the site keeps it.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts import mailing
from accounts.http import HtmxRequest


# CSRF protection stops another site from making a visitor's browser post with the visitor's
# cookies. This POST uses no cookie: the signed token in its address alone says which account
# it is for, and only that account's mail carries it, so a forged request can do nothing a
# stranger could not. And RFC 8058's one-click unsubscribe is POSTed by the mail provider,
# which has no CSRF token to send.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HtmxRequest, token: str) -> HttpResponse:
    """GET asks (mail scanners open links: a GET changes nothing); POST turns the turn mail off,
    whether the one-click POST of the mail program or the page's button."""
    try:
        if request.method == "POST":
            user = mailing.unsubscribe(token=token)
            return render(request, "accounts/unsubscribe.html", {"done": True, "account": user})
        user = mailing.account_of(token)
    except mailing.BadUnsubscribeLink as exc:
        return render(request, "accounts/unsubscribe.html", {"problem": str(exc)}, status=400)
    return render(request, "accounts/unsubscribe.html", {"account": user})


def _emails(request: HtmxRequest) -> list[str]:
    """The bounced addresses a webhook reports: form fields ``email`` (one or more), or JSON
    ``{"email": "…"}`` / ``{"emails": ["…", …]}``."""
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body)
        except ValueError:
            return []
        if not isinstance(body, dict):
            return []
        found = body.get("emails", [body.get("email")])
        return [e for e in found if isinstance(e, str)] if isinstance(found, list) else []
    return request.POST.getlist("email")


# A machine calls this, not a browser: it carries no cookie (so no CSRF token either) and
# proves itself with the shared secret, which a forging page cannot know.
@csrf_exempt
@require_POST
def bounced(request: HtmxRequest) -> HttpResponse:
    """The mail provider's webhook: addresses whose mail bounced get no more optional mail."""
    secret = settings.MAIL_WEBHOOK_SECRET
    if not secret:
        raise Http404("No bounce webhook is configured.")
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not constant_time_compare(given, secret):
        return JsonResponse({"error": "not allowed"}, status=403)
    flagged = sum(mailing.mark_bounced(email=email) for email in _emails(request))
    return JsonResponse({"flagged": flagged})
