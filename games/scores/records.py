"""A finished game's results entering the high scores: one ``Score`` row per seat still
playing at the end, with where it ranked when it finished. A day's challenge (or a tournament's
game) is entered for its player's statistics, marked ``challenge``: the high scores never rank
it."""

from __future__ import annotations

from collections.abc import Sequence

from games import rules
from games.models import Game, Score, Seat
from games.scores.selectors import high_score_entry


def enter_scores(game: Game, seats: Sequence[Seat], match: rules.Match) -> None:
    """Copy each seat's result into the high scores, noting where it enters them."""
    assert game.finished_at is not None
    scores = Score.objects.bulk_create(
        Score(
            seat=seat,
            game=game,
            kind=game.kind,
            player_kind=seat.player_kind,
            user_id=seat.user_id,
            display_name=seat.display_name,
            grand_total=sheet.grand_total,
            upper_bonuses=sum(1 for column in sheet.totals()["columns"] if column["upper_bonus"]),
            yahtzees=sheet.yahtzees,
            yahtzee_bonuses=sheet.yahtzee_bonuses,
            hints=seat.hints,
            coached=seat.coached,
            challenge=match.challenge,  # a day's or a tournament's: shared dice, never ranked
            finished_at=game.finished_at,
        )
        for seat, sheet, state in zip(seats, match.sheets, match.states, strict=True)
        if state is rules.SeatState.PLAYING  # a resigned player's score is never entered
    )
    for score in scores:
        if entry := high_score_entry(score, now=game.finished_at):
            score.high_score_rank, score.high_score_period = entry
            score.save(update_fields=["high_score_rank", "high_score_period"])
