"""Names typed for the players at the host's screen follow the display names' rules, adapted to
a table at one screen: characters that print nothing or turn text around are refused, and so are
names that would pass for another player at the table, for the site's own names ("Player 123456",
"Computer (Good)") or for another account on the site. A refused name starts nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.display_names import (
    ENCODED_WORDS_REFUSED,
    has_encoded_words,
    is_reserved,
    prints,
    skeleton,
)
from accounts.models import User
from games.models import Game
from games.tables import guests as guest_rules
from games.tables import services
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def refusal(owner: User, guests: list[str], **online: int) -> str:
    """The message a game with these guests is refused with; nothing may have been used."""
    with pytest.raises(services.BadGuests) as refused:
        services.open_game(owner=owner, guests=guests, **online)
    assert not Game.objects.exists()
    owner.refresh_from_db()
    assert owner.trial_games_used == 0
    assert owner.guest_names == []
    return str(refused.value)


INVISIBLE = (
    "Player {slot}'s name has a character that prints nothing or turns text around: "
    "use letters, numbers, spaces, punctuation or emoji only."
)


@pytest.mark.parametrize(
    "name",
    [
        "Ann\x00",  # NUL: PostgreSQL cannot store it
        "Ann\x07",  # BEL
        "\x1b[31mAnn",  # ESC, as a terminal colour
        "\u202eAnn",  # right-to-left override
        "\u2066Ann\u2069",  # left-to-right isolate
        "A\u200bnn",  # zero-width space
        "A\u200dnn",  # zero-width joiner
        "\ufeffAnn",  # zero-width no-break space (byte order mark)
        "Ann\u00ad",  # soft hyphen
        "\ue000Ann",  # private use
    ],
)
def test_a_character_that_prints_nothing_or_turns_text_around_is_refused(player, name) -> None:
    assert refusal(player, [name]) == INVISIBLE.format(slot=2)


def test_the_refusal_says_whose_name_without_repeating_it(player) -> None:
    # The name itself is not echoed: an override in it would scramble the message.
    assert refusal(player, ["Ann", "", "Bo\u202eb"]) == INVISIBLE.format(slot=4)


def test_an_online_game_refuses_the_same_names(player) -> None:
    assert refusal(player, ["\u202eAnn"], invites=1) == INVISIBLE.format(slot=2)


def test_spaces_of_every_kind_become_one_space_and_accents_one_character(player) -> None:
    typed = ["  Ann\tLee ", "Bo\u00a0\u3000Kim", "Ame\u0301lie"]

    assert guest_rules.guest_names(typed, owner=player) == ["Ann Lee", "Bo Kim", "Amélie"]


@pytest.mark.parametrize(
    ("guests", "message"),
    [
        (["Аlice"], "“Аlice” looks just like “Alice”: give each player a name of their own."),
        (["A1ice"], "“A1ice” looks just like “Alice”: give each player a name of their own."),
        (["Bob", "B0b"], "“B0b” looks just like “Bob”: give each player a name of their own."),
        (["Ann", "A.nn"], "“A.nn” looks just like “Ann”: give each player a name of their own."),
        (["Ann", "Ａnn"], "“Ａnn” looks just like “Ann”: give each player a name of their own."),
    ],
)
def test_a_look_alike_of_a_player_at_the_table_is_refused(player, guests, message) -> None:
    assert refusal(player, guests) == message


def test_the_same_name_as_the_host_is_named_as_such(player) -> None:
    assert refusal(player, ["ALICE"]) == "Two players are called “ALICE”: give each their own name."


NEUTRAL = "“{name}” looks like a name the site gives players without one: choose another."


@pytest.mark.parametrize("name", ["Player 123456", "player482913", "PIayer 1O2345", "Player 1234"])
def test_a_name_like_the_sites_own_player_123456_is_refused(player, name) -> None:
    assert refusal(player, [name]) == NEUTRAL.format(name=name)


def test_a_host_without_a_display_name_is_not_named_again(db) -> None:
    host = User.objects.create_user("nameless", email="n@example.com", email_confirmed=True)

    assert refusal(host, [str(host)]) == NEUTRAL.format(name=str(host))


def test_players_numbered_as_the_form_numbers_them_are_welcome(player) -> None:
    typed = ["Player 2", "Player 3"]

    assert guest_rules.guest_names(typed, owner=player) == typed


COMPUTER = "“{name}” would pass for a computer player: choose a name not beginning “Computer”."


@pytest.mark.parametrize(
    "name", ["Computer (Perfect)", "Computer (Good) 2", "computer", "Cornputer (Good)", "C0mputer"]
)
def test_a_name_like_a_computer_players_is_refused(player, name) -> None:
    assert refusal(player, [name]) == COMPUTER.format(name=name)


ACCOUNT = "“{name}” is another player's name on this site, or looks just like it: choose another."


@pytest.mark.parametrize("name", ["Bob", "bob", "B0B", "Воb", "B o b"])
def test_another_accounts_name_or_a_look_alike_is_refused(player, name) -> None:
    make_user("bob", display_name="Bob")

    assert refusal(player, ["Ann", name]) == ACCOUNT.format(name=name)


def test_a_name_like_no_account_is_welcome(player) -> None:
    make_user("bob", display_name="Bob")

    assert guest_rules.guest_names(["Bobby", "Rob"], owner=player) == ["Bobby", "Rob"]


# Mail programs decode an RFC 2047 encoded word in a subject: "=?utf-8?q?Alice?=" reads "Alice".
ENCODED = [
    "=?utf-8?q?Alice?=",
    "=?UTF-8?B?Qm9iDQpCY2M6IHg=?=",  # "Bob\r\nBcc: x"
    "=?utf-8?q?=E2=80=AEecilA?=",  # a right-to-left override
    "=?x-any?q?Computer_(Good)?=",
    "Ann =?utf-8?q?Lee?=",
]


@pytest.mark.parametrize("name", ENCODED)
def test_a_name_holding_an_encoded_word_is_refused_with_the_reason(player, name) -> None:
    assert refusal(player, ["Ann", name]) == ENCODED_WORDS_REFUSED


@pytest.fixture
def encoded_words_let_through(monkeypatch) -> None:
    monkeypatch.setattr(guest_rules, "has_encoded_words", lambda name: False)


@pytest.mark.usefixtures("encoded_words_let_through")
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("=?utf-8?q?Alice?=", "looks just like “Alice”"),  # the host
        ("=?utf-8?q?Ann?=", "looks just like “Ann”"),
        ("=?utf-8?q?Bob?=", "is another player's name on this site"),
        ("=?x-any?q?Computer_(Good)?=", "would pass for a computer player"),
        ("=?utf-8?q?Player_123456?=", "looks like a name the site gives players without one"),
        ("=?UTF-8?B?Qm9iDQpCY2M6IHg=?=", INVISIBLE.format(slot=3)),
        ("=?utf-8?q?=E2=80=AEecilA?=", INVISIBLE.format(slot=3)),
    ],
)
def test_without_that_refusal_the_name_as_mail_reads_it_follows_every_rule(
    player, name, message
) -> None:
    make_user("bob", display_name="Bob")

    assert message in refusal(player, ["Ann", name])


def test_a_stored_name_from_before_is_refused_and_no_longer_offered(player) -> None:
    # Kept before these rules: one turns text around, two pose as names the site gives itself,
    # one reads in mail as another's.
    User.objects.filter(pk=player.pk).update(
        guest_names=["\u202eAnn", "Cy", "Computer (Perfect)", "Player 123456", "=?utf-8?q?Bo?="]
    )
    player.refresh_from_db()

    assert refusal_keeping_the_list(player, ["\u202eAnn"]) == INVISIBLE.format(slot=2)
    services.start_game(owner=player, guests=["Di"])

    player.refresh_from_db()
    assert player.guest_names == ["Di", "Cy"]


def refusal_keeping_the_list(owner: User, guests: list[str]) -> str:
    with pytest.raises(services.BadGuests) as refused:
        services.start_game(owner=owner, guests=guests)
    assert not Game.objects.exists()
    return str(refused.value)


@given(st.lists(st.text(max_size=40), max_size=5))
def test_every_accepted_name_can_be_read_and_passes_for_nobody_else(typed: list[str]) -> None:
    owner, _ = User.objects.get_or_create(username="alice", defaults={"display_name": "Alice"})
    try:
        names = guest_rules.guest_names(typed, owner=owner)
    except services.BadGuests as refused:
        assert str(refused)
        return
    keys = [skeleton(name) for name in [str(owner), *names]]
    assert len(set(keys)) == len(keys)
    for name in names:
        assert name == name.strip() and 1 <= len(name) <= guest_rules.NAME_LENGTH
        assert name.isprintable()
        assert prints(name) and not has_encoded_words(name)  # in mail too
        # "Player 2" numbers a seat; a longer number would pass for the site's "Player 123456".
        assert not is_reserved(name) or len(skeleton(name)) <= len("player") + 3
        assert not skeleton(name).startswith("computer")
