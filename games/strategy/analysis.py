"""Post-game analysis: a finished game replayed through ``games.rules``, each decision (every
hold and every box) set beside the best one, with the expected points it cost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.rules.boxes import Box
from games.rules.dice import NO_HOLD, Dice, DiceSource, Held
from games.rules.errors import IllegalMove
from games.rules.scoring import CLASSIC, GameKind
from games.rules.turn import Sheet, Turn, hold, roll, score, verify_hold, verify_score
from games.strategy.advisor import Advisor, Option, RollDice, ScoreBox


class RecordError(ValueError):
    """The record is not a game the rules allow (or its dice do not follow from its holds)."""


@dataclass(frozen=True)
class TurnRecord:
    """One turn as it was played: the dice after each roll, the dice held before each re-roll
    (one fewer than the rolls), and the box scored."""

    rolls: Sequence[Dice]
    holds: Sequence[Held]
    box: str
    column: int = 0


@dataclass(frozen=True)
class GameRecord:
    turns: Sequence[TurnRecord]
    kind: GameKind = CLASSIC


@dataclass(frozen=True)
class Decision:
    """One choice: after roll ``roll_number`` of turn ``turn_number`` (both from 1)."""

    turn_number: int
    roll_number: int
    dice: Dice
    choice: Option
    best: Option
    sheet: Sheet
    """The card as it stood when the choice was made (a replay draws it)."""

    @property
    def loss(self) -> float:
        """The expected points this choice gave away against the best (0 when it was best)."""
        return max(0.0, self.best.expected - self.choice.expected)

    @property
    def is_best(self) -> bool:
        return self.loss < 1e-9


@dataclass(frozen=True)
class Analysis:
    decisions: tuple[Decision, ...]
    start: float
    """The expected final score of the game at its start (perfect play from there)."""
    final_score: int
    exact: bool
    path: tuple[float, ...] = field(default=())
    """The expected final score after each decision, for a chart."""

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def accuracy(self) -> float:
        """This game's accuracy (``accuracy``): 100 when every decision was the best."""
        return accuracy(self.total_loss, self.start)

    def costliest(self, n: int = 3) -> list[Decision]:
        return sorted((d for d in self.decisions if not d.is_best), key=lambda d: -d.loss)[:n]


def accuracy(total_loss: float, start: float) -> float:
    """The share of the expected points a player's decisions kept, from 0 to 100:
    100 × (1 − expected points lost ÷ expected final score of best play from the start),
    clipped to 0..100, to one decimal. Each decision's loss is what it cost in expected final
    score against the best move on the dice the player saw, so 100 means perfect play on
    those dice, whatever they were. The site's one definition of accuracy."""
    kept = 1 - total_loss / start if start > 0 else 0.0
    return round(100 * min(1.0, max(0.0, kept)), 1)


def analyse(advisor: Advisor, record: GameRecord, *, players: int = 1) -> Analysis:
    """Replay ``record`` and grade each decision; exact for a solitaire game of the advisor's
    own kind (Classic, Yatzy)."""
    sheet = Sheet(kind=record.kind)
    start = advisor.value_of(sheet, Turn(), RollDice(NO_HOLD)).expected
    decisions: list[Decision] = []
    path = [start]
    try:
        for number, played in enumerate(record.turns, start=1):
            if not 1 <= len(played.rolls) <= 3 or len(played.holds) != len(played.rolls) - 1:
                raise RecordError(f"Turn {number}: 1 to 3 rolls, and a hold before each re-roll.")
            turn = Turn()
            for i, dice in enumerate(played.rolls):
                if i:
                    held = tuple(played.holds[i - 1])
                    verify_hold(turn, held)
                    decisions.append(grade(advisor, sheet, turn, RollDice(held), number))
                    choice = decisions[-1].choice
                    path.append(choice.expected)
                    turn = hold(turn, held)
                fresh = _fresh_dice(turn, tuple(dice), number)
                turn, _ = roll(turn, _thrown(fresh))
            verify_score(sheet, turn, played.box, played.column)
            action = ScoreBox(played.column, Box(played.box))
            decisions.append(grade(advisor, sheet, turn, action, number))
            choice = decisions[-1].choice
            path.append(choice.expected)
            sheet, _ = score(sheet, turn, played.box, played.column)
    except IllegalMove as exc:
        raise RecordError(str(exc)) from exc
    exact = record.kind is advisor.kind and players == 1
    return Analysis(tuple(decisions), start, sheet.grand_total, exact, tuple(path))


def _thrown(fresh: tuple[int, ...]) -> DiceSource:
    """The recorded dice, handed to ``games.rules.roll`` as what the throw gave."""
    return lambda n: fresh


def _fresh_dice(turn: Turn, dice: Dice, number: int) -> tuple[int, ...]:
    """The dice a roll threw, checked against the ones held through it."""
    if turn.dice is None:
        return dice
    if any(h and old != new for h, old, new in zip(turn.held, turn.dice, dice, strict=True)):
        raise RecordError(f"Turn {number}: a held die changed its value.")
    return tuple(new for h, new in zip(turn.held, dice, strict=True) if not h)


def grade(
    advisor: Advisor,
    sheet: Sheet,
    turn: Turn,
    action: RollDice | ScoreBox,
    number: int = 0,
    *,
    ranked: Sequence[Option] | None = None,
) -> Decision:
    """One decision (``action`` on ``sheet`` with ``turn`` on the table, in turn ``number``)
    beside the best one, with what it cost: the analysis' grading, and the coach's. ``ranked``:
    the advisor's ``options`` for this position, when the caller has them already."""
    assert turn.dice is not None
    if ranked is None:
        ranked = advisor.options(sheet, turn)
    choice = next((o for o in ranked if o.action == action), None)
    if choice is None:  # a hold the ranking spells another way, or all five dice held
        choice = advisor.value_of(sheet, turn, action)
    return Decision(number, turn.rolls_used, turn.dice, choice, ranked[0], sheet)
