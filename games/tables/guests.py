"""Who sits at a table without an account of their own: the players at the host's screen,
whose names follow the display names' rules (``accounts.display_names``, ``accounts.forms``)
adapted to a name that lives at one table, and the computer players.

A guest's name is read by everyone at the table ("Ann's turn"), friends invited online and
strangers joining from the lobby included, so like a display name it must print and pass for
nobody else: not a player at the table, not the site's own "Player 123456" or
"Computer (Good)", not another account; like one it holds no ``=?`` … ``?=`` (a turn mail's
subject carries it) and follows these rules as a mail program reads it too. Unlike a display
name it is tidied (spaces collapsed, accents composed) and a seat number is welcome: "Player 2"
is how the form calls the first guest.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from accounts.display_names import (
    ENCODED_WORDS_REFUSED,
    has_encoded_words,
    prints,
    skeleton,
    skeletons,
)
from accounts.models import User
from games import rules, strategy
from games.errors import GameError
from games.models import Seat

FIRST_SLOT: Final = 2
"""The form numbers the guests after the host: the first is "Player 2"."""

INVISIBLE: Final = (
    "Player {slot}'s name has a character that prints nothing or turns text around: "
    "use letters, numbers, spaces, punctuation or emoji only."
)
SAME: Final = "Two players are called “{name}”: give each their own name."
LOOK_ALIKE: Final = "“{name}” looks just like “{other}”: give each player a name of their own."
NEUTRAL: Final = "“{name}” looks like a name the site gives players without one: choose another."
COMPUTER: Final = (
    "“{name}” would pass for a computer player: choose a name not beginning “Computer”."
)
ACCOUNT: Final = (
    "“{name}” is another player's name on this site, or looks just like it: choose another."
)

# The site calls an account without a display name "Player 123456" (six digits); a seat number
# of up to three is no such name. Matched on the skeleton, so "PIayer 1O2345" is caught too.
NEUTRAL_LOOK: Final = re.compile(r"player[0-9ol]{4,}")
# Computer players are "Computer (Good)", "Computer (Perfect) 2" (``computer_seats``).
COMPUTER_LOOK: Final = skeleton("Computer")


class BadGuests(GameError):
    """The names typed for the players at the host's screen (or the seats asked for with them)
    will not do; the message says which and why."""


def tidied(typed: Sequence[str]) -> list[str]:
    """The names as typed, spaces collapsed and accents composed, empty ones left out.

    ``BadGuests`` for a character that prints nothing or turns text around (a control character,
    NUL included, zero-width, bidirectional override or isolate): it would make one name look
    like another or scramble every list it is in. The message names the seat, not the name.
    ``BadGuests`` too for ``=?`` … ``?=``, which mail programs read as other text (such a
    character, even: ``display_names.prints`` reads the name as they do).
    """
    names = []
    for slot, name in enumerate(typed, start=FIRST_SLOT):
        tidy = " ".join(unicodedata.normalize("NFC", name).split())
        if has_encoded_words(tidy):
            raise BadGuests(ENCODED_WORDS_REFUSED)
        if not prints(tidy):
            raise BadGuests(INVISIBLE.format(slot=slot))
        if tidy:
            names.append(tidy)
    return names


def verify_own(name: str) -> None:
    """``BadGuests`` when ``name`` poses as one of the site's own, on the site or in mail: a
    neutral "Player 123456" or a computer player."""
    for key in skeletons(name):
        if NEUTRAL_LOOK.fullmatch(key):
            raise BadGuests(NEUTRAL.format(name=name))
        if key.startswith(COMPUTER_LOOK):
            raise BadGuests(COMPUTER.format(name=name))


def may_offer(name: str) -> bool:
    """Whether a name kept from before (``User.guest_names``) may be offered again: one that
    these rules refuse by itself would only be refused once picked."""
    try:
        if tidied([name]) != [name]:
            return False
        verify_own(name)
    except BadGuests:
        return False
    return True


def verify(names: Sequence[str], *, host: str) -> None:
    """``BadGuests`` unless each of the tidied ``names`` passes for nobody else: not the
    ``host``, not another guest, not the site's own names, not another account's display name
    (a look-alike of one neither, as for display names, on the site or in mail; one query for
    all the names)."""
    seated = dict.fromkeys(skeletons(host), host)
    for name in names:
        verify_own(name)
        own = skeletons(name)
        for key in own:
            if (other := seated.get(key)) is not None:
                template = SAME if other.casefold() == name.casefold() else LOOK_ALIKE
                raise BadGuests(template.format(name=name, other=other))
        seated |= dict.fromkeys(own, name)
    keys = {key[:255]: name for name in names for key in skeletons(name)}
    if not keys:
        return
    taken = set(
        User.objects.filter(display_name_key__in=keys).values_list("display_name_key", flat=True)
    )
    for key in keys:  # in the order typed, so the first clash is named
        if key in taken:
            raise BadGuests(ACCOUNT.format(name=keys[key]))


# --- Who sits: the guests' names and the computers' seats ---------------------------------------

MAX_GUESTS = rules.MAX_SEATS - 1
"""Players at the host's screen besides the host: six seats in all, as in the Mac original."""
NAME_LENGTH = Seat._meta.get_field("display_name").max_length or 30


def guest_names(typed: Sequence[str], *, owner: User) -> list[str]:
    """The guests' names, tidied; ``BadGuests`` says what is wrong with them (the rules the
    names follow are those of display names, above)."""
    names = tidied(typed)
    if len(names) > MAX_GUESTS:
        raise BadGuests(f"At most {MAX_GUESTS} more players can sit at your screen.")
    if any(len(name) > NAME_LENGTH for name in names):
        raise BadGuests(f"A player's name can be at most {NAME_LENGTH} characters.")
    verify(names, host=str(owner))
    return names


GUEST_NAMES_KEPT = 12


def remember_guests(owner: User, names: Sequence[str]) -> None:
    """Put ``names`` first in the list of players the host's screen offers again; a name kept
    from before that the rules now refuse is offered no more."""
    offered = [name for name in owner.guest_names if may_offer(name)]
    kept = list(dict.fromkeys([*names, *offered]))[:GUEST_NAMES_KEPT]
    if kept != owner.guest_names:
        owner.guest_names = kept
        owner.save(update_fields=["guest_names"])


def computer_seats(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Each computer player's (strategy, name): "Computer (Good)", numbered when repeated."""
    bots = [bot for bot in bots if bot]
    unknown = [bot for bot in bots if bot not in strategy.BOT_NAMES]
    if unknown:
        raise BadGuests(f"There is no computer player called “{unknown[0]}”.")
    named = []
    for i, bot in enumerate(bots):
        same = bots.count(bot)
        number = f" {bots[: i + 1].count(bot)}" if same > 1 else ""
        named.append((bot, f"Computer ({bot.title()}){number}"))
    return named
