"""What a tournament keeps: the tournament itself (its host, kind, who may find it, its cap and
its clock: opened, started, ended) and each account's entry, with the one game it plays on the
tournament's dice (``Game.tournament`` says the same from the game's side, for the door)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games import rules
from games.models import KIND_CHOICES

MAX_PLAYERS = 1000
"""The most entrants a tournament takes (its ``cap`` is at most this)."""

SITE_HOST = "Yahtzee"
"""Who the pages say hosts the site's own tournaments (no account does): the site, by the
name ``base.html`` gives it."""


class Tournament(models.Model):
    """A tournament on the same dice: every entrant plays their own game, alone and without
    help, on faces fixed by the tournament, the turn, the roll and the die's place
    (``games.tournaments.dice``). It is open to join until its host starts it, running until
    its host ends it (or every entrant's game is over), then over: its dice may be seen and
    its final standings are ranked by accuracy."""

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="hosted_tournaments",
        null=True,
        blank=True,
    )
    """The account that opened it; none for the site's own (the weekly tournament)."""
    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=16, choices=KIND_CHOICES, default=rules.CLASSIC.key)
    listed = models.BooleanField(default=False)
    """Listed tournaments are on the public list; a private one is found by its link alone."""
    token = models.CharField(max_length=64, unique=True)
    """The private link's whole secret (256 random bits); a listed one has one too."""
    cap = models.PositiveIntegerField(default=MAX_PLAYERS)
    entrants = models.PositiveIntegerField(default=0)
    """How many have joined: counted up by a conditional UPDATE below ``cap``, so racing joins
    never pass it (``services.join``)."""
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    """The set time it starts by itself (none: when its host presses start)."""
    ends_at = models.DateTimeField(null=True, blank=True)
    """The set time it ends by itself (none: when its host ends it or every game is over)."""
    weekly = models.CharField(max_length=10, null=True, blank=True, unique=True)
    """The ISO week ("2026-W49") of the site's weekly tournament; none for any other."""
    perfect_total = models.IntegerField(null=True, blank=True)
    """What perfect play scores on the tournament's dice, worked out once it is over."""

    class Meta:
        app_label = "games"
        constraints = [
            models.CheckConstraint(condition=Q(entrants__lte=F("cap")), name="tournament_cap"),
            models.CheckConstraint(
                condition=Q(cap__gte=1, cap__lte=MAX_PLAYERS), name="tournament_cap_range"
            ),
        ]
        indexes = [
            # The public list: listed tournaments, newest first.
            models.Index(
                fields=["-created_at", "id"], name="tournament_listed", condition=Q(listed=True)
            ),
        ]

    def __str__(self) -> str:
        return f"Tournament {self.name} (#{self.pk})"

    @property
    def places_shown(self) -> str:
        """Entrants and cap as the pages say them: "4 / 1,000"."""
        return f"{self.entrants:,} / {self.cap:,}"

    @property
    def rules_kind(self) -> rules.GameKind:
        return rules.KINDS[self.kind]

    @property
    def is_over(self) -> bool:
        return self.ended_at is not None

    @property
    def is_running(self) -> bool:
        return self.started_at is not None and self.ended_at is None

    @property
    def is_open(self) -> bool:
        """Open to join: not started, not ended."""
        return self.started_at is None and self.ended_at is None

    @property
    def host_shown(self) -> str:
        """The host as the pages name it: the account, or the site for its own."""
        return SITE_HOST if self.host_id is None else str(self.host)

    @property
    def is_sites(self) -> bool:
        """The site's own (the weekly tournament): nobody starts or ends it by hand."""
        return self.host_id is None

    def due_to_start(self, now: datetime) -> bool:
        """Its set start has come and nothing has started or ended it yet."""
        return self.is_open and self.starts_at is not None and self.starts_at <= now

    def due_to_end(self, now: datetime) -> bool:
        """Its set end has come and nothing has ended it yet."""
        return self.ended_at is None and self.ends_at is not None and self.ends_at <= now


class Entry(models.Model):
    """An account in a tournament: one entry each (a unique constraint holds it against racing
    joins), and once it plays, its one game (``game``, set when the entrant starts it)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    display_name = models.CharField(max_length=30)
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_entry",
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    accuracy = models.FloatField(null=True, blank=True)
    """The accuracy of the entrant's decisions so far (graded on the task worker as it plays)."""
    graded_turns = models.PositiveSmallIntegerField(default=0)
    """How many of its game's turns ``accuracy`` covers."""

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_one_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} in tournament {self.tournament_id}"
