"""`manage.py mark_bounced ADDRESS…`: no more optional mail (the turn mail) to these addresses,
for bounces reported other than by the mail provider's webhook."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts import mailing


class Command(BaseCommand):
    help = "Flag the accounts with these e-mail addresses as bounced: no more turn mail to them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addresses", nargs="+", help="e-mail addresses whose mail bounced")

    def handle(self, *args: Any, addresses: list[str], **options: Any) -> None:
        flagged = sum(mailing.mark_bounced(email=address) for address in addresses)
        self.stdout.write(f"Flagged {flagged} account(s).")
