"""Accounts: the site's user, and the licence that turns a trial account into a registered one.

A trial account may start ``TRIAL_GAMES`` games; redeeming a serial registers it. Serials are
kept only as a keyed hash (``accounts.licensing.serial_digest``) and their last four symbols.
"""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from accounts.display_names import neutral_name, skeleton

TRIAL_GAMES = 5

COACH_THRESHOLD_DEFAULT = Decimal("0.5")
COACH_THRESHOLD_MIN, COACH_THRESHOLD_MAX = Decimal("0.1"), Decimal("10.0")
"""The coach speaks after a decision that cost at least this many expected points (the range
an account may choose, in tenths of a point)."""


class Theme(models.TextChoices):
    CLASSIC = "classic", "Classic green felt"
    DARK = "dark", "Dark"
    LIGHT = "light", "Light"


class DiceStyle(models.TextChoices):
    IVORY = "ivory", "Ivory with black pips"
    RED = "red", "Red casino dice"
    BLACK = "black", "Black with white pips"


DEFAULT_FELT = "#1d6b3c"


class User(AbstractUser):
    display_name = models.CharField(
        max_length=30,
        help_text="Shown to other players and in the high scores.",
    )
    # What the display name looks like (``accounts.display_names.skeleton``): unique, so no
    # player can pose as another with a look-alike. Empty for the neutral "Player 123456".
    display_name_key = models.CharField(max_length=255, default="", editable=False)
    # The player's address on the site (/players/<public_id>/): random, so pages cannot be
    # walked by counting, and it says nothing about the login name.
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    # Whether the owner opened the link mailed to ``email``: trial games need it (a serial
    # does not), so free games cannot be farmed with made-up addresses.
    email_confirmed = models.BooleanField("e-mail address confirmed", default=False)
    confirmation_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    trial_games_used = models.PositiveSmallIntegerField(
        default=0, help_text=f"Games started while on trial (at most {TRIAL_GAMES})."
    )
    # Options, applied on every page (kept here so they come with the user, at no extra query).
    theme = models.CharField(max_length=16, choices=Theme, default=Theme.CLASSIC)
    felt_color = models.CharField(
        "table colour", max_length=7, default=DEFAULT_FELT, help_text="#rrggbb"
    )
    dice_style = models.CharField(max_length=16, choices=DiceStyle, default=DiceStyle.IVORY)
    sound = models.BooleanField("dice sound", default=False)
    animation = models.BooleanField("dice animation", default=True)
    confirm_zero = models.BooleanField("ask before scoring a zero", default=True)
    # The coach (games.play.coach): after a decision of this account's that cost at least
    # ``coach_threshold`` expected points, a short note beside the card. Feedback, never a hint
    # before the choice; a game played with it is marked, as one played with hints is.
    coach = models.BooleanField("coach me after costly choices", default=False)
    coach_threshold = models.DecimalField(
        "speak from",
        max_digits=3,
        decimal_places=1,
        default=COACH_THRESHOLD_DEFAULT,
        help_text="expected points",
    )
    # The players who last sat at this account's screen, latest first (the Mac original's list
    # of players): offered again when a game is set up, read with the user at no extra query.
    guest_names = models.JSONField(default=list, blank=True, editable=False)
    # Turn mail (games.play.turn_mail): one short mail when an online game with a long turn
    # limit waits for this player and no page of it is open. Never at night where they live.
    turn_mail = models.BooleanField("e-mail me when it is my turn", default=True)
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # Mail to ``email`` came back (the provider's bounce webhook, or ``mark_bounced``): no more
    # optional mail goes there, so the site keeps its standing with the mail providers.
    email_bounced = models.BooleanField("mail to this address bounced", default=False)

    class Meta(AbstractUser.Meta):
        constraints = [
            # One confirmed account per address, whatever the case: a password reset finds it.
            # Unconfirmed accounts may share one, so sign-up never has to say an address is
            # taken (its owner is told by e-mail instead, and a twin can never confirm).
            models.UniqueConstraint(
                Lower("email"),
                condition=~Q(email="") & Q(email_confirmed=True),
                name="user_confirmed_email_unique_ci",
            ),
            models.CheckConstraint(
                condition=Q(trial_games_used__lte=TRIAL_GAMES), name="user_trial_games_at_most_5"
            ),
            # The forms say "too much like another player's name"; this holds against races.
            models.UniqueConstraint(
                fields=["display_name_key"],
                condition=~Q(display_name_key=""),
                name="user_display_name_lookalike_unique",
            ),
            models.CheckConstraint(
                condition=Q(felt_color__regex=r"^#[0-9a-f]{6}$"), name="user_felt_color_hex"
            ),
            models.CheckConstraint(
                condition=Q(
                    coach_threshold__gte=COACH_THRESHOLD_MIN,
                    coach_threshold__lte=COACH_THRESHOLD_MAX,
                ),
                name="user_coach_threshold_range",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or neutral_name(self.public_id)

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Never the login name in public: an account made without a display name (by
        # createsuperuser, say) is called "Player 123456".
        if not self.display_name.strip():
            self.display_name = neutral_name(self.public_id)
        neutral = self.display_name == neutral_name(self.public_id)
        self.display_name_key = "" if neutral else skeleton(self.display_name)[:255]
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_name_key"}
        super().save(*args, **kwargs)


class SignUp(models.Model):
    """Every account made through the sign-up page, so sign-ups can be limited per address."""

    user = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="+")
    client_ip = models.GenericIPAddressField()
    client_network = models.CharField(max_length=64)  # accounts.client_ip.client_network
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["client_network", "created_at"], name="signup_network_time")
        ]

    def __str__(self) -> str:
        return f"Sign-up from {self.client_ip} at {self.created_at:%Y-%m-%d %H:%M}"


class SerialBatch(models.Model):
    """Serials minted together, e.g. for one shop or one promotion."""

    name = models.CharField(max_length=100, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "serial batches"

    def __str__(self) -> str:
        return self.name


class Serial(models.Model):
    """One serial number, known only by its keyed hash; it registers exactly one account."""

    batch = models.ForeignKey(SerialBatch, on_delete=models.PROTECT, related_name="serials")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    last4 = models.CharField("last 4 characters", max_length=4, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    redeemed_by = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, blank=True, related_name="serials"
    )
    redeemed_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # An account holds at most one live serial; a revoked one no longer counts.
            models.UniqueConstraint(
                fields=["redeemed_by"],
                condition=Q(revoked_at__isnull=True, redeemed_by__isnull=False),
                name="serial_one_live_per_account",
            ),
            # redeemed_at marks a serial used for good: it stays set if the account is deleted.
            models.CheckConstraint(
                condition=Q(redeemed_by__isnull=True) | Q(redeemed_at__isnull=False),
                name="serial_redeemed_has_date",
            ),
        ]

    def __str__(self) -> str:
        return f"…{self.last4} ({self.batch})"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class AttemptOutcome(models.TextChoices):
    PENDING = "pending", "Pending"
    REGISTERED = "registered", "Registered"
    ALREADY_YOURS = "already_yours", "Already this account's"
    MALFORMED = "malformed", "Not a serial"
    TYPO = "typo", "Typo (check character)"
    UNKNOWN = "unknown", "Unknown serial"
    REVOKED = "revoked", "Revoked serial"
    USED = "used", "Used by another account"
    ALREADY_REGISTERED = "already_registered", "Account already registered"
    LIMITED = "limited", "Refused: too many attempts"


class RedemptionAttempt(models.Model):
    """Every serial entered, so failures can be limited per account and per address."""

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, null=True, related_name="redemption_attempts"
    )
    client_ip = models.GenericIPAddressField()
    # What the per-address limit counts: the address, or its /64 for IPv6, since one IPv6
    # client usually holds a whole /64 and could otherwise rotate through it.
    client_network = models.CharField(max_length=64, default="")
    outcome = models.CharField(
        max_length=24, choices=AttemptOutcome, default=AttemptOutcome.PENDING
    )
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["user", "created_at"], name="attempt_user_time"),
            models.Index(fields=["client_network", "created_at"], name="attempt_network_time"),
        ]

    def __str__(self) -> str:
        when = f"{self.created_at:%Y-%m-%d %H:%M}"
        return f"{self.get_outcome_display()} from {self.client_ip} at {when}"


class ThrottleKey(models.Model):
    """A row to lock per limited key ("user:7", "ip:203.0.113.9"), so counting is atomic."""

    key = models.CharField(max_length=100, unique=True)

    def __str__(self) -> str:
        return self.key
