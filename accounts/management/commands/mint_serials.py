"""`manage.py mint_serials --count N [--batch NAME]`: mint serials, print them once as CSV."""

from __future__ import annotations

import csv
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts import licensing


class Command(BaseCommand):
    help = (
        "Mint new serial numbers and print them once as CSV (batch,serial). "
        "Only a keyed hash is stored: keep the output safe, it cannot be shown again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--count", type=int, required=True, help="how many serials")
        parser.add_argument("--batch", default="", help="batch name (default: today's date)")

    def handle(self, *args: Any, count: int, batch: str, **options: Any) -> None:
        if not 1 <= count <= 100_000:
            raise CommandError("--count must be between 1 and 100000")
        batch = batch.strip() or f"batch-{timezone.now():%Y-%m-%d-%H%M%S}"
        minted = licensing.mint_serials(count=count, batch_name=batch)
        writer = csv.writer(self.stdout, lineterminator="\n")
        writer.writerow(["batch", "serial"])
        for serial in minted:
            writer.writerow([batch, serial])
        self.stderr.write(f"Minted {len(minted)} serial(s) in batch {batch!r}.")
