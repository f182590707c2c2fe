"""`manage.py grade_games`: grade every finished game whose cards have no accuracy yet: games
finished before there was grading, and games of several or Triple that no page asked to grade
(``games.review.grading``). Cheap when there is nothing to do (``make run`` calls it); safe to
run beside the site, or twice at once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import Grading
from games.review import grading


class Command(BaseCommand):
    help = "Grade the accuracy of every finished game not graded yet."

    def handle(self, *args: Any, **options: Any) -> None:
        verbose = options["verbosity"] > 1

        def progress(done: int, total: int) -> None:
            if verbose or done == total or done % 500 == 0:
                self.stdout.write(f"  {done} of {total} games")

        swept = grading.grade_all_pending(progress=progress)
        if swept.games or verbose:
            cards = swept.cards
            self.stdout.write(
                f"Graded {swept.games} game(s): {cards[Grading.EXACT]} card(s) exact, "
                f"{cards[Grading.ESTIMATE]} estimated, {cards[Grading.NONE]} without an "
                "accuracy (not played to the end, or a log that cannot be graded)."
            )
