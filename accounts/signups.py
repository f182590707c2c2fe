"""Sign-up and the confirmed e-mail address: new accounts, limited per address, and the link
that proves an address is the player's.

Sign-up never says whether an address already has an account (password reset does not
either): the answer is the same, and the mail tells the address's owner. A trial game needs a
confirmed address (``accounts.licensing.use_trial_game``); a serial does not.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.client_ip import client_network
from accounts.models import SignUp, ThrottleKey, User

SIGNUP_WINDOW = timedelta(days=1)
RESEND_INTERVAL = timedelta(minutes=5)


class SignUpError(Exception):
    """A sign-up or confirmation that cannot be done; the message says why, for the player."""


class TooManySignUps(SignUpError):
    def __init__(self, retry_after: timedelta) -> None:
        self.retry_after_seconds = max(1, math.ceil(retry_after.total_seconds()))
        hours = math.ceil(self.retry_after_seconds / 3600)
        super().__init__(
            "Too many accounts were made from your network today. "
            f"Please try again in {hours} hour{'s' if hours != 1 else ''}, "
            "or log in to an account you already have."
        )


class ResentTooSoon(SignUpError):
    def __init__(self) -> None:
        minutes = int(RESEND_INTERVAL.total_seconds() // 60)
        super().__init__(
            "We sent you a link a moment ago: please check your inbox (and the spam folder). "
            f"You can ask again {minutes} minutes after the last one."
        )


class NoAddress(SignUpError):
    def __init__(self) -> None:
        super().__init__(
            "This account has no e-mail address to confirm: an administrator can mark it "
            "confirmed, or enter a serial number to play without one."
        )


class LinkInvalid(SignUpError):
    def __init__(self) -> None:
        super().__init__(
            "This link does not work (any more): it may be old or already used. "
            "Log in and ask for a new one from your games page."
        )


class AddressTaken(SignUpError):
    def __init__(self) -> None:
        super().__init__(
            "This e-mail address already belongs to another account, so it cannot confirm "
            "this one. Log in to that account, or reset its password."
        )


class _ConfirmationTokens(PasswordResetTokenGenerator):
    """Links that prove the mailbox: bound to the address and spent once it is confirmed."""

    key_salt = "accounts.signups.confirmation"

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        return f"{user.pk}{user.email}{user.email_confirmed}{timestamp}"


confirmation_tokens = _ConfirmationTokens()


# --- Sign-up ------------------------------------------------------------------------------


def create_account(
    *,
    username: str,
    display_name: str,
    email: str,
    password: str,
    client_ip: str,
    site_url: str,
) -> User:
    """Make a trial account, unless this address made ``SIGNUPS_PER_ADDRESS`` in the last day.

    The count and the new account are one transaction, with the address's throttle row locked,
    so racing sign-ups from one address (in any worker or node) cannot pass the limit. The mail
    goes after the commit: a confirmation link, or, when a confirmed account already has the
    address, a note to its owner; the page answers the same either way.
    """
    network = client_network(client_ip)
    now = timezone.now()
    with transaction.atomic():
        key = f"signup:{network}"
        ThrottleKey.objects.get_or_create(key=key)
        ThrottleKey.objects.select_for_update().get(key=key)
        limit = settings.SIGNUPS_PER_ADDRESS
        recent = list(
            SignUp.objects.filter(client_network=network, created_at__gt=now - SIGNUP_WINDOW)
            .order_by("created_at")
            .values_list("created_at", flat=True)[:limit]
        )
        if len(recent) >= limit:
            raise TooManySignUps(recent[0] + SIGNUP_WINDOW - now)
        user = User.objects.create_user(
            username=username,
            display_name=display_name,
            email=email,
            password=password,
            confirmation_sent_at=now,
        )
        SignUp.objects.create(
            user=user, client_ip=client_ip, client_network=network, created_at=now
        )
        taken = (
            User.objects.filter(email__iexact=email, email_confirmed=True)
            .exclude(pk=user.pk)
            .exists()
        )
        transaction.on_commit(
            lambda: _mail_address_taken(user, site_url) if taken else _mail_link(user, site_url)
        )
    return user


# --- Confirming ---------------------------------------------------------------------------


def confirmation_path(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = confirmation_tokens.make_token(user)
    return reverse("accounts:confirm_email", kwargs={"uidb64": uid, "token": token})


def send_confirmation(*, user: User, site_url: str) -> None:
    """Mail the link again, at most once per ``RESEND_INTERVAL`` (``ResentTooSoon``), so the
    button cannot be used to flood somebody's mailbox."""
    if user.email_confirmed:
        return
    if not user.email:
        raise NoAddress()
    now = timezone.now()
    due = Q(confirmation_sent_at__isnull=True) | Q(confirmation_sent_at__lte=now - RESEND_INTERVAL)
    if not User.objects.filter(due, pk=user.pk).update(confirmation_sent_at=now):
        raise ResentTooSoon()
    user.confirmation_sent_at = now
    taken = (
        User.objects.filter(email__iexact=user.email, email_confirmed=True)
        .exclude(pk=user.pk)
        .exists()
    )
    (_mail_address_taken if taken else _mail_link)(user, site_url)


def confirm_email(*, user: User | None, token: str) -> User:
    """Mark the address of the link's account confirmed; ``LinkInvalid`` or ``AddressTaken``."""
    if user is None or not confirmation_tokens.check_token(user, token):
        raise LinkInvalid()
    try:
        with transaction.atomic():
            User.objects.filter(pk=user.pk).update(email_confirmed=True)
    except IntegrityError:
        # Another account confirmed this address first (two sign-ups with one address).
        raise AddressTaken() from None
    user.email_confirmed = True
    return user


def _send(user: User, template: str, context: dict[str, object]) -> None:
    context = {"user": user, **context}
    subject = render_to_string(f"registration/{template}_subject.txt", context).strip()
    body = render_to_string(f"registration/{template}.txt", context)
    send_mail(subject, body, None, [user.email])


def _mail_link(user: User, site_url: str) -> None:
    link = site_url.rstrip("/") + confirmation_path(user)
    _send(user, "confirm_email", {"link": link})


def _mail_address_taken(user: User, site_url: str) -> None:
    base = site_url.rstrip("/")
    _send(
        user,
        "address_in_use",
        {
            "login": base + reverse("accounts:login"),
            "reset": base + reverse("accounts:password_reset"),
        },
    )
