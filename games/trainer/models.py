"""What the trainer keeps per account: each position put before the player, with where it came
from and its place in the spaced repetition (``TrainingPosition``), and which finished games
have given their costly decisions already (``TrainerHarvest``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Source(models.TextChoices):
    """Where a position came from. Sorted by their values, the player's own come first."""

    OWN = "own", "Your own game"
    SET = "set", "Instructive position"


class TrainingPosition(models.Model):
    """A position of one account's training: made when first drawn, kept for good (a learned
    one too, so it is never drawn again as new).

    ``key`` names the position for its account: ``seat:<seat id>:<decision number>`` for a
    decision of the player's own game, ``set:<slug>`` for one of the instructive set.
    ``interval_days`` is 0 until the position is first missed in the trainer
    (``games.trainer.spacing``: one from the player's own game counts as missed there);
    ``due_at`` is when it may be drawn again; ``learned_at`` retires it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="training_positions"
    )
    key = models.CharField(max_length=80)
    source = models.CharField(max_length=8, choices=Source)
    theme = models.CharField(max_length=60, blank=True)
    """The instructive set's theme ("The Joker"); empty for the player's own."""
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    """The player's own game the position comes from (its seat)."""
    position = models.JSONField()
    """``games.trainer.positions.Position.to_json``."""
    played = models.JSONField(null=True, blank=True)
    """What the player chose in their game (``positions.action_to_json``)."""
    cost = models.FloatField(default=0.0)
    """What that choice cost in expected points: the player's own come costliest first."""
    interval_days = models.PositiveSmallIntegerField(default=0)
    due_at = models.DateTimeField()
    right = models.PositiveIntegerField(default=0)
    """Answers that were the best choice."""
    wrong = models.PositiveIntegerField(default=0)
    last_answer = models.JSONField(null=True, blank=True)
    """The latest answer (``positions.action_to_json``), graded again when shown."""
    answered_at = models.DateTimeField(null=True, blank=True)
    learned_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        constraints = [
            # One row per account and position: racing draws or harvests make one.
            models.UniqueConstraint(fields=["user", "key"], name="training_position_once"),
            models.CheckConstraint(
                condition=Q(source__in=Source.values), name="training_position_source_valid"
            ),
        ]
        indexes = [
            # The draw: an account's positions still in training, by when they are due (the
            # ones never answered are due from when they were made).
            models.Index(
                fields=["user", "due_at"],
                name="training_position_due",
                condition=Q(learned_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} of user {self.user_id}"

    @property
    def answered(self) -> bool:
        return self.answered_at is not None


class TrainerHarvest(models.Model):
    """A finished game whose costly decisions have been taken into its player's training (how
    many), so it is analysed once."""

    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, related_name="+")
    positions = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"

    def __str__(self) -> str:
        return f"{self.positions} position(s) from seat {self.seat_id}"
