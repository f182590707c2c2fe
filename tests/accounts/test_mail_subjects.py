"""A subject that carries what players typed reaches the reader exactly as written: on one line,
nothing in it decoded by a mail program as an RFC 2047 encoded word, no header of its own started
(``mailing.LiteralSubjectMail``). The mails without a name in their subject keep it so."""

from __future__ import annotations

import email
import email.message
import email.policy
from collections.abc import Callable

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts import signups
from accounts.mailing import LiteralSubjectMail, one_line
from accounts.models import User

HEADERS = {
    "Content-Type",
    "Content-Transfer-Encoding",
    "MIME-Version",
    "Subject",
    "From",
    "To",
    "Date",
    "Message-ID",
}


def received(sent: mail.EmailMessage) -> tuple[bytes, email.message.EmailMessage]:
    """The mail as the SMTP backend writes it, and as a mail program reads those bytes."""
    raw = sent.message(policy=email.policy.SMTP).as_bytes()
    return raw, email.message_from_bytes(raw, policy=email.policy.default)


# Text of every kind, and text made of the pieces of encoded words and of headers.
SUBJECTS = st.text(max_size=300) | st.lists(
    st.sampled_from(["=?", "?=", "utf-8", "?q?", "?B?", "QWxpY2U=", "=E2=80=AE", "_", " ", "\r\n"])
    | st.sampled_from(["Bcc:", "Alice", "—", "\u202e", "\x00", "\t"]),
    max_size=40,
).map("".join)


@given(SUBJECTS)
def test_a_mail_program_reads_the_subject_exactly_as_written(typed: str) -> None:
    sent = LiteralSubjectMail(subject=typed, body="Hello", to=["bob@example.com"])

    raw, mail_program = received(sent)

    assert mail_program["Subject"] == sent.subject == one_line(typed)
    assert set(mail_program.keys()) == HEADERS
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert all(len(line) <= 78 for line in head.split(b"\r\n"))


@given(st.text(max_size=100))
def test_a_subject_is_one_line_that_prints(typed: str) -> None:
    subject = one_line(typed)

    assert subject.isprintable()
    assert subject == subject.strip()
    assert "  " not in subject


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("=?utf-8?q?Alice?= scored", "=?utf-8?q?Alice?= scored"),
        ("Eve\r\nBcc: x@example.com", "Eve Bcc: x@example.com"),
        ("  Ann\tLee  ", "Ann Lee"),
        ("\u202eecilA", "\ufffdecilA"),
        ("Zoë — 🎲", "Zoë — 🎲"),
    ],
)
def test_the_subject_shown(typed: str, shown: str) -> None:
    sent = LiteralSubjectMail(subject=typed, to=["bob@example.com"])

    assert received(sent)[1]["Subject"] == sent.subject == shown


# --- The mails whose subject names nobody ------------------------------------------------------

HOSTILE = "=?utf-8?q?Al?=\r\nBcc: x@e.com"  # 30 characters at most


@pytest.mark.django_db
def test_the_confirmation_mail_names_nobody_in_its_headers(make_user: Callable[..., User]) -> None:
    bob = make_user("bob", email_confirmed=False)
    User.objects.filter(pk=bob.pk).update(display_name=HOSTILE)  # from before the rules
    bob.refresh_from_db()

    signups.send_confirmation(user=bob, site_url="https://yahtzee.example.com")

    _, mail_program = received(mail.outbox[0])
    assert mail_program["Subject"] == "Confirm your e-mail address for Yahtzee"
    assert set(mail_program.keys()) == HEADERS


@pytest.mark.django_db
def test_the_password_reset_mail_names_nobody_in_its_headers(
    client: Client, make_user: Callable[..., User]
) -> None:
    bob = make_user("bob")
    User.objects.filter(pk=bob.pk).update(display_name=HOSTILE)

    client.post(reverse("accounts:password_reset"), {"email": "bob@example.com"})

    _, mail_program = received(mail.outbox[0])
    assert mail_program["Subject"] == "Reset your Yahtzee password"
    assert set(mail_program.keys()) == HEADERS
