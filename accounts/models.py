"""The site's user: Django's user with the display name shown in games and high scores."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower


class User(AbstractUser):
    display_name = models.CharField(
        max_length=30,
        help_text="Shown to other players and in the high scores.",
    )

    class Meta(AbstractUser.Meta):
        constraints = [
            # The form says "taken" nicely; this holds the line against two sign-ups racing.
            models.UniqueConstraint(
                Lower("email"), condition=~Q(email=""), name="user_email_unique_ci"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    def save(self, *args: object, **kwargs: object) -> None:
        if not self.display_name:
            self.display_name = self.username[:30]
        super().save(*args, **kwargs)  # type: ignore[arg-type]
