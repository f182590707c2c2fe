"""What quick play keeps (``games.quickplay``): each account's one wait for an opponent."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games import rules


class QuickWait(models.Model):
    """An account waiting for an opponent of about its rating at one kind of game. Written by
    ``games.quickplay.services`` alone. Once seated, the row stays with its ``game`` (the page
    learns where to go from it) until the account waits again or the game is deleted."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    """One wait per account: the schema refuses a second, however two requests race."""
    kind = models.CharField(max_length=16)
    rating = models.IntegerField()
    """The account's rating at ``kind`` when it joined (1,500 with none yet)."""
    joined_at = models.DateTimeField()
    checked_at = models.DateTimeField()
    """When its page last looked for an opponent (written once a widening of the window, not
    at every check): a wait whose page has gone quiet is nobody's opponent."""
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    """The game it was seated in; ``None`` while it waits."""

    class Meta:
        app_label = "games"
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=list(rules.PLAYABLE)), name="quick_wait_kind"
            )
        ]
        indexes = [
            # The pairing's read: the waits of one kind within a range of ratings.
            models.Index(
                fields=["kind", "rating"], name="quick_wait_rating", condition=Q(game__isnull=True)
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} waiting at {self.kind} ({self.rating})"
