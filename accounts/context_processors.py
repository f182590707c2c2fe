"""Every page knows the viewer's options (theme, dice, sound, motion); visitors get defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from accounts.models import DEFAULT_FELT, DiceStyle, Theme


@dataclass(frozen=True)
class Options:
    theme: str = Theme.CLASSIC
    felt_color: str = DEFAULT_FELT
    dice_style: str = DiceStyle.IVORY
    sound: bool = False
    animation: bool = True
    confirm_zero: bool = True

    @property
    def custom_felt(self) -> bool:
        return self.felt_color != DEFAULT_FELT


def options_of(user: Any) -> Options:
    if not getattr(user, "is_authenticated", False):
        return Options()
    return Options(
        theme=user.theme,
        felt_color=user.felt_color,
        dice_style=user.dice_style,
        sound=user.sound,
        animation=user.animation,
        confirm_zero=user.confirm_zero,
    )


def options(request: HttpRequest) -> dict[str, Options]:
    # An error page for a request refused before the user was read (a bad Host) has none.
    return {"options": options_of(getattr(request, "user", None))}
