"""The site itself as an app: only so that its system checks are registered."""

from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "yahtzee_site"
    label = "yahtzee_site"

    def ready(self) -> None:
        from yahtzee_site import checks  # noqa: F401  (registers them)
