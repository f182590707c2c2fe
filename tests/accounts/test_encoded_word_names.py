"""A name is read twice: on the site as typed, and in mail, where programs decode RFC 2047
encoded words in a header (``=?utf-8?q?Alice?=`` reads "Alice"). A display name holding
``=?`` … ``?=`` is refused outright; and the other rules (prints, passes for nobody) hold for
the name as mail reads it too, should that refusal ever be loosened (issue 35, item 7)."""

from __future__ import annotations

import base64
import email
import email.policy
from collections.abc import Callable
from email import base64mime, quoprimime

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts import forms as account_forms
from accounts.display_names import (
    ENCODED_WORDS_REFUSED,
    as_mail_reads,
    has_encoded_words,
    is_reserved,
    prints,
    skeleton,
    skeletons,
)
from accounts.forms import (
    DISPLAY_NAME_INVISIBLE,
    DISPLAY_NAME_LOOK_ALIKE,
    DISPLAY_NAME_RESERVED,
    DisplayNameForm,
    SignUpForm,
)
from accounts.models import User


def b_word(text: str, charset: str = "utf-8") -> str:
    return f"=?{charset}?b?{base64.b64encode(text.encode(charset)).decode()}?="


ALICE_IN_MAIL = "=?utf-8?q?Alice?="
OVERRIDE_IN_MAIL = "=?utf-8?q?=E2=80=AEecilA?="  # right-to-left override, then "ecilA"
LINE_BREAK_IN_MAIL = b_word("Bob\r\nBcc: x")
PLAYER_IN_MAIL = "=?utf-8?q?Player_123456?="

ENCODED_NAMES = [
    ALICE_IN_MAIL,
    OVERRIDE_IN_MAIL,
    LINE_BREAK_IN_MAIL,
    PLAYER_IN_MAIL,
    "=?UTF-8?Q?Alice?=",
    "=?iso-8859-1?B?QWxpY2U=?=",
    "=?utf-8*en?q?Alice?=",  # with an RFC 2231 language
    "=?x-unknown?q?Alice?=",
    "Hi =?x?q?Al?= =?x?q?ice?= you",
    "=??=",  # not even a word: still refused, whatever a program makes of it
]


# --- How mail reads a name ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "in_mail"),
    [
        (ALICE_IN_MAIL, "Alice"),
        ("=?UTF-8?Q?Alice?=", "Alice"),
        ("=?iso-8859-1?B?QWxpY2U=?=", "Alice"),
        ("=?utf-8?b?QWxpY2U?=", "Alice"),  # padding left off
        ("=?utf-8*en?q?Alice?=", "Alice"),
        ("=?x-unknown?q?Alice?=", "Alice"),
        ("=?utf-8?q?Al?= =?utf-8?q?ice?=", "Alice"),  # the space between two words is dropped
        ("=?utf-8?q?Ann_Lee?= and Bo", "Ann Lee and Bo"),
        (OVERRIDE_IN_MAIL, "\u202eecilA"),
        (LINE_BREAK_IN_MAIL, "Bob\r\nBcc: x"),
        ("Alice", "Alice"),
        ("Who=?", "Who=?"),
    ],
)
def test_a_name_reads_in_mail_as_a_mail_program_decodes_it(name: str, in_mail: str) -> None:
    assert as_mail_reads(name) == in_mail


@given(
    text=st.text(st.characters(exclude_categories=["Cs"]), max_size=40),
    charset=st.sampled_from(["utf-8", "UTF-8", "utf-16", "iso-8859-7", "koi8-r", "shift_jis"]),
    encode=st.sampled_from([quoprimime.header_encode, base64mime.header_encode]),
)
def test_the_reading_agrees_with_pythons_mail_parser(
    text: str, charset: str, encode: Callable[[bytes, str], str]
) -> None:
    try:
        data = text.encode(charset)
    except UnicodeEncodeError:
        return  # not a text this charset can carry
    word = encode(data, charset)
    parsed = email.message_from_string(f"Subject: {word}\n\n", policy=email.policy.default)

    # (Shift JIS writes "¥" as a backslash: the text the bytes stand for, not always the one typed.)
    assert as_mail_reads(word) == str(parsed["Subject"]) == data.decode(charset)


def test_a_name_that_decodes_to_an_override_or_a_line_break_does_not_print() -> None:
    assert OVERRIDE_IN_MAIL.isprintable() and LINE_BREAK_IN_MAIL.isprintable()

    assert not prints(OVERRIDE_IN_MAIL)
    assert not prints(LINE_BREAK_IN_MAIL)
    assert prints("Alice")


def test_a_name_that_decodes_to_another_shares_its_look_alike_key() -> None:
    assert skeletons("Alice") == (skeleton("Alice"),)
    assert skeletons(ALICE_IN_MAIL) == (skeleton(ALICE_IN_MAIL), skeleton("Alice"))
    assert is_reserved(PLAYER_IN_MAIL)


@pytest.mark.parametrize("name", ENCODED_NAMES)
def test_encoded_word_syntax_is_found_in_any_case_and_charset(name: str) -> None:
    assert has_encoded_words(name)


@pytest.mark.parametrize("name", ["Alice", "Who=?", "?=Ann=?", "a = b ? c", "=?="])
def test_a_name_without_the_syntax_has_none(name: str) -> None:
    assert not has_encoded_words(name)


# --- The forms ---------------------------------------------------------------------------------

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ENCODED_NAMES)
def test_a_display_name_with_encoded_words_is_refused_with_the_reason(
    player: User, name: str
) -> None:
    bob = User.objects.create_user("bob", display_name="Bob", email="bob@example.com")

    form = DisplayNameForm({"display_name": name}, instance=bob)

    assert form.errors["display_name"] == [ENCODED_WORDS_REFUSED]


def test_sign_up_refuses_one_too(player: User, signup_data: dict[str, str]) -> None:
    form = SignUpForm({**signup_data, "display_name": ALICE_IN_MAIL})

    assert form.errors["display_name"] == [ENCODED_WORDS_REFUSED]


def test_the_account_page_says_why(
    player: User, client_for: Callable[..., Client], make_user: Callable[..., User]
) -> None:
    mallory = client_for(make_user("mallory"))

    response = mallory.post(reverse("accounts:account"), {"display_name": ALICE_IN_MAIL})

    assert ENCODED_WORDS_REFUSED in response.text
    assert User.objects.get(username="mallory").display_name == "Mallory"


@given(
    charset=st.sampled_from(["utf-8", "UTF-8", "iso-8859-1", "us-ascii", "x-anything"]),
    encoding=st.sampled_from("qQbB"),
    text=st.text(st.characters(codec="ascii", exclude_characters="?"), max_size=10),
    before=st.text(max_size=5),
    after=st.text(max_size=5),
)
def test_no_name_holding_an_encoded_word_is_accepted(
    charset: str, encoding: str, text: str, before: str, after: str
) -> None:
    typed = f"{before}=?{charset}?{encoding}?{text}?={after}"

    form = DisplayNameForm({"display_name": typed}, instance=User(username="mallory"))

    assert not form.is_valid()


# Should "=?" … "?=" ever be let through, the other rules still read the name as mail does.


@pytest.fixture
def encoded_words_let_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(account_forms, "has_encoded_words", lambda name: False)


@pytest.mark.usefixtures("encoded_words_let_through")
@pytest.mark.parametrize(
    ("name", "message"),
    [
        (ALICE_IN_MAIL, DISPLAY_NAME_LOOK_ALIKE),
        ("=?utf-8?b?QUxJQ0U=?=", DISPLAY_NAME_LOOK_ALIKE),  # "ALICE"
        (PLAYER_IN_MAIL, DISPLAY_NAME_RESERVED),
        (OVERRIDE_IN_MAIL, DISPLAY_NAME_INVISIBLE),
        (LINE_BREAK_IN_MAIL, DISPLAY_NAME_INVISIBLE),
    ],
)
def test_without_that_refusal_the_name_as_mail_reads_it_follows_every_rule(
    player: User, name: str, message: str
) -> None:
    bob = User.objects.create_user("bob", display_name="Bob", email="bob@example.com")

    form = DisplayNameForm({"display_name": name}, instance=bob)

    assert form.errors["display_name"] == [message]
