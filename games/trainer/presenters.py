"""What the trainer's page shows of a position, as plain values: where it comes from, the card
as it stood (with the boxes this roll can take, or the box chosen and the best one once
answered), the dice, and the verdict in words. Presenters make no query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Any

from django.utils import timezone

from games import rules, strategy
from games.play.card import card_rows, tray_dice
from games.play.presenters import LIMITS
from games.trainer import spacing
from games.trainer.models import Source, TrainingPosition
from games.trainer.positions import Position, action_from_json
from games.trainer.selectors import Standing
from games.trainer.tally import Tally


def points(value: float) -> str:
    """Expected points as the page says them: one decimal, two below a tenth."""
    if value < 0.005:
        return "under 0.01"
    return f"{value:.2f}" if value < 0.05 else f"{value:.1f}"


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


@dataclass(frozen=True)
class Verdict:
    """An answer beside the best choice, in words, and what becomes of the position. Each
    thing is said once: the player's choice and the best with what each expects (the best
    left out when it is the player's), the cost of a miss."""

    note: str
    """What the comparison does not say by itself: that a choice other than the best listed
    is just as good (else empty)."""
    best: str
    best_expected: str
    yours: str
    yours_expected: str
    loss: str
    is_best: bool
    same: bool
    """The player's choice is the best one listed (the other of two equal dice included)."""
    schedule: str
    played: str
    """For the player's own position: what they chose in their game, and what it cost."""


def _schedule(row: TrainingPosition, *, best: bool, today: date, zone: tzinfo) -> str:
    if row.learned_at is not None:
        if row.source == Source.SET and row.wrong == 0 and row.right == 1:
            return "Learned at first sight: this position does not come back."
        return "Learned: best again after its longest wait, so it does not come back."
    when = spacing.in_words(timezone.localdate(row.due_at, zone), today)
    if best:
        return f"Right: it comes back {when}, to make sure it stays learned."
    return f"Missed: it comes back {when}."


def verdict(
    row: TrainingPosition,
    decision: strategy.Decision,
    *,
    played: strategy.Decision | None,
    today: date,
    zone: tzinfo,
) -> Verdict:
    """``decision`` (the answer just graded, or the latest) in words; ``played`` the player's
    choice in their own game, graded the same way."""
    best, yours = decision.best, decision.choice
    # The other of two equal dice is the same choice.
    same = decision.is_best and (
        yours.action == best.action or yours.description == best.description
    )
    note = ""
    if decision.is_best and not same:
        note = "Just as good: yours and the best expect the same."
    in_game = ""
    if played is not None and row.seat is not None:
        finished = row.seat.game.finished_at
        day = f" of {timezone.localdate(finished, zone):%-d %B}" if finished else ""
        in_game = (
            f"In your game{day} you chose: {_lower_first(played.choice.description)}"
            f" — {points(played.loss)} less than the best."
        )
    return Verdict(
        note=note,
        best=best.description,
        best_expected=f"{best.expected:.1f}",
        yours=yours.description,
        yours_expected=f"{yours.expected:.1f}",
        loss=points(decision.loss),
        is_best=decision.is_best,
        same=same,
        schedule=_schedule(row, best=decision.is_best, today=today, zone=zone),
        played=in_game,
    )


def _box(option: strategy.Option) -> tuple[str, int] | None:
    action = option.action
    if isinstance(action, strategy.ScoreBox):
        return action.box.value, option.points or 0
    return None


def _held(option: strategy.Option) -> rules.Held | None:
    action = option.action
    return tuple(action.held) if isinstance(action, strategy.RollDice) else None


def source_line(row: TrainingPosition, zone: tzinfo) -> str:
    if row.source == Source.SET:
        return "An instructive position"
    finished = row.seat.game.finished_at if row.seat is not None else None
    if finished is None:
        return "From one of your games"
    return f"From your game of {timezone.localdate(finished, zone):%-d %B %Y}"


def when(standing: Standing, today: date, zone: tzinfo) -> str:
    """When the first position waiting comes back ("tomorrow"), or "" if none waits."""
    if standing.next_due is None:
        return ""
    return spacing.in_words(timezone.localdate(standing.next_due, zone), today)


def page_context(
    row: TrainingPosition,
    *,
    now: datetime,
    zone: tzinfo,
    tally: Tally,
    standing: Standing,
    decision: strategy.Decision | None = None,
    played: strategy.Decision | None = None,
    message: str = "",
) -> dict[str, Any]:
    """The page of ``row``: its question, or (given the ``decision`` graded) its verdict."""
    position = Position.from_json(row.position)
    sheet, turn = position.sheet, position.turn
    today = timezone.localdate(now, zone)
    answered = decision is not None
    if decision is None:
        offers = rules.legal_moves(rules.CLASSIC, position.dice, sheet.cards)
    else:  # the boxes the answer and the best choice take, with their points
        marked = filter(None, (_box(decision.best), _box(decision.choice)))
        offers = {(0, box): pts for box, pts in marked}
    upper, lower = card_rows(sheet, offers, rolled=not answered)
    totals = sheet.totals()["columns"][0]
    subtotal = totals["upper_subtotal"]
    context: dict[str, Any] = {
        "row": row,
        "answered": answered,
        "message": message,
        "source": source_line(row, zone),
        "theme": row.theme,
        "turn_number": position.turn_number,
        "rolls_used": position.rolls_used,
        "rolls_left": turn.rolls_left,
        "rows_upper": upper,
        "rows_lower": lower,
        "totals": totals,
        "upper_needed": max(0, rules.UPPER_BONUS_THRESHOLD - subtotal),
        "upper_progress": min(subtotal, rules.UPPER_BONUS_THRESHOLD),
        "upper_done": all(box in sheet.cards[0] for box in rules.UPPER),
        "yahtzee_bonuses": sheet.yahtzee_bonuses,
        "grand_total": sheet.grand_total,
        "limits": LIMITS,
        "dice": tray_dice(turn),
        "joker": rules.joker_applies(position.dice, sheet.cards[0]),
        "bonus_ahead": rules.yahtzee_bonus(position.dice, sheet.cards[0]) > 0,
        "tally": tally,
        "tally_lost": f"{tally.lost:.1f}",
        "standing": standing,
        "next_due": when(standing, today, zone),
    }
    if decision is not None:
        chosen_box, best_box = _box(decision.choice), _box(decision.best)
        chosen_held, best_held = _held(decision.choice), _held(decision.best)
        context |= {
            "verdict": verdict(row, decision, played=played, today=today, zone=zone),
            "chosen_box": chosen_box[0] if chosen_box else "",
            "best_box": best_box[0] if best_box else "",
            "chosen_tray": list(zip(position.dice, chosen_held or rules.NO_HOLD, strict=True)),
            "best_tray": list(zip(position.dice, best_held or rules.NO_HOLD, strict=True)),
        }
    return context


def last_answer(row: TrainingPosition) -> strategy.Action | None:
    return action_from_json(row.last_answer) if row.last_answer else None


def played_action(row: TrainingPosition) -> strategy.Action | None:
    return action_from_json(row.played) if row.played else None
