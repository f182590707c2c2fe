"""What the daily challenge keeps: each day's perfect play on its dice (``DailyChallenge``) and
each account's one attempt a day (``DailyAttempt``), with the result the day's board reads."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class DailyChallenge(models.Model):
    """A day's challenge, once computed: the perfect bot's game on the day's dice (its total,
    and each turn's rolls, holds and box), shown only once the day is over. Only a day somebody
    played has one (``services.challenge``): any other day costs nothing."""

    day = models.DateField(unique=True)
    perfect_total = models.IntegerField()
    perfect_turns = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"Daily challenge of {self.day}: perfect play {self.perfect_total}"


class DailyAttempt(models.Model):
    """An account's attempt at a day's challenge: one per account and day, whatever becomes of
    its game (an abandoned attempt counts). ``grand_total`` and ``accuracy`` are set when the
    game finishes and is graded (``games.daily.results``), and only then is the attempt on the
    board, if it is ``ranked``: ranked by accuracy, which foreknowledge of the dice cannot
    raise (each decision is graded against the best one on the dice seen)."""

    day = models.DateField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_attempts"
    )
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="attempt")
    display_name = models.CharField(max_length=30)
    grand_total = models.IntegerField(null=True, blank=True)
    accuracy = models.FloatField(null=True, blank=True)
    """100 × (1 − expected points lost / expected score of perfect play), clipped to 0..100."""
    accuracy_tenths = models.PositiveSmallIntegerField(null=True, blank=True)
    """The accuracy in tenths of a percent as the board shows it (0..1000): its rank key, equal
    accuracies as shown sharing a rank."""
    ranked = models.BooleanField(default=False, db_default=False)
    """Whether the board ranks it: an account made before the day began. One made on the day
    plays, but is not ranked (sign-ups are cheap, and the day's dice the same for all)."""
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        ordering = ["-day"]
        constraints = [
            # One attempt per account and day: two tabs or racing requests start one game. Day
            # first: its index also says at once whether anybody played a day (``played``).
            models.UniqueConstraint(fields=["day", "user"], name="daily_attempt_one_a_day"),
        ]
        indexes = [
            # The day's board: ranked attempts, graded, most accurate first, earlier first
            # among equals.
            models.Index(
                fields=["day", "-accuracy_tenths", "finished_at", "id"],
                name="daily_attempt_board",
                condition=Q(accuracy_tenths__isnull=False, ranked=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} on {self.day}: {self.grand_total}"


class DailyAccuracy(models.Model):
    """How many ranked attempts of a day reached each accuracy (in tenths of a percent): a
    player's rank is one plus the attempts above theirs, summed over at most 1,001 rows of this
    table however many played (a count over the board's index would walk every attempt above
    them)."""

    day = models.DateField()
    tenths = models.PositiveSmallIntegerField()
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(fields=["day", "tenths"], name="daily_accuracy_one_a_value"),
        ]

    def __str__(self) -> str:
        return f"{self.attempts} attempt(s) at {self.tenths / 10:.1f}% on {self.day}"
