"""The game's own rooms listen to the move: the coach grades a decision as it is made (its
note kept on the seat, in the move's transaction: ``coach``), every open page is told of it
once it commits (``live``), and a turn passed to a player away from the game is mailed from the
worker (``turn_mail``, ``tasks``)."""

from __future__ import annotations

from games import events, store
from games.play import coach, live, tasks, turn_mail
from yahtzee_site.tasking import later


def coach_the_move(moved: events.Moved) -> None:
    if (coaching := coach.review(moved)) is not None:
        at = coaching.position
        store.keep_coaching(moved.seats, at, coaching.columns(at))


def tell_the_pages(moved: events.Moved) -> None:
    if moved.shown:
        live.publish(moved.game, rolled=moved.rolled)


def mail_the_turn(moved: events.Moved) -> None:
    if (due := turn_mail.turn_to_mail(moved)) is not None:
        seat_id, turn, news = due
        later(tasks.mail_turn, seat_id=seat_id, turn=turn, news=news)


def subscribe() -> None:
    events.listen(coach_the_move)
    events.listen(tell_the_pages)
    events.listen(mail_the_turn)
