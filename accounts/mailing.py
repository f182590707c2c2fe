"""Whether an account may be sent the site's optional mail (the turn mail): its own option, the
signed unsubscribe link that works without logging in, and the flag a bounced address sets.

Mail an account must have (the confirmation link, a password reset) ignores all this.
"""

from __future__ import annotations

from django.core import signing
from django.urls import reverse

from accounts.models import User

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
