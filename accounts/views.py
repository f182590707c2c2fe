"""The accounts pages we write ourselves: sign-up and the account page.

Log in, log out and the password pages are Django's own views, configured in ``accounts.urls``.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import urlsafe_base64_decode
from django.views.decorators.cache import cache_control
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import licensing, serials, signups
from accounts.client_ip import client_ip
from accounts.forms import (
    DISPLAY_NAME_LOOK_ALIKE,
    DisplayNameForm,
    OptionsForm,
    SerialForm,
    SignUpForm,
)
from accounts.http import AuthedRequest, HtmxRequest
from accounts.models import TRIAL_GAMES, User


@require_http_methods(["GET", "POST"])
@sensitive_post_parameters("password1", "password2")
def signup(request: HtmxRequest) -> HttpResponse:
    """Create an account, log its owner in and send them to their games.

    The answer is the same whether or not the e-mail address already has an account (the mail
    tells its owner), so the page cannot be used to find out who plays here.
    """
    if request.user.is_authenticated:
        return redirect("games:dashboard")
    form = SignUpForm(request.POST if request.method == "POST" else None)
    status = 200
    if form.is_valid():
        try:
            user = signups.create_account(
                username=form.cleaned_data["username"],
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                client_ip=client_ip(request),
                site_url=request.build_absolute_uri("/"),
            )
        except signups.TooManySignUps as exc:
            form.add_error(None, str(exc))
            status = 429
        except IntegrityError:
            # The username or a look-alike name was taken an instant ago: the form now says so.
            form = SignUpForm(request.POST)
            form.is_valid()
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                f"Welcome, {user.display_name}! Your account is ready. We have sent a link to "
                f"{user.email}: open it to play your {TRIAL_GAMES} trial games.",
            )
            return redirect("games:dashboard")
    return render(request, "accounts/signup.html", {"form": form}, status=status)


@require_GET
def confirm_email(request: HtmxRequest, uidb64: str, token: str) -> HttpResponse:
    """The link mailed at sign-up: it confirms the address, logged in or not."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError):
        pk = 0
    user = User.objects.filter(pk=pk).first()
    try:
        signups.confirm_email(user=user, token=token)
    except signups.SignUpError as exc:
        context = {"confirmed": False, "problem": str(exc)}
        return render(request, "accounts/confirm_email.html", context, status=400)
    return render(request, "accounts/confirm_email.html", {"confirmed": True})


@require_POST
@login_required
def resend_confirmation(request: AuthedRequest) -> HttpResponse:
    """Mail the confirmation link again (at most every few minutes)."""
    try:
        signups.send_confirmation(user=request.user, site_url=request.build_absolute_uri("/"))
    except (signups.ResentTooSoon, signups.NoAddress) as exc:
        messages.warning(request, str(exc))
    else:
        messages.success(request, f"We have sent the link again to {request.user.email}.")
    return redirect("games:dashboard")


@require_http_methods(["GET", "POST"])
@login_required
def account(request: AuthedRequest) -> HttpResponse:
    """Show who the player is, and let them change the name other players see."""
    user = request.user
    form = DisplayNameForm(request.POST if request.method == "POST" else None, instance=user)
    if form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:  # a look-alike taken by another player an instant ago
            user.refresh_from_db()
            form.add_error("display_name", DISPLAY_NAME_LOOK_ALIKE)
        else:
            messages.success(request, f"Your display name is now {user.display_name}.")
            return redirect("accounts:account")
    context = {"form": form, "licence": licensing.licence_of(user)}
    return render(request, "accounts/account.html", context)


@require_http_methods(["GET", "POST"])
@sensitive_post_parameters("serial")
@login_required
def serial(request: AuthedRequest) -> HttpResponse:
    """Enter a serial number to turn a trial account into a registered one."""
    user = request.user
    form = SerialForm(request.POST if request.method == "POST" else None)
    status = 200
    retry_after = None
    if form.is_valid():
        was_registered = licensing.licence_of(user).registered
        try:
            licensing.redeem_serial(
                user=user, text=form.cleaned_data["serial"], client_ip=client_ip(request)
            )
        except (serials.SerialError, licensing.SerialRefused) as exc:
            form.add_error("serial", str(exc))
            status = 400
        except licensing.TooManyAttempts as exc:
            form.add_error("serial", str(exc))
            status, retry_after = 429, exc.retry_after_seconds
        else:
            if was_registered:
                messages.info(request, "This serial already registers your account.")
            else:
                messages.success(request, "Thank you! Your account is registered: play on.")
            return redirect("games:dashboard")
    elif request.method == "POST":
        status = 400
    context = {"form": form, "licence": licensing.licence_of(user)}
    response = render(request, "accounts/serial.html", context, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@require_GET
def get_serial(request: HtmxRequest) -> HttpResponse:
    """What a serial is, what registering gives, and where to get one (open to visitors)."""
    context = {
        "store_url": settings.SERIAL_STORE_URL,
        "contact_email": settings.SITE_CONTACT_EMAIL,
        "trial_games": TRIAL_GAMES,
    }
    return render(request, "accounts/get_serial.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def options(request: AuthedRequest) -> HttpResponse:
    """The options page. With htmx every change saves at once and the page redraws in it."""
    user = request.user
    form = OptionsForm(request.POST if request.method == "POST" else None, instance=user)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            form.save()
            if not request.htmx:
                messages.success(request, "Your options are saved.")
                return redirect("accounts:options")
        else:
            user.refresh_from_db()
            status = 400
    saved = request.method == "POST" and status == 200
    return render(request, "accounts/options.html", {"form": form, "saved": saved}, status=status)


FELT = re.compile(r"[0-9a-fA-F]{6}")


def _channels(hex_color: str) -> list[int]:
    return [int(hex_color[i : i + 2], 16) for i in (0, 2, 4)]


def _hex(channels: list[float]) -> str:
    return "#" + "".join(f"{min(255, max(0, round(c))):02x}" for c in channels)


def _luminance(channels: list[float]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    linear = [
        c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
        for c in channels
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


# White text keeps 4.5:1 (WCAG AA) on a colour whose luminance is at most this.
MAX_FELT_LUMINANCE = (1.05 / 4.5) - 0.05


def _readable_under_white(channels: list[float]) -> list[float]:
    """The colour, darkened just enough for white text on it to stay readable."""
    while _luminance(channels) > MAX_FELT_LUMINANCE:
        channels = [c * 0.95 for c in channels]
    return channels


def _felt_palette(felt: str) -> tuple[str, str, str]:
    base = _readable_under_white([float(c) for c in _channels(felt)])
    dark = [c * 0.62 for c in base]
    light = _readable_under_white([c + (255 - c) * 0.18 for c in base])
    return _hex(base), _hex(dark), _hex(light)


@require_GET
@cache_control(max_age=31_536_000, immutable=True, public=True)
def theme_css(request: HtmxRequest) -> HttpResponse:
    """The table colour a player picked, as a stylesheet (the CSP forbids inline styles)."""
    felt = request.GET.get("felt", "")
    if not FELT.fullmatch(felt):
        return HttpResponse("/* no such colour */", content_type="text/css", status=400)
    # The table carries white text (the tray, banners): a pale pick is darkened until it reads.
    base, dark, light = _felt_palette(felt.lower())
    css = f"#page.page-wrap {{ --felt: {base}; --felt-dark: {dark}; --felt-light: {light}; }}\n"
    return HttpResponse(css, content_type="text/css")
