"""A finished card replayed step by step, as the replay and analysis pages show it: every
decision the analysis grades (``strategy.analyse`` over ``game_record``, nothing graded twice)
with its dice (and the turn's rolls before them), the hold or box chosen, the best choice, what
it cost, and the card as it stood.

Worked out once per seat and kept in the cache as plain values: a finished game never changes,
and the grading is dear (about 50 ms of processor time for a Triple game of four), so the pages
that show it, asked again and again (a visitor stepping through a top-ten game, a player
reloading their analysis from four tabs), cost a cache read. The cache bounds what it keeps
(LocMem culls past its entries, Redis its memory; each entry lasts a day at most).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.core.cache import cache

from games import advice, rules, store, strategy
from games.models import GameStatus, Seat
from games.review.selectors import NoRecord, game_record

FORMAT = 2
"""Part of the cache key: a change to the values below changes it, so no worker reads another
version's pickles."""

KEEP_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Cell:
    """One column of a box's row: the points filled, or those the step's choice (``chosen``)
    or the best choice (``best``) would score there."""

    text: str
    chosen: bool = False
    best: bool = False


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple[Cell, ...]
    total: bool = False


@dataclass(frozen=True)
class RollSeen:
    """A roll of the turn before the step's own: its dice, and those kept for the next roll."""

    number: int
    dice: tuple[int, ...]
    kept: tuple[bool, ...]

    @property
    def tray(self) -> list[tuple[int, bool]]:
        return list(zip(self.dice, self.kept, strict=True))

    @property
    def kept_words(self) -> str:
        """ "kept 6 and 6", "kept none"."""
        kept = [str(d) for d, k in self.tray if k]
        if not kept:
            return "kept none"
        return "kept " + (", ".join(kept[:-1]) + " and " if len(kept) > 1 else "") + kept[-1]


@dataclass(frozen=True)
class Step:
    """One decision: after roll ``roll`` of turn ``turn``, the player chose ``choice``
    (holding ``held``, or scoring ``box``); ``best`` was the best, ``loss`` what the choice
    cost in expected final points."""

    number: int
    turn: int
    roll: int
    dice: tuple[int, ...]
    held: tuple[bool, ...]
    best_held: tuple[bool, ...] | None
    """The dice the best choice holds; ``None`` when the best was to score now."""
    choice: str
    best: str
    choice_expected: float
    best_expected: float
    loss: float
    is_best: bool
    lost_before: float
    """Expected points the earlier decisions gave away."""
    rows: tuple[Row, ...]
    rolls_before: tuple[RollSeen, ...] = ()
    """The turn's rolls before this step's dice (none after its first roll)."""

    @property
    def tray(self) -> list[tuple[int, bool]]:
        """Each die on the table and whether the choice holds it."""
        return list(zip(self.dice, self.held, strict=True))

    @property
    def best_tray(self) -> list[tuple[int, bool]]:
        """Each die and whether the best choice holds it (none when the best was a box, or the
        choice itself)."""
        if self.best_held is None or self.is_best:
            return []
        return list(zip(self.dice, self.best_held, strict=True))


@dataclass(frozen=True)
class Replay:
    """A seat's whole game: the summary, the steps, and the card at the end."""

    name: str
    kind_name: str
    columns: int
    players: int
    final_score: int
    final_rows: tuple[Row, ...]
    steps: tuple[Step, ...] = ()
    turns: int = 0
    exact: bool = True
    start: float = 0.0
    total_loss: float = 0.0
    best_count: int = 0
    message: str = ""
    """Why this card has no steps (a log that does not replay, a skipped turn)."""
    path: tuple[float, ...] = ()
    """The expected final score at the start and after each decision (the analysis's chart)."""

    @property
    def accuracy(self) -> float:
        """The game's accuracy (``strategy.accuracy``)."""
        return strategy.accuracy(self.total_loss, self.start)

    def turn_starts(self) -> list[tuple[int, int, bool]]:
        """(turn, its first step, whether every decision of it was the best), for a turn index."""
        starts: dict[int, tuple[int, bool]] = {}
        for step in self.steps:
            first, clean = starts.get(step.turn, (step.number, True))
            starts[step.turn] = (first, clean and step.is_best)
        return [(turn, first, clean) for turn, (first, clean) in starts.items()]

    def costliest(self, n: int) -> list[Step]:
        """The ``n`` decisions that cost most, the costliest first."""
        return sorted((s for s in self.steps if not s.is_best), key=lambda s: -s.loss)[:n]


def replay_of(seat: Seat, *, players: int | None = None) -> Replay:
    """``seat``'s game, step by step, in a game of ``players`` seats (counted when not given).
    A finished game's is kept per game, seat and game version; a game still in play is worked
    out afresh each time (it changes with every move)."""
    if seat.game.status != GameStatus.FINISHED:
        return _replay(seat, players=players)
    key = f"replay:{FORMAT}:{seat.game_id}:{seat.pk}:{seat.game.version}"
    found: Replay | None = cache.get(key)
    if found is None:
        found = _replay(seat, players=players)
        cache.set(key, found, timeout=KEEP_SECONDS)
    return found


def final_sheet(seat: Seat) -> rules.Sheet:
    """The card as the game ended, as the store kept it."""
    return store.match_of(seat.game).sheets[seat.position]


def _replay(seat: Seat, *, players: int | None) -> Replay:
    if players is None:
        players = Seat.objects.filter(game_id=seat.game_id).count()
    kind = seat.game.rules_kind
    end = final_sheet(seat)
    summary = Replay(
        name=seat.display_name,
        kind_name=kind.name,
        columns=kind.columns,
        players=players,
        final_score=seat.grand_total if seat.grand_total is not None else end.grand_total,
        final_rows=card_rows(end),
    )
    try:
        record = game_record(seat)
        found = strategy.analyse(advice.advisor(record.kind), record, players=players)
    except (NoRecord, strategy.RecordError) as exc:
        return replace(summary, message=str(exc))
    if not record.turns:  # a result entered without its moves (an import, a test's fixture)
        return replace(summary, message="This game's log holds no moves: it cannot be replayed.")
    steps, lost = [], 0.0
    for number, decision in enumerate(found.decisions, start=1):
        played = record.turns[decision.turn_number - 1]
        steps.append(_step(number, decision, lost, _rolls_before(decision, played)))
        lost += decision.loss
    return replace(
        summary,
        steps=tuple(steps),
        turns=len(record.turns),
        exact=found.exact,
        start=found.start,
        total_loss=found.total_loss,
        best_count=sum(1 for d in found.decisions if d.is_best),
        path=found.path,
    )


def _step(
    number: int,
    decision: strategy.Decision,
    lost_before: float,
    rolls_before: tuple[RollSeen, ...],
) -> Step:
    choice, best = decision.choice, decision.best
    return Step(
        number=number,
        turn=decision.turn_number,
        roll=decision.roll_number,
        dice=tuple(decision.dice),
        held=_held(choice.action),
        best_held=tuple(best.action.held) if isinstance(best.action, strategy.RollDice) else None,
        choice=choice.description,
        best=best.description,
        choice_expected=choice.expected,
        best_expected=best.expected,
        loss=decision.loss,
        is_best=decision.is_best,
        lost_before=lost_before,
        rows=card_rows(decision.sheet, chosen=choice, best=best),
        rolls_before=rolls_before,
    )


def _rolls_before(decision: strategy.Decision, played: strategy.TurnRecord) -> tuple[RollSeen, ...]:
    """The rolls of ``played`` (the decision's turn) before the decision's own, each with the
    dice held into the next."""
    return tuple(
        RollSeen(number, tuple(played.rolls[number - 1]), tuple(played.holds[number - 1]))
        for number in range(1, decision.roll_number)
    )


def _held(action: strategy.Action) -> tuple[bool, ...]:
    if isinstance(action, strategy.RollDice):
        return tuple(action.held)
    return (False,) * rules.DICE_COUNT


def _slot(option: strategy.Option | None) -> tuple[int, rules.Box, int] | None:
    if option is None or not isinstance(option.action, strategy.ScoreBox):
        return None
    return option.action.column, option.action.box, option.points or 0


def card_rows(
    sheet: rules.Sheet,
    *,
    chosen: strategy.Option | None = None,
    best: strategy.Option | None = None,
) -> tuple[Row, ...]:
    """The card's rows (a cell per column), then its totals; a box the step's choice or the
    best choice would fill shows the points it would score there."""
    marks = {slot[:2]: slot[2] for slot in (_slot(best), _slot(chosen)) if slot}
    chosen_slot, best_slot = _slot(chosen), _slot(best)
    rows = []
    for box in sheet.kind.boxes:
        cells = []
        for column, card in enumerate(sheet.cards):
            filled = card.get(box)
            here = (column, box)
            is_chosen = chosen_slot is not None and chosen_slot[:2] == here
            is_best = best_slot is not None and best_slot[:2] == here
            text = str(filled) if filled is not None else ""
            if filled is None and here in marks:
                text = str(marks[here])
            cells.append(Cell(text, chosen=is_chosen, best=is_best))
        rows.append(Row(box.label, tuple(cells)))
    totals = sheet.totals()
    rows.append(_total_row("Upper bonus", [c["upper_bonus"] for c in totals["columns"]]))
    if len(sheet.cards) > 1:  # Triple: each column's own total, before its weight
        rows.append(_total_row("Column total", [c["grand_total"] for c in totals["columns"]]))
    if totals["yahtzee_bonus"]:
        rows.append(_total_row("Yahtzee bonus", [totals["yahtzee_bonus"]]))
    rows.append(_total_row("Total", [totals["grand_total"]]))
    return tuple(rows)


def _total_row(label: str, values: Sequence[int]) -> Row:
    return Row(label, tuple(Cell(str(v)) for v in values), total=True)
