"""The accounts forms: sign-up, the display-name change, and Django's auth forms with our focus.

Passwords are checked by Django (``settings.AUTH_PASSWORD_VALIDATORS``); these forms add what
our ``User`` needs on top: a display name people see, and an e-mail address that finds one
account when its owner forgets the password.
"""

from __future__ import annotations

import re
import zoneinfo
from decimal import Decimal
from functools import cache
from typing import Any

from django import forms
from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.forms import (
    PasswordResetForm,
    SetPasswordForm,
    UserCreationForm,
)

from accounts.display_names import (
    ENCODED_WORDS_REFUSED,
    has_encoded_words,
    is_reserved,
    prints,
    skeletons,
)
from accounts.models import COACH_THRESHOLD_MAX, COACH_THRESHOLD_MIN, User

DISPLAY_NAME_HELP = "Shown to other players and in the high scores. Up to 30 characters."
DISPLAY_NAME_REQUIRED = "Enter a display name — it is what other players see."
DISPLAY_NAME_INVISIBLE = (
    "Use letters, numbers, spaces, punctuation or emoji only — "
    "no tabs, line breaks or invisible characters."
)
USERNAME_HELP = "You log in with it. Letters, digits and @ . + - _ only; up to 150 characters."
DISPLAY_NAME_LOOK_ALIKE = (
    "Another player has this name, or one that looks just like it. Please choose another."
)
DISPLAY_NAME_RESERVED = (
    "Names like “Player 123456” are kept for players without a name. Please choose another."
)
EMAIL_HELP = (
    "We send a link to confirm it before your trial games, "
    "and one if you forget your password. Nothing else."
)
EMAIL_REQUIRED = "Enter your e-mail address — you need it to reset a forgotten password."
EMAIL_ENCODED_WORDS = (
    "Enter an address without =?…?= in it: mail programs read that as encoded text."
)


def validate_display_name(name: str) -> None:
    """Reject characters that print nothing, so every name in a list or table can be read, and
    ``=?`` … ``?=``, which mail programs would read as other text.

    Invisible and direction-changing characters (zero-width space, right-to-left override)
    would let one player's name look like another's or scramble the high-score table; none may
    hide in an encoded word either (``display_names.prints`` reads the name as mail does).
    """
    if has_encoded_words(name):
        raise forms.ValidationError(ENCODED_WORDS_REFUSED, code="encoded_words")
    if not prints(name):
        raise forms.ValidationError(DISPLAY_NAME_INVISIBLE, code="invisible")


def check_display_name(name: str, *, owner: User | None = None) -> None:
    """Refuse a name that would pass for another player's (letter case, Unicode look-alikes,
    spacing) or for the neutral "Player 123456", so nobody can pose as a top-ten player: on the
    site or, read as mail programs read it, in a mail (``display_names.skeletons``).

    ``owner`` may keep the name they have. The database's unique look-alike key holds the rule
    against two requests racing; this gives the message.
    """
    if owner is not None and owner.pk is not None and name == owner.display_name:
        return
    if is_reserved(name):
        raise forms.ValidationError(DISPLAY_NAME_RESERVED, code="reserved")
    keys = {key[:255] for key in skeletons(name)}
    others = User.objects.filter(display_name_key__in=keys).exclude(display_name_key="")
    if owner is not None and owner.pk is not None:
        others = others.exclude(pk=owner.pk)
    if others.exists():
        raise forms.ValidationError(DISPLAY_NAME_LOOK_ALIKE, code="look_alike")


def describe_display_name(field: forms.Field) -> None:
    """Give a display-name field its help text, its checks and the message for a blank name.

    The form field strips spaces, so a name of only spaces is blank and gets this message too.
    """
    field.help_text = DISPLAY_NAME_HELP
    field.error_messages["required"] = DISPLAY_NAME_REQUIRED
    field.validators.append(validate_display_name)
    field.widget.attrs["autocomplete"] = "nickname"


class SignUpForm(UserCreationForm[User]):
    """A new player: username, display name, e-mail and a password Django's validators accept."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = USERNAME_HELP
        describe_display_name(self.fields["display_name"])
        email = self.fields["email"]
        email.required = True
        email.help_text = EMAIL_HELP
        email.error_messages["required"] = EMAIL_REQUIRED
        email.widget.attrs["autocomplete"] = "email"

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        check_display_name(name)
        return name

    def clean_email(self) -> str:
        # Whether another account has this address is not said here (the mail says it to the
        # address's owner): sign-up must not tell a stranger who plays on this site.
        address: str = self.cleaned_data["email"]
        if has_encoded_words(address):
            # Django's validator lets "=?" through; the To header of every mail to it would
            # show another address, or fail to be written (a decoded line break).
            raise forms.ValidationError(EMAIL_ENCODED_WORDS, code="encoded_words")
        return BaseUserManager.normalize_email(address)


class DisplayNameForm(forms.ModelForm[User]):
    """The one thing a player changes on the account page: the name others see."""

    class Meta:
        model = User
        fields = ("display_name",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        describe_display_name(self.fields["display_name"])

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        check_display_name(name, owner=self.instance)  # still the saved name here
        return name


class ResetRequestForm(PasswordResetForm):
    """Django's password-reset request, with the cursor in the e-mail box."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].widget.attrs["autofocus"] = True


class NewPasswordForm(SetPasswordForm[User]):
    """Django's set-password form for the reset link, with the cursor in the first box."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].widget.attrs["autofocus"] = True


class SerialForm(forms.Form):
    serial = forms.CharField(
        label="Serial number",
        max_length=200,
        help_text="20 letters and digits, like XXXXX-XXXXX-XXXXX-XXXXX. Case, spaces and "
        "dashes do not matter.",
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "autofocus": True,
                "class": "serial-input",
            }
        ),
        error_messages={"required": "Enter the serial number from your receipt."},
    )


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    """Every zone this machine knows (IANA names), after "not set"."""
    zones = sorted(z for z in zoneinfo.available_timezones() if "/" in z and "Etc/" not in z)
    named = [(z, z.replace("_", " ")) for z in zones]
    return [("", "Not set (mail at any hour)"), ("UTC", "UTC"), *named]


COACH_THRESHOLD_WRONG = (
    f"Enter the points the coach speaks from: a number from {COACH_THRESHOLD_MIN} to "
    f"{COACH_THRESHOLD_MAX:.0f}, in tenths, like 0.5."
)


class OptionsForm(forms.ModelForm[User]):
    """The options page: how the table, the dice and the game feel, the coach, the turn mail."""

    time_zone = forms.ChoiceField(
        label="Your time zone",
        required=False,
        help_text="No turn e-mail reaches you between 22:00 and 08:00 here: it waits for 08:00.",
    )
    # Checked in clean_coach_threshold, so a value wrong in several ways gets one message.
    coach_threshold = forms.DecimalField(
        label="The coach speaks from",
        required=False,  # a form sent without the field keeps the account's (clean_…)
        help_text=f"expected points lost ({COACH_THRESHOLD_MIN} to {COACH_THRESHOLD_MAX:.0f}): "
        "smaller choices pass in silence.",
        error_messages={"invalid": COACH_THRESHOLD_WRONG},
        widget=forms.NumberInput(
            attrs={
                "min": str(COACH_THRESHOLD_MIN),
                "max": f"{COACH_THRESHOLD_MAX:.0f}",
                "step": "0.1",
                "inputmode": "decimal",
            }
        ),
    )

    class Meta:
        model = User
        fields = (
            "theme",
            "felt_color",
            "dice_style",
            "sound",
            "animation",
            "confirm_zero",
            "coach",
            "coach_threshold",
            "turn_mail",
            "time_zone",
        )
        widgets = {
            "theme": forms.RadioSelect,
            "felt_color": forms.TextInput(attrs={"type": "color"}),
            "dice_style": forms.RadioSelect,
        }
        help_texts = {
            "felt_color": "The colour of the table the dice roll on.",
            "sound": "A short rattle made in your browser when the dice roll.",
            "animation": "Dice tumble when rolled. Off also when your device asks for less motion.",
            "confirm_zero": "Ask before entering a zero in a box.",
            "coach": "After a choice that gave away expected points, a short note beside the "
            "card says what was better. Never before you choose, and never in the daily "
            "challenge (no help there). Games played with the coach are marked “coach” in the "
            "high scores, as games with hints are.",
            "turn_mail": "In an online game with a turn limit of an hour or more, one short "
            "e-mail when it becomes your turn and the game is not open on your screen.",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["time_zone"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = time_zone_choices()

    def clean_coach_threshold(self) -> Decimal:
        value: Decimal | None = self.cleaned_data["coach_threshold"]
        if value is None:
            if self.add_prefix("coach_threshold") in self.data:  # sent, but blank
                raise forms.ValidationError(COACH_THRESHOLD_WRONG, code="required")
            return self.instance.coach_threshold  # not sent (a page from before the coach)
        # The range first: tenths of 1e999999 overflow the decimal context (a 500, not a message).
        if not COACH_THRESHOLD_MIN <= value <= COACH_THRESHOLD_MAX:
            raise forms.ValidationError(COACH_THRESHOLD_WRONG, code="out_of_range")
        if value * 10 != (value * 10).to_integral_value():
            raise forms.ValidationError(COACH_THRESHOLD_WRONG, code="out_of_range")
        return value.quantize(Decimal("0.1"))

    def clean_felt_color(self) -> str:
        value = str(self.cleaned_data["felt_color"]).strip().lower()
        if not re.fullmatch(r"#[0-9a-f]{6}", value):
            raise forms.ValidationError("Pick a colour, written like #1d6b3c.")
        return value
