"""`manage.py send_turn_mail`: send the turn mails held for the night whose morning has come.

Run it every few minutes (a cron line or a systemd timer; docs/deployment.md, "Turn mail").
Runs that overlap are safe: each mail is claimed before it is sent.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.play import turn_mail


class Command(BaseCommand):
    help = "Send the 'your turn' e-mails held for the night, once 08:00 has come for their player."

    def handle(self, *args: Any, **options: Any) -> None:
        sent = turn_mail.send_held()
        if options["verbosity"] > 1 or sent:
            self.stdout.write(f"Sent {sent} turn mail(s).")
