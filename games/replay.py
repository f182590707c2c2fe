"""A game played again from its ``Move`` log through ``rules.Match``: the log is the match's
events, so any game can be rebuilt from it exactly, and checked against what is stored.

Each row is one Match action, in order of ``seq``: a roll for first, a roll (the hold before a
re-roll is the roll's ``held``), a scoring, an undo, a resignation, a skip (``by_position``
says who skipped) or the host's end. The dice a roll threw are read back from the row; every
other outcome (points, bonuses, the Joker, the box a skip fills) is worked out by the rules
again and must come out as logged.
"""

from __future__ import annotations

from collections.abc import Sequence

from games import rules
from games.models import Game, Move, MoveAction, Seat


class ReplayMismatch(ValueError):
    """The log does not replay to itself: a move the rules refuse, or an outcome that differs."""


def _thrown(values: Sequence[int]) -> rules.DiceSource:
    """A dice source handing out ``values``, the dice a logged throw showed."""

    def source(n: int) -> Sequence[int]:
        if n != len(values):
            raise ReplayMismatch(f"The log holds {len(values)} dice for a throw of {n}.")
        return values

    return source


def replay(game: Game) -> rules.Match:
    """The match ``game``'s log makes, every move checked; ``ReplayMismatch`` says where not."""
    positions = dict(Seat.objects.filter(game=game).values_list("pk", "position"))
    match = rules.Match.start(game.rules_kind, len(positions), roll_for_first=game.roll_for_first)
    for move in Move.objects.filter(game=game).order_by("seq"):
        try:
            match = _play(match, positions[move.seat_id], move)
        except rules.IllegalMove as refused:
            raise ReplayMismatch(f"Move {move.seq} ({move.action}): {refused}") from refused
    return match


def _play(match: rules.Match, seat: int, move: Move) -> rules.Match:
    """``match`` after the logged ``move`` of ``seat``, its outcome checked against the row."""
    logged: tuple[object, ...]
    worked_out: tuple[object, ...]
    match move.action:
        case MoveAction.FIRST:
            after, _ = match.roll_for_first(seat, _thrown(move.dice))
            return after
        case MoveAction.ROLL:
            if match.turn.has_rolled:
                match, _ = match.hold(seat, move.held)
            fresh = [die for die, kept in zip(move.dice, move.held, strict=True) if not kept]
            after, rolled = match.roll(seat, _thrown(fresh))
            logged = (tuple(move.dice), tuple(move.held), move.roll_number)
            worked_out = (rolled.dice, rolled.held, rolled.roll_number)
        case MoveAction.SCORE:
            after, scored = match.score(seat, move.box, move.column or 0)
            logged = (tuple(move.dice), move.points, move.yahtzee_bonus, move.joker)
            worked_out = (scored.dice, scored.points, scored.yahtzee_bonus, scored.joker)
        case MoveAction.UNDO:
            after, undone = match.undo_scoring(seat)
            logged, worked_out = (move.box, move.column), (undone.box, undone.column)
        case MoveAction.RESIGN:
            after, _ = match.resign(seat)
            return after
        case MoveAction.SKIP:
            if move.by_position is None:
                raise ReplayMismatch(f"Move {move.seq}: a skip that does not say who skipped.")
            after, skipped = match.skip(seat, by=move.by_position)
            logged, worked_out = (move.box or None, move.column), (skipped.box, skipped.column)
        case MoveAction.END:
            after, _ = match.end(seat)
            return after
        case _:
            raise ReplayMismatch(f"Move {move.seq}: no such action {move.action!r}.")
    if logged != worked_out:
        raise ReplayMismatch(f"Move {move.seq} ({move.action}): logged {logged}, {worked_out} now.")
    return after
