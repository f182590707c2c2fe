"""Trial and registration: counting trial games, minting and redeeming serials, limiting tries.

A trial account may start ``TRIAL_GAMES`` games; a serial registers it for good. Serials are
stored only as an HMAC-SHA256 under ``settings.SERIAL_HMAC_KEY`` (its own key, so rotating
``SECRET_KEY`` orphans nothing). Failed look-ups are limited per account, and per client address
for accounts that have failed, in the database, so the limits hold across every worker and node.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from accounts import serials
from accounts.client_ip import client_network
from accounts.models import (
    TRIAL_GAMES,
    AttemptOutcome,
    RedemptionAttempt,
    Serial,
    SerialBatch,
    ThrottleKey,
    User,
)

ATTEMPT_WINDOW = timedelta(hours=1)
COUNTED_OUTCOMES = (
    AttemptOutcome.PENDING,
    AttemptOutcome.UNKNOWN,
    AttemptOutcome.REVOKED,
    AttemptOutcome.USED,
)
"""Outcomes that cost a try: look-ups that failed. A typo is caught without a look-up."""


class LicenceError(Exception):
    """Something a player asked of their licence that cannot be done; the message says why."""


class TrialOver(LicenceError):
    def __init__(self) -> None:
        super().__init__("Your five trial games are used. Enter a serial number to keep playing.")


class EmailNotConfirmed(LicenceError):
    def __init__(self) -> None:
        super().__init__(
            "Confirm your e-mail address to play your trial games: open the link we sent you. "
            "No mail? Ask for it again on your games page."
        )


class SerialRefused(LicenceError):
    def __init__(self, message: str, outcome: AttemptOutcome) -> None:
        super().__init__(message)
        self.outcome = outcome


class TooManyAttempts(LicenceError):
    def __init__(self, retry_after: timedelta) -> None:
        self.retry_after_seconds = max(1, math.ceil(retry_after.total_seconds()))
        minutes = max(1, math.ceil(self.retry_after_seconds / 60))
        super().__init__(
            "Too many serial numbers were tried that did not work. "
            f"Please try again in {minutes} minute{'s' if minutes != 1 else ''}."
        )


REFUSALS = {
    AttemptOutcome.UNKNOWN: "We do not know this serial number. Check it against your receipt.",
    AttemptOutcome.REVOKED: "This serial number has been revoked and can no longer be used.",
    AttemptOutcome.USED: "This serial number has already registered another account.",
    AttemptOutcome.ALREADY_REGISTERED: "This account is already registered with another serial.",
}


@dataclass(frozen=True)
class Licence:
    """Where an account stands: registered (since when, which serial) or on trial."""

    registered_at: datetime | None
    last4: str
    trial_games_used: int
    email_confirmed: bool = True

    trial_games: int = TRIAL_GAMES

    @property
    def registered(self) -> bool:
        return self.registered_at is not None

    @property
    def trial_games_left(self) -> int:
        return max(0, TRIAL_GAMES - self.trial_games_used)

    @property
    def needs_email_confirmation(self) -> bool:
        """Trial games wait for a confirmed address; a registered account needs none."""
        return not self.registered and not self.email_confirmed

    @property
    def can_start_game(self) -> bool:
        return self.registered or (self.trial_games_left > 0 and self.email_confirmed)

    @property
    def summary(self) -> str:
        if self.registered:
            return "Registered"
        return f"Trial: {self.trial_games_left} of {TRIAL_GAMES} games left"


def _live_serials(user_id: int) -> QuerySet[Serial]:
    """The account's serials that are not revoked (one at most: redeeming sees to it)."""
    return Serial.objects.filter(redeemed_by_id=user_id, revoked_at__isnull=True).order_by("pk")


def _live_serial_facts(user_id: int) -> QuerySet[Serial, tuple[datetime | None, str]]:
    return _live_serials(user_id).values_list("redeemed_at", "last4")


def live_serial(user: User) -> Serial | None:
    return _live_serials(user.pk).first()


def licence_of(user: User) -> Licence:
    """What the account may do: one read, of its live serial (the ``serial_live`` index)."""
    return licence_from(user, list(_live_serial_facts(user.pk)[:1]))


def licence_from(user: User, found: list[tuple[Any, ...]]) -> Licence:
    """The licence, from what ``_live_serial_facts`` found."""
    registered_at, last4 = found[0] if found else (None, "")
    return Licence(
        registered_at=registered_at,
        last4=last4,
        trial_games_used=user.trial_games_used,
        email_confirmed=user.email_confirmed,
    )


def check_can_start(*, user: User) -> None:
    """Raise as ``use_trial_game`` would if ``user`` started a game now, using nothing: a seat
    taken in a game that starts later uses its trial game then."""
    licence = licence_of(user)
    if licence.can_start_game:
        return
    if licence.needs_email_confirmation:
        raise EmailNotConfirmed()
    raise TrialOver()


def use_trial_game(*, user: User) -> bool:
    """Count a game started by ``user``; ``TrialOver`` when a trial account has none left,
    ``EmailNotConfirmed`` when its owner has not yet opened the link mailed at sign-up.

    Trial games need a confirmed address so they cannot be farmed with made-up ones; a bought
    serial proves enough by itself.

    Returns whether a trial game was used (a registered account uses none). Call it inside the
    transaction that starts the game. The conditional UPDATE is atomic on every database, so
    racing requests can never start more games than are left.
    """
    if live_serial(user) is not None:
        return False
    if not user.email_confirmed:
        raise EmailNotConfirmed()
    used = User.objects.filter(pk=user.pk, trial_games_used__lt=TRIAL_GAMES).update(
        trial_games_used=F("trial_games_used") + 1
    )
    if not used:
        raise TrialOver()
    user.trial_games_used = min(TRIAL_GAMES, user.trial_games_used + 1)
    return True


def give_back_trial_game(*, user_id: int) -> None:
    """Return a trial game that was used for nothing (a game abandoned before its first roll).

    Call it inside the transaction that ends that game, with the game row locked, so a game
    gives back at most once; the conditional UPDATE never takes the count below zero.
    """
    User.objects.filter(pk=user_id, trial_games_used__gt=0).update(
        trial_games_used=F("trial_games_used") - 1
    )


# --- Minting -------------------------------------------------------------------------------


def serial_digest(canonical: str) -> str:
    key = settings.SERIAL_HMAC_KEY.encode()
    return hmac.new(key, canonical.encode(), hashlib.sha256).hexdigest()


@transaction.atomic
def mint_serials(*, count: int, batch_name: str) -> list[str]:
    """Make ``count`` new serials in batch ``batch_name``; returns them, shown once, never kept."""
    if count < 1:
        raise ValueError("count must be at least 1")
    batch, _ = SerialBatch.objects.get_or_create(name=batch_name)
    minted = [serials.new_serial() for _ in range(count)]
    Serial.objects.bulk_create(
        Serial(batch=batch, digest=serial_digest(canonical), last4=canonical[-4:])
        for canonical in minted
    )
    return [serials.display(canonical) for canonical in minted]


@transaction.atomic
def revoke_serial(*, serial: Serial) -> None:
    """Revoke a serial; its account, if any, falls back to trial with no games left."""
    now = timezone.now()
    Serial.objects.filter(pk=serial.pk, revoked_at__isnull=True).update(revoked_at=now)
    if serial.redeemed_by_id is not None:
        User.objects.filter(pk=serial.redeemed_by_id).update(trial_games_used=TRIAL_GAMES)
    serial.refresh_from_db()


# --- Redeeming -----------------------------------------------------------------------------


def redeem_serial(*, user: User, text: str, client_ip: str) -> Licence:
    """Register ``user`` with the serial in ``text``; raise with a reason when it cannot.

    ``serials.SerialError`` for text that is not a serial (no look-up happens), then
    ``TooManyAttempts`` when this account or address has failed too often lately, then
    ``SerialRefused`` for an unknown, revoked or used serial. The owner entering their own
    serial again is a no-op.
    """
    try:
        canonical = serials.parse(text)
    except serials.SerialTypo:
        _record(user, client_ip, AttemptOutcome.TYPO)
        raise
    except serials.SerialMalformed:
        _record(user, client_ip, AttemptOutcome.MALFORMED)
        raise
    attempt = _admit_attempt(user=user, client_ip=client_ip)
    try:
        outcome = _claim(user=user, digest=serial_digest(canonical))
    except BaseException:
        RedemptionAttempt.objects.filter(pk=attempt.pk).update(outcome=AttemptOutcome.UNKNOWN)
        raise
    RedemptionAttempt.objects.filter(pk=attempt.pk).update(outcome=outcome)
    if outcome in REFUSALS:
        raise SerialRefused(REFUSALS[outcome], outcome)
    user.refresh_from_db()
    return licence_of(user)


def _record(user: User, client_ip: str, outcome: AttemptOutcome) -> RedemptionAttempt:
    return RedemptionAttempt.objects.create(
        user=user,
        client_ip=client_ip,
        client_network=client_network(client_ip),
        outcome=outcome,
        created_at=timezone.now(),
    )


def _admit_attempt(*, user: User, client_ip: str) -> RedemptionAttempt:
    """Let one more look-up through, or record the refusal and raise ``TooManyAttempts``."""
    admitted = _count_and_admit(user=user, client_ip=client_ip)
    if isinstance(admitted, RedemptionAttempt):
        return admitted
    # Recorded outside the counting transaction, so the refusal itself is kept for the admin.
    _record(user, client_ip, AttemptOutcome.LIMITED)
    raise TooManyAttempts(retry_after=admitted)


@transaction.atomic
def _count_and_admit(*, user: User, client_ip: str) -> RedemptionAttempt | timedelta:
    """A pending attempt when the limits allow one more, else how long until one does.

    The account's own limit comes first. The address limit applies only to an account that has
    itself failed within the hour: a buyer typing a good serial on the first try is never
    refused because a neighbour behind the same address (a household, an office NAT, or the
    whole site behind a proxy when ``TRUSTED_PROXY_COUNT`` is wrong) guessed badly. Guessing
    stays useless: a serial has 95 random bits, each account gets at most one look-up at a
    busy address, and accounts per address are limited at sign-up.

    Locking one row per throttle key (account, address) serialises concurrent attempts on the
    same key on every database, so two racing requests cannot both take the last try; the
    first request's pending attempt counts as a failure for the second, so a fresh account
    cannot slip two look-ups past a busy address at once.
    """
    network = client_network(client_ip)
    user_key, address_key = f"user:{user.pk}", f"ip:{network}"
    for key in sorted((user_key, address_key)):
        ThrottleKey.objects.get_or_create(key=key)
    list(
        ThrottleKey.objects.select_for_update()
        .filter(key__in=(user_key, address_key))
        .order_by("key")
    )

    now = timezone.now()
    recent = RedemptionAttempt.objects.filter(
        created_at__gt=now - ATTEMPT_WINDOW, outcome__in=COUNTED_OUTCOMES
    )

    def wait_for(who: Q, limit: int) -> timedelta | None:
        counted = recent.filter(who).order_by("created_at").values_list("created_at", flat=True)
        times = list(counted[:limit])
        return times[0] + ATTEMPT_WINDOW - now if len(times) >= limit else None

    own = wait_for(Q(user=user), settings.SERIAL_ATTEMPTS_PER_ACCOUNT)
    has_failed = recent.filter(user=user).exists()
    address = (
        wait_for(Q(client_network=network), settings.SERIAL_ATTEMPTS_PER_ADDRESS)
        if has_failed
        else None
    )
    waits = [wait for wait in (own, address) if wait is not None]
    if waits:
        return max(waits)
    return _record(user, client_ip, AttemptOutcome.PENDING)


def _claim(*, user: User, digest: str) -> AttemptOutcome:
    checked = _check_claim(user=user, digest=digest)
    if isinstance(checked, Serial):
        return _take(user=user, serial=checked)
    return checked


def _check_claim(*, user: User, digest: str) -> Serial | AttemptOutcome:
    """The serial ``user`` may take, or the outcome that says why not (read, nothing locked)."""
    with transaction.atomic():
        serial = Serial.objects.filter(digest=digest).first()
        if serial is None:
            return AttemptOutcome.UNKNOWN
        if serial.revoked_at is not None:
            return AttemptOutcome.REVOKED
        if serial.redeemed_by_id == user.pk:
            return AttemptOutcome.ALREADY_YOURS
        if serial.redeemed_at is not None:
            # Used, even when the account that used it has since been deleted.
            return AttemptOutcome.USED
        if live_serial(user) is not None:
            return AttemptOutcome.ALREADY_REGISTERED
    return serial


def _take(*, user: User, serial: Serial) -> AttemptOutcome:
    """Claim a serial that was free when checked; another request may have taken it since."""
    try:
        with transaction.atomic():
            claimed = Serial.objects.filter(
                pk=serial.pk, redeemed_at__isnull=True, revoked_at__isnull=True
            ).update(redeemed_by=user, redeemed_at=timezone.now())
    except IntegrityError:
        # The account registered with another serial at the same instant.
        return AttemptOutcome.ALREADY_REGISTERED
    if claimed:
        return AttemptOutcome.REGISTERED
    serial.refresh_from_db()
    if serial.redeemed_by_id == user.pk:
        return AttemptOutcome.ALREADY_YOURS
    return AttemptOutcome.REVOKED if serial.revoked_at else AttemptOutcome.USED
