"""Whether an account may be sent the site's optional mail (the turn mail): its own option, the
signed unsubscribe link that works without logging in, and the flag a bounced address sets; and
how a mail carries what players typed in its subject (``LiteralSubjectMail``).

Mail an account must have (the confirmation link, a password reset) ignores the first part.
"""

from __future__ import annotations

import email.policy
from email.header import Header
from email.message import EmailMessage as WrittenMail
from email.policy import Policy
from typing import TYPE_CHECKING

from django.core import signing
from django.core.mail import EmailMessage
from django.urls import reverse

from accounts.models import User

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise

_SALT = "accounts.mailing.unsubscribe"


class BadUnsubscribeLink(ValueError):
    """An unsubscribe link that this site did not make (or made for no account now)."""

    def __init__(self) -> None:
        super().__init__(
            "This unsubscribe link is not valid: it may have been cut short or changed. "
            "Nothing was changed. Copy the whole link from the e-mail, or turn the mails off "
            "in Options after logging in."
        )


def may_mail(user: User) -> bool:
    """Whether optional mail may go to ``user``: they want it, their address is theirs
    (confirmed: mail never goes to an address someone typed for somebody else) and it has not
    bounced."""
    return bool(user.turn_mail and user.email and user.email_confirmed and not user.email_bounced)


def unsubscribe_token(user: User) -> str:
    """The signed token of ``user``'s unsubscribe link (``SECRET_KEY``, this purpose only)."""
    return signing.dumps(user.pk, salt=_SALT)


def unsubscribe_path(user: User) -> str:
    return reverse("accounts:unsubscribe", kwargs={"token": unsubscribe_token(user)})


def account_of(token: str) -> User:
    """The account a token was made for; ``BadUnsubscribeLink`` for anything else."""
    try:
        pk = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        raise BadUnsubscribeLink() from None
    user = User.objects.filter(pk=pk).first() if isinstance(pk, int) else None
    if user is None:
        raise BadUnsubscribeLink()
    return user


def unsubscribe(*, token: str) -> User:
    """Turn the turn mail off for the token's account (again is harmless)."""
    user = account_of(token)
    User.objects.filter(pk=user.pk).update(turn_mail=False)
    user.turn_mail = False
    return user


def mark_bounced(*, email: str) -> int:
    """Stop optional mail to ``email`` (any letter case): the accounts flagged."""
    email = email.strip()
    if not email:
        return 0
    return User.objects.filter(email__iexact=email).update(email_bounced=True)


# --- Subjects that carry names -----------------------------------------------------------------


def one_line(text: str) -> str:
    """``text`` fit for a header: on one line (a line break or a run of spaces made one space),
    and a character that prints nothing or turns text around, as a name kept from before the
    names' rules may hold, shown as "�" (U+FFFD)."""
    return "".join(char if char.isprintable() else "\ufffd" for char in " ".join(text.split()))


class EncodedSubject(str):
    """A Subject header written in RFC 2047 encoded words (UTF-8) from end to end.

    Every character is encoded, "=" and "?" too, so a mail program decodes exactly this text: a
    name typed as "=?utf-8?q?Alice?=" is shown so, never decoded to "Alice". (Python's email
    package would decode such a name when the subject is set, and write it out as plain text
    that mail programs decode; it keeps a header object with a ``name`` as it is, and asks it to
    ``fold`` itself.)
    """

    name = "Subject"

    def fold(self, *, policy: Policy) -> str:
        words = Header(str(self), "utf-8", header_name=self.name).encode(
            linesep=policy.linesep, maxlinelen=policy.max_line_length or 78
        )
        return f"{self.name}: {words}{policy.linesep}"


class LiteralSubjectMail(EmailMessage):
    """A mail whose subject carries what players typed (their names): on one line
    (``one_line``) and written as an ``EncodedSubject``, so that mail programs show it as it
    is, and no name can be read as encoded text or start a header of its own."""

    @property
    def subject(self) -> str:
        return self._subject

    @subject.setter
    def subject(self, text: _StrOrPromise) -> None:
        self._subject = one_line(str(text))

    def message(self, *, policy: Policy | None = email.policy.default) -> WrittenMail:
        written = super().message(policy=policy)
        written.replace_header("Subject", EncodedSubject(self.subject))
        return written
