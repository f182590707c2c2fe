"""What the ratings keep (``games.ratings``): each account's rating per kind, each rated game's
change to it, and each season's table."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games import rules


class Rating(models.Model):
    """An account's rating at one kind of game (Classic, Triple): a Plackett-Luce belief
    (``mu``, ``sigma``, openskill's) and the figure shown for it (``rating``, kept to be
    ordered by). Written by ``games.ratings.services`` alone."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="rating_one_per_kind"),
            models.CheckConstraint(condition=Q(kind__in=list(rules.PLAYABLE)), name="rating_kind"),
        ]
        indexes = [models.Index(fields=["kind", "-rating", "user"], name="rating_table")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating} at {self.kind}"


class RatingChange(models.Model):
    """What one rated game did to one account's rating (its history, the chart's points)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)
    place = models.PositiveSmallIntegerField()
    """Where the account finished (1 for a win; equal places shared)."""
    players = models.PositiveSmallIntegerField()
    """How many were placed (the accounts rated and the computers)."""
    weight = models.FloatField()
    """How much the game counted: 1, less for the same accounts meeting again and again."""
    before = models.IntegerField()
    after = models.IntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    created_at = models.DateTimeField()

    class Meta:
        app_label = "games"
        constraints = [
            # A game rates an account once, however often its task runs.
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once")
        ]
        indexes = [models.Index(fields=["user", "kind", "-created_at"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.before} -> {self.after} in game {self.game_id}"

    @property
    def change(self) -> int:
        return self.after - self.before


class SeasonRating(models.Model):
    """An account's rating at the end of its latest rated game of a season (a calendar month):
    the season's table. A season over is never written again: its table is its final one."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)
    season = models.DateField()
    """The season's first day (the first of its month)."""
    rating = models.IntegerField()
    sigma = models.FloatField(default=25 / 3)
    """How sure the rating was then (a "?" on the table while provisional)."""
    games = models.PositiveIntegerField(default=0)
    joined = models.DateField()
    """The day the account was made (a copy: an account made today enters no table)."""

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "season"], name="season_rating_once")
        ]
        indexes = [models.Index(fields=["kind", "season", "-rating", "user"], name="season_table")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating} at {self.kind}, {self.season:%B %Y}"
