"""An entrant's accuracy so far: the decisions of the turns played, graded as the review grades
a finished game (``strategy.analyse`` over the seat's record read back from the game's log; it
takes a record of any number of turns), kept on the entry with how many turns it covers.

The accuracy so far is the game's accuracy formula over the decisions made so far: the final
accuracy the game would have if every decision from here on were perfect. At the game's end it
is the final accuracy; the final standings still read that from the card's seat, graded by the
review (``games.review.grading``), which is done here too if it is still to do, so that the
standings' news follows the grade.

On the task worker after each scoring move (``events``, ``tasks``). Graders of one game take
turns (its entry's row lock) and each reads the log as it is then, so a late task never
overwrites a newer grade; one covering fewer turns than the grade kept (a box taken back
since) is not written.
"""

from __future__ import annotations

from django.db import transaction

from games import advice, strategy
from games.models import Game, GameStatus, Seat
from games.review import grading as review_grading
from games.review import selectors as review_selectors
from games.tournaments import news
from games.tournaments.models import Entry


def grade_so_far(game_id: int) -> bool:
    """Grade the decisions of tournament game ``game_id`` so far and keep them on its entry,
    unless its grade covers more turns already; then tell the tournament. Whether this call
    wrote a grade."""
    with transaction.atomic():
        # The entry's row held while the log is read and graded: two graders of one game take
        # turns, so the later one always reads a log at least as new as the earlier one's.
        entry = Entry.objects.select_for_update().filter(game_id=game_id).first()
        game = Game.objects.filter(pk=game_id).first()
        seat = Seat.objects.filter(game_id=game_id, position=0).first()
        if entry is None or game is None or seat is None:
            return False
        seat.game = game
        try:
            record = review_selectors.game_record(seat)
            found = strategy.analyse(advice.advisor(record.kind), record, players=1)
        except (review_selectors.NoRecord, strategy.RecordError):
            return False
        turns = len(record.turns)
        # Fewer turns than graded: a box taken back since (its new scoring is graded next).
        written = 0 < turns >= entry.graded_turns
        if written:
            entry.accuracy, entry.graded_turns = found.accuracy, turns
            entry.save(update_fields=["accuracy", "graded_turns"])
    finished = game.status == GameStatus.FINISHED and review_grading.grade_finished(game_id)
    if written or finished:
        news.tell(entry.tournament_id)
    return written
