"""The site's own system checks (``manage.py check --deploy``), and what a served process says
of the same at start, since gunicorn runs no checks.

- ``yahtzee_site.W001``: ``SITE_URL`` unset in production. Mail is sent where no request says
  where the site is (the turn mail's game, unsubscribe and options links), so its address is
  then guessed from ``ALLOWED_HOSTS``, which knows no port nor a proxy's path: ``make run`` on
  port 8000 mailed links to ``http://localhost/…``, which went nowhere.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Warning, register

log = logging.getLogger(__name__)


def site_url_guessed() -> Warning | None:
    if settings.DEBUG or not settings.SITE_URL_GUESSED:
        return None
    return Warning(
        f"SITE_URL is not set: mail links to {settings.SITE_URL}, guessed from ALLOWED_HOSTS "
        "(no port, no path), which may not be where players reach the site.",
        hint="Set SITE_URL to the site's address as players reach it, such as "
        "https://yahtzee.example.com (make run sets http://HOST:PORT).",
        id="yahtzee_site.W001",
    )


@register(deploy=True)
def check_site_url(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[CheckMessage]:
    found = site_url_guessed()
    return [found] if found is not None else []


def say_at_start() -> None:
    """Log, once a served process has loaded the site, what the deploy checks would warn of."""
    found = site_url_guessed()
    if found is not None:
        log.warning("%s %s (%s)", found.msg, found.hint, found.id)
