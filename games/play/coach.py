"""The coach: feedback after a decision, never a hint before it.

A player who turns the coach on (Options) has each decision of theirs set beside the best one
(``strategy.grade``, from the match as it stood before the move): the dice held before a
re-roll, and the box scored. A choice that gave away at least their threshold of expected
points leaves a short note beside the card ("Holding 5 5 was worth 2.1 more expected points
than 5 5 6."), with
the position's best choices one tap away; a best or close choice passes in silence. The note
stays until the next decision at the player's screen (a turn's first roll decides nothing; an
undo takes it down with the box it takes back).

The coach is the account's: it grades the account's own seat only, never the guests who play
at its screen (other people, who did not ask for it) nor the computer, and never in the daily
challenge (no help there). A seat it graded is marked (``Seat.coached``), as one that asked
for hints is. Classic and Yatzy solitaire are exact (each by its own table); Triple and games
of several get the hints' estimate, and the note says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accounts.models import User
from games import advice, rules, strategy
from games.coaching import Coaching
from games.events import Moved
from games.models import PlayerKind
from games.store import SeatedGame

SHOWN = 3
"""The best choices the note's "Show" lists."""

ESTIMATE = "An estimate: exact play is known for a Classic or Yatzy game played alone."


def review(moved: Moved) -> Coaching | None:
    """What the coach makes of the move ``moved``, made by its account (``moved.by``): a note
    for their seat (or none, the last one taken down), or ``None`` when nothing changes.

    A decision made at the account's screen (theirs, graded where the match allows the coach;
    a guest's, not) replaces the note, as an undo does (it takes the decision back); a turn's
    first roll decides nothing and leaves it, as holding dice does."""
    before, user = moved.before, moved.by
    decision = _decision(moved.events)
    if before is None or user is None or decision is None:
        return None
    position = _own_seat(moved, user)
    if position is None or before.player_of(decision.seat) != position:
        return None  # not a decision made at their screen (the computer's, another's)
    coached = user.coach and before.can_coach(position) and decision.seat == position
    if not coached or isinstance(decision, rules.Undone):
        return Coaching(position, None) if moved.seats[position].coach_note else None
    sheet, turn = before.sheets[position], before.turn
    advisor = advice.advisor(before.kind)
    ranked = advisor.options(sheet, turn)  # once: for the grading and for the note
    graded = strategy.grade(advisor, sheet, turn, _choice(decision, turn), ranked=ranked)
    note = None
    if graded.loss >= float(user.coach_threshold):
        exact = before.kind is advisor.kind and before.seats == 1
        note = note_of(graded, ranked[:SHOWN], exact=exact, columns=before.kind.columns)
    return Coaching(position, note, graded=True)


def _decision(
    events: Sequence[rules.MatchEvent],
) -> rules.Rolled | rules.Scored | rules.Undone | None:
    """The decision a move made (a box, dice held for a re-roll) or took back, if any."""
    for event in events:
        if isinstance(event, rules.Rolled) and event.roll_number > 1:
            return event
        if isinstance(event, rules.Scored | rules.Undone):
            return event
    return None


def _own_seat(moved: Moved, user: User) -> int | None:
    """The place of ``user``'s own seat at the table (``None``: not seated)."""
    return next(
        (
            p
            for p, seat in enumerate(moved.seats)
            if seat.user_id == user.pk and seat.player_kind == PlayerKind.HUMAN
        ),
        None,
    )


def _choice(decision: rules.Rolled | rules.Scored, turn: rules.Turn) -> strategy.Action:
    """The decision made on ``turn``: a box, or the dice held for the re-roll."""
    if isinstance(decision, rules.Scored):
        return strategy.ScoreBox(decision.column, rules.Box(decision.box))
    return strategy.RollDice(tuple(decision.held))


# --- The note, as it is kept on the seat (plain data: the page lays it out) ----------------


def note_of(
    decision: strategy.Decision,
    ranked: list[strategy.Option],
    *,
    exact: bool,
    columns: int = 1,
) -> dict[str, Any]:
    """The note on a costly ``decision``: the sentence, the dice as they were (and those the
    choice held), the ``ranked`` best choices with their expected final scores (the player's
    marked), the player's own below them when it is not among them, and whether it is exact."""
    dice, choice = decision.dice, decision.choice
    best = [_shown(option, dice, yours=_same(option, choice, dice)) for option in ranked]
    return {
        "sentence": sentence(decision.best, choice, dice, columns=columns),
        "dice": list(dice),
        "held": list(_held(choice)),
        "roll": decision.roll_number,
        "best": best,
        "yours": None if any(o["yours"] for o in best) else _shown(choice, dice, yours=True),
        "exact": exact,
    }


def _shown(option: strategy.Option, dice: rules.Dice, *, yours: bool) -> dict[str, Any]:
    action = option.action
    return {
        "description": option.description,
        "expected": round(option.expected, 1),
        "held": list(action.held) if isinstance(action, strategy.RollDice) else None,
        "yours": yours,
    }


def _held(option: strategy.Option) -> tuple[bool, ...]:
    action = option.action
    return tuple(action.held) if isinstance(action, strategy.RollDice) else rules.NO_HOLD


def _kept(action: strategy.RollDice, dice: rules.Dice) -> tuple[int, ...]:
    """The dice a hold keeps, smallest first (the same keep, however the dice lie)."""
    return tuple(sorted(d for d, held in zip(dice, action.held, strict=True) if held))


def _same(option: strategy.Option, choice: strategy.Option, dice: rules.Dice) -> bool:
    a, b = option.action, choice.action
    if isinstance(a, strategy.RollDice) and isinstance(b, strategy.RollDice):
        return _kept(a, dice) == _kept(b, dice)
    return a == b


# --- Words ------------------------------------------------------------------------------------


def sentence(
    best: strategy.Option, choice: strategy.Option, dice: rules.Dice, *, columns: int = 1
) -> str:
    """ "Holding 5 5 was worth 2.1 more expected points than 5 5 6.", "Full House (25) was
    worth 3.4 more expected points than Chance (22).": the difference in the final score each
    choice can expect, said as expected points so it is not read as the points in the box."""
    loss = max(0.0, best.expected - choice.expected)
    first = _words(best, dice, columns)
    other = _words(choice, dice, columns)
    if first.startswith("holding ") and other.startswith("holding ") and "all" not in other:
        other = other.removeprefix("holding ")  # "Holding 5 5 … than 5 5 6"
    return f"{first[0].upper()}{first[1:]} was worth {loss:.1f} more expected points than {other}."


def _words(option: strategy.Option, dice: rules.Dice, columns: int) -> str:
    """A choice in the sentence: "holding 5 5", "rolling all five", "Full House (25)", "Chance
    in column 2 (22)"."""
    action = option.action
    if isinstance(action, strategy.ScoreBox):
        where = f" in column {action.column + 1}" if columns > 1 else ""
        return f"{action.box.label}{where} ({option.points or 0})"
    kept = _kept(action, dice)
    if not kept:
        return "rolling all five"
    if len(kept) == rules.DICE_COUNT:
        return "holding all five"
    return "holding " + " ".join(str(d) for d in kept)


# --- What the game page shows ----------------------------------------------------------------


def shown(seated: SeatedGame, viewer: User) -> dict[str, Any] | None:
    """The coach's note for ``viewer`` (on their own seat's latest decision), as the tray lays
    it out; ``None`` when there is none. Nobody else sees it."""
    seat = seated.seat_of(viewer)
    note = seat.coach_note if seat is not None else None
    if not note:
        return None
    dice = note["dice"]
    return {
        "sentence": note["sentence"],
        "roll": note["roll"],
        "tray": list(zip(dice, note["held"], strict=True)),
        "dice_label": _dice_label(dice, note["held"]),
        "best": [_option(option, dice) for option in note["best"]],
        "yours": _option(note["yours"], dice) if note["yours"] else None,
        "exact": note["exact"],
        "estimate": "" if note["exact"] else ESTIMATE,
    }


def _option(option: dict[str, Any], dice: list[int]) -> dict[str, Any]:
    """A choice as "Show" lists it: its words, its expected final score to one decimal, and
    the dice it holds."""
    return option | {"expected": f"{option['expected']:.1f}", "tray": _tray(dice, option["held"])}


def _tray(dice: list[int], held: list[bool] | None) -> list[tuple[int, bool]]:
    """Each die and whether a choice holds it (none for a box)."""
    return list(zip(dice, held, strict=True)) if held else []


def _dice_label(dice: list[int], held: list[bool]) -> str:
    """ "Dice 5, 5, 6, 2, 1; you held 5, 5 and 6": what the picture of the dice says."""
    said = "Dice " + ", ".join(str(d) for d in dice)
    kept = [str(d) for d, h in zip(dice, held, strict=True) if h]
    if kept:
        said += "; you held " + (", ".join(kept[:-1]) + " and " if len(kept) > 1 else "") + kept[-1]
    return said
