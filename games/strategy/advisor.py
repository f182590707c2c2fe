"""Turn-level advice: for the dice on the table and the rolls left, every move ranked by the
final score it is expected to lead to, the best one first, in words a player reads.

Classic and Yatzy solitaire advice is exact: an advisor reads one kind's solved table. Triple
Yahtzee (over the Classic table) and games with other players get a stated heuristic: each
column is valued as if it were a Classic game of its own (weighted by its multiplier), and the
aim is one's own expected score, not the chance of winning.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from itertools import product
from typing import Final

import numpy as np

from games.rules.boxes import CATEGORIES, UPPER, Box
from games.rules.dice import DICE_COUNT, FACES, NO_HOLD, Dice, Held
from games.rules.scoring import (
    CLASSIC,
    TRIPLE,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_POINTS,
    YATZY,
    Card,
    GameKind,
    legal_moves,
    yahtzee_bonus,
)
from games.rules.turn import Sheet, Turn
from games.strategy import yatzy
from games.strategy.dice import (
    KEEP_COUNTS,
    KEEP_INDEX,
    KEEPS,
    ROLL_COUNT,
    FloatArray,
    Keep,
    best_keeps,
    keep_values,
)
from games.strategy.scores import BIT, BOX_INDEX, SCORES
from games.strategy.solver import TurnValues, score_values, turn_values
from games.strategy.states import UPPER_CAP, Convention, State, index_array
from games.strategy.table import StrategyTable


@dataclass(frozen=True)
class RollDice:
    """Hold these dice (one flag per die, in table order) and roll the others."""

    held: Held


@dataclass(frozen=True)
class ScoreBox:
    """Score the dice on the table in ``box`` of ``column``."""

    column: int
    box: Box


Action = RollDice | ScoreBox


@dataclass(frozen=True)
class Option:
    """One move and the final score it is expected to lead to."""

    action: Action
    expected: float
    description: str
    points: int | None = None
    """For a box: the points it scores now (a Yahtzee bonus not included)."""


@dataclass(frozen=True)
class Hint:
    """The best move, the next ones in order, and whether the ranking is exact."""

    best: Option
    alternatives: tuple[Option, ...]
    explanation: str
    exact: bool

    @property
    def options(self) -> tuple[Option, ...]:
        return (self.best, *self.alternatives)


_NUMBER_WORDS: Final = ("no", "one", "two", "three", "four", "five")


def describe_keep(keep: Keep) -> str:
    """ "Hold the three 4s", "Hold 2, 3, 4 and 5", "Roll all five dice"."""
    if not keep:
        return "Roll all five dice"
    if len(set(keep)) == 1:
        if len(keep) == 1:
            return f"Hold the {keep[0]}"
        return f"Hold the {_NUMBER_WORDS[len(keep)]} {keep[0]}s"
    faces = [str(d) for d in keep]
    return f"Hold {', '.join(faces[:-1])} and {faces[-1]}"


def describe_box(box: Box, points: int, column: int, columns: int) -> str:
    where = f" of column {column + 1}" if columns > 1 else ""
    return f"Score {points} in {box.label}{where}"


def held_for(keep: Keep, dice: Dice, held: Held = NO_HOLD) -> Held:
    """Which dice on the table to hold to keep ``keep``: dice held already first, then from the
    left, so a hint moves as few dice as it can."""
    wanted = list(keep)
    chosen = [False] * DICE_COUNT
    order = sorted(range(DICE_COUNT), key=lambda i: (not held[i], i))
    for i in order:
        if dice[i] in wanted:
            wanted.remove(dice[i])
            chosen[i] = True
    return tuple(chosen)


def _sub_keeps(roll: int) -> tuple[int, ...]:
    counts = KEEP_COUNTS[roll]
    found = []
    for sub in product(*(range(c + 1) for c in counts.tolist())):
        keep = tuple(
            face for face, n in zip(range(1, FACES + 1), sub, strict=True) for _ in range(n)
        )
        found.append(KEEP_INDEX[keep])
    return tuple(found)


SUB_KEEPS: Final = tuple(_sub_keeps(r) for r in range(ROLL_COUNT))
"""``SUB_KEEPS[roll]``: every keep a roll allows, itself included."""
_SMALLER_KEEPS: Final = tuple(
    np.array([k for k in keeps if k != roll], dtype=np.int64)
    for roll, keeps in enumerate(SUB_KEEPS)
)


class Advisor:
    """Ranks the moves of a turn by expected final score, reading a solved table."""

    def __init__(self, table: StrategyTable, *, cache_size: int = 256) -> None:
        if table.convention is not Convention.FORCED:
            raise ValueError("Hints follow RULES.md: they need the forced-Joker table.")
        self.table = table
        self.kind = table.kind
        """The kind the table solves exactly (Classic's advises Triple by a heuristic too)."""
        self._values: FloatArray = np.asarray(table.values)
        self._cache: OrderedDict[tuple[int, ...], FloatArray | TurnValues] = OrderedDict()
        self._cache_size = cache_size

    # --- values -------------------------------------------------------------------------

    def advises(self, kind: GameKind) -> bool:
        """Whether this advisor's table can rank a ``kind``'s moves: exactly its own kind, or
        Triple by the Classic table's heuristic."""
        return kind is self.kind or (self.kind is CLASSIC and kind is TRIPLE)

    def _check(self, sheet: Sheet) -> None:
        if not self.advises(sheet.kind):
            raise ValueError(f"The {self.kind.name} table cannot advise {sheet.kind.name}.")

    def _index(self, card: Card) -> int:
        if self.kind is YATZY:
            return yatzy.state_index(card)
        return State.of_card(card).index

    def future(self, card: Card) -> float:
        """The expected points still to come for a card of the table's kind (a column of a
        Classic one for Triple) at the start of a turn."""
        return float(self._values[self._index(card)])

    def _turn(self, card: Card) -> TurnValues:
        index = self._index(card)
        key = (index,)
        found = self._cache.get(key)
        if isinstance(found, TurnValues):
            self._cache.move_to_end(key)
            return found
        if self.kind is YATZY:
            mask, upper = np.array([index >> 6]), np.array([index & 63])
            squeezed = turn_values(yatzy.score_values(self._values, mask, upper)[:, 0])
        else:
            state = State.of_card(card)
            flag = np.array([int(state.yahtzee50)])
            one = np.array([state.mask]), np.array([state.upper]), flag
            squeezed = turn_values(score_values(self._values, *one, Convention.FORCED)[:, 0])
        self._remember(key, squeezed)
        return squeezed

    def _remember(self, key: tuple[int, ...], value: FloatArray | TurnValues) -> None:
        self._cache[key] = value
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def _box_gain(self, card: Card, box: Box, points: int, dice: Dice) -> float:
        """Points of scoring ``box`` now (bonuses included) plus the expected points after."""
        if self.kind is YATZY:
            after_card = {**card, box: points}
            before = yatzy.state_index(card) & 63
            now = before + points if box.is_upper else before
            bonus = YATZY.upper_bonus if before < UPPER_BONUS_THRESHOLD <= now else 0
            after_value = 0.0 if len(after_card) == len(YATZY.boxes) else self.future(after_card)
            return points + bonus + after_value
        state = State.of_card(card)
        upper, bonus = state.upper, yahtzee_bonus(dice, card)
        if box in UPPER:
            if upper < UPPER_BONUS_THRESHOLD <= upper + points:
                bonus += UPPER_BONUS
            upper = min(upper + points, UPPER_CAP)
        fifty = state.yahtzee50 or (box is Box.YAHTZEE and points == YAHTZEE_POINTS)
        after = self._values[((state.mask | BIT[box]) << 7) | (upper << 1) | int(fifty)]
        return points + bonus + float(after)

    def _triple_roll_values(self, sheet: Sheet) -> FloatArray:
        """``[roll]``: the heuristic gain of the best (column, box) for each final roll."""
        key = (-1, *(State.of_card(card).index for card in sheet.cards))
        found = self._cache.get(key)
        if isinstance(found, np.ndarray):
            return found
        best = np.full(ROLL_COUNT, -np.inf)
        for card, weight in zip(sheet.cards, sheet.kind.multipliers, strict=True):
            state = State.of_card(card)
            now = self._values[state.index]
            for box in CATEGORIES:
                if not state.is_open(box):
                    continue
                points = SCORES[:, BOX_INDEX[box]]
                upper, bonus = np.full(ROLL_COUNT, state.upper), np.zeros(ROLL_COUNT)
                if box in UPPER:
                    upper = upper + points
                    bonus = np.where(
                        (state.upper < UPPER_CAP) & (upper >= UPPER_CAP), UPPER_BONUS, 0
                    )
                fifty = np.full(ROLL_COUNT, int(state.yahtzee50))
                if box is Box.YAHTZEE:
                    fifty = (points == 50).astype(np.int64)
                after = self._values[
                    index_array(
                        np.full(ROLL_COUNT, state.mask | BIT[box]),
                        np.minimum(upper, UPPER_CAP),
                        fifty,
                    )
                ]
                np.maximum(best, weight * (points + bonus + after - now), out=best)
        self._remember(key, best)
        return best

    # --- options ------------------------------------------------------------------------

    def options(self, sheet: Sheet, turn: Turn) -> list[Option]:
        """Every move open now, best first (holding all five dice is left out: it is the same
        as scoring now, one roll later)."""
        self._check(sheet)
        if sheet.is_complete:
            return []
        base = self._baseline(sheet)
        if turn.dice is None:
            return [Option(RollDice(NO_HOLD), base, "Roll the dice")]
        dice = turn.dice
        roll = KEEP_INDEX[tuple(sorted(dice))]
        found = [
            Option(
                ScoreBox(column, Box(box)),
                base + self._score_gain(sheet, column, Box(box), points, dice),
                describe_box(Box(box), points, column, sheet.kind.columns),
                points,
            )
            for (column, box), points in legal_moves(sheet.kind, dice, sheet.cards).items()
        ]
        if turn.rolls_left > 0:
            keeps = self._keep_values(sheet, turn.rolls_left)
            for k in SUB_KEEPS[roll]:
                if k != roll:
                    found.append(
                        Option(
                            RollDice(held_for(KEEPS[k], dice, turn.held)),
                            base + float(keeps[k]),
                            describe_keep(KEEPS[k]),
                        )
                    )
        found.sort(key=lambda o: -o.expected)
        return found

    def best_action(self, sheet: Sheet, turn: Turn) -> Action:
        """The first of ``options`` without building them all (for bots and simulations)."""
        self._check(sheet)
        if turn.dice is None:
            return RollDice(NO_HOLD)
        dice = turn.dice
        gain, column, box = max(
            (
                (self._score_gain(sheet, column, Box(box), points, dice), column, box)
                for (column, box), points in legal_moves(sheet.kind, dice, sheet.cards).items()
            ),
            key=lambda choice: choice[0],
        )
        if turn.rolls_left > 0:
            keeps = self._keep_values(sheet, turn.rolls_left)
            subs = _SMALLER_KEEPS[KEEP_INDEX[tuple(sorted(dice))]]
            k = int(subs[np.argmax(keeps[subs])])
            if keeps[k] > gain:
                return RollDice(held_for(KEEPS[k], dice, turn.held))
        return ScoreBox(column, Box(box))

    def _baseline(self, sheet: Sheet) -> float:
        """The expected final score from the start of this turn (the heuristic's estimate for
        Triple)."""
        if sheet.kind is self.kind:
            return sheet.grand_total + self.future(sheet.cards[0])
        return sheet.grand_total + sum(
            w * self.future(c) for c, w in zip(sheet.cards, sheet.kind.multipliers, strict=True)
        )

    def _score_gain(self, sheet: Sheet, column: int, box: Box, points: int, dice: Dice) -> float:
        card = sheet.cards[column]
        gain = self._box_gain(card, box, points, dice) - self.future(card)
        if sheet.kind is self.kind:
            return float(gain)
        # Triple: no Yahtzee bonus; the column's weight multiplies what it scores.
        gain -= yahtzee_bonus(dice, card)
        return float(sheet.kind.multipliers[column] * gain)

    def _keep_values(self, sheet: Sheet, rolls_left: int) -> FloatArray:
        """``[keep]``: the expected gain over the turn's baseline of keeping it and rolling."""
        if sheet.kind is self.kind:
            card = sheet.cards[0]
            values = self._turn(card)
            now = self.future(card)
            stage = values.keep_last if rolls_left == 1 else values.keep_second
            return stage - now
        key = (-2, rolls_left, *(State.of_card(card).index for card in sheet.cards))
        found = self._cache.get(key)
        if isinstance(found, np.ndarray):
            return found
        keeps = keep_values(self._triple_roll_values(sheet))
        if rolls_left == 2:
            keeps = keep_values(best_keeps(keeps)[:ROLL_COUNT].copy())
        self._remember(key, keeps)
        return keeps

    def value_of(self, sheet: Sheet, turn: Turn, action: Action) -> Option:
        """Any legal move as an ``Option`` (holding all five dice and rolling included)."""
        self._check(sheet)
        if isinstance(action, ScoreBox):
            for option in self.options(sheet, turn):
                if option.action == action:
                    return option
            raise ValueError(f"{action.box.label} cannot be scored now")
        if turn.dice is None:
            return Option(RollDice(NO_HOLD), self._baseline(sheet), "Roll the dice")
        keep = tuple(sorted(d for d, h in zip(turn.dice, action.held, strict=True) if h))
        keeps = self._keep_values(sheet, turn.rolls_left)
        return Option(
            action,
            self._baseline(sheet) + float(keeps[KEEP_INDEX[keep]]),
            describe_keep(keep) if len(keep) < DICE_COUNT else "Hold all five dice and roll",
        )

    def hint(self, sheet: Sheet, turn: Turn, *, players: int = 1, alternatives: int = 3) -> Hint:
        """The best move now, the next ``alternatives`` moves, and a sentence saying why."""
        ranked = self.options(sheet, turn)
        if not ranked:
            raise ValueError("The game is over: there is nothing left to advise.")
        best, rest = ranked[0], tuple(ranked[1 : 1 + alternatives])
        exact = sheet.kind is self.kind and players == 1
        caveat = ""
        if sheet.kind is not self.kind:
            caveat = "an estimate: each column is valued as a Classic game of its own"
        elif players > 1:
            caveat = "exact for your own score; against others, winning may call for more risk"
        sentence = explain(best, rest[0] if rest else None, caveat=caveat)
        return Hint(best, rest, sentence, exact)


def explain(best: Option, runner_up: Option | None, *, caveat: str = "") -> str:
    """One sentence: "Hold the three 4s: expect 261.5 at the end; score 12 in Fours instead:
    ...". A ``caveat`` says in brackets why the figures are not exact."""
    sentence = f"{best.description}: expect {best.expected:.1f} at the end"
    if runner_up is not None:
        other = runner_up.description
        sentence += f"; {other[0].lower()}{other[1:]} instead: {runner_up.expected:.1f}"
    if caveat:
        sentence += f" ({caveat})"
    return sentence + "."
