"""A whole game as pure Python: every seat's sheet, who goes first, whose turn it is, undo,
resigning, skipping an idle seat, the end, and the log that replays it all.

Like ``Turn``, a ``Match`` is frozen and every action comes as a trio: ``verify_x`` raises an
``IllegalMove`` saying why not, ``can_x`` says yes or no, and ``x`` verifies, then returns the
new match and the event it appended to ``log``. Seats are numbered by their place at the table,
0 first. Dice come from a ``DiceSource`` passed in: a match never rolls by itself, and
``Match.replay`` rebuilds any match from its log alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Final, NamedTuple

from games.rules import actions
from games.rules.actions import Action, Player
from games.rules.boxes import CATEGORIES, Box
from games.rules.dice import DICE_COUNT, Dice, DiceSource, validate_dice
from games.rules.errors import (
    CannotSkip,
    MatchOver,
    NothingToUndo,
    NotHost,
    NotRolledYet,
    OutOfTurn,
    SeatResigned,
    UnknownSeat,
)
from games.rules.events import (
    Ended,
    FirstRoll,
    HeldDice,
    MatchEvent,
    Resigned,
    Rolled,
    Scored,
    Skipped,
    Started,
    Undone,
)
from games.rules.scoring import KINDS, GameKind, Slot
from games.rules.turn import Sheet, Turn, _can
from games.rules.turn import hold as hold_dice
from games.rules.turn import roll as roll_dice
from games.rules.turn import score as score_box
from games.rules.turn import verify_hold as verify_turn_hold
from games.rules.turn import verify_roll as verify_turn_roll
from games.rules.turn import verify_score as verify_turn_score

MAX_SEATS: Final = 6


class MatchPhase(StrEnum):
    ROLLING_FOR_FIRST = "rolling_for_first"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class SeatState(StrEnum):
    PLAYING = "playing"
    RESIGNED = "resigned"


class Standing(NamedTuple):
    seat: int
    total: int
    place: int
    """1 for the best total; equal totals share a place (1, 1, 3)."""


# --- The skip rule ----------------------------------------------------------------------------


def skipped_box(sheet: Sheet) -> Slot:
    """Where a skipped turn enters its zero: the open box that could have scored least.

    **Skipping an idle player.** When the player on turn has not acted within the time the host
    chose, any other player may skip them. A skipped turn scores a zero in the skipped player's
    open box with the lowest top score: Aces (5), Twos (10), Threes (15), Fours (20), Fives and
    Full House (25), Sixes, 3 and 4 of a Kind, Small Straight and Chance (30), Large Straight
    (40), YAHTZEE (50). In Triple Yahtzee the top score counts double in the second column and
    triple in the third. On a tie, the leftmost column, then the box higher on the card. Any
    dice on the table are put aside unscored. The skipped player keeps their seat and plays
    their next turn as usual.

    Why this rule: the game still ends after every box is filled, nobody chooses for the absent
    player, no dice are rolled for them, and it costs them as little as a zero can — yet waiting
    never pays, since they could always have entered that zero themselves.
    """
    open_slots = [
        (column, box)
        for column, card in enumerate(sheet.cards)
        for box in CATEGORIES
        if box not in card
    ]
    if not open_slots:
        raise ValueError("A full sheet has no box left to skip into.")

    def most_it_could_score(slot: tuple[int, Box]) -> tuple[int, int, int]:
        column, box = slot
        return box.best * sheet.kind.multipliers[column], column, box.position

    return min(open_slots, key=most_it_could_score)


def _with_zero(sheet: Sheet, slot: Slot) -> Sheet:
    column, box = slot
    cards = tuple({**c, box: 0} if i == column else dict(c) for i, c in enumerate(sheet.cards))
    return replace(sheet, cards=cards)


def _throw(values: Sequence[int]) -> DiceSource:
    """A dice source that hands out ``values`` (dice already thrown, read back from a log)."""

    def source(n: int) -> Sequence[int]:
        if n != len(values):
            raise ValueError(f"The log holds {len(values)} dice for a throw of {n}.")
        return values

    return source


# --- The match --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Match:
    """Every seat's sheet and state, who goes first, the seat on turn, its turn, and the log.

    ``current`` is the seat on turn while ``phase`` is ``PLAYING`` (``None`` before play and
    once finished; an abandoned match keeps the seat it stopped at). ``contenders`` and
    ``first_rolls`` are the draw for first: the seats still in it, and each seat's five dice in
    its latest round (``None`` for none). ``undo`` is the match as it was before the last
    scoring, while that scoring may still be taken back.

    ``players`` says who makes each seat's moves: the seat itself for a person, the host's seat
    for a guest at the host's screen, ``None`` for a computer player (empty: every seat plays
    itself). ``turn_limit`` is how long (seconds) a player may keep the game waiting before
    another may skip them (``None``: nobody is ever skipped).

    Make one with ``Match.start``, or rebuild one from its log with ``Match.replay``; play it
    with ``act``, which takes an action (``games.rules.actions``) from the person who asks.
    """

    kind: GameKind
    sheets: tuple[Sheet, ...]
    states: tuple[SeatState, ...]
    host: int = 0
    phase: MatchPhase = MatchPhase.PLAYING
    first: int | None = 0
    current: int | None = 0
    turn: Turn = field(default_factory=Turn)
    contenders: tuple[int, ...] = ()
    first_rolls: tuple[Dice | None, ...] = ()
    log: tuple[MatchEvent, ...] = ()
    undo: Match | None = field(default=None, repr=False)
    players: tuple[Player, ...] = ()
    turn_limit: int | None = None

    # --- Setting up and replaying -------------------------------------------------------------

    @classmethod
    def start(
        cls,
        kind: GameKind,
        seats: int,
        *,
        roll_for_first: bool = False,
        host: int = 0,
        players: Sequence[Player] = (),
        turn_limit: int | None = None,
        dice: DiceSource | None = None,
    ) -> Match:
        """A new match of ``seats`` players; they roll for first when asked and more than one
        plays, otherwise seat 0 begins and play passes on in seating order. With ``dice``, the
        computer players throw for first at once."""
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"A game seats 1 to {MAX_SEATS} players, not {seats}.")
        if not 0 <= host < seats:
            raise ValueError(f"The host must sit at the table (seat 0 to {seats - 1}).")
        players = tuple(players)
        if players and (
            len(players) != seats
            or any(p is not None and not (0 <= p < seats and players[p] == p) for p in players)
        ):
            raise ValueError("Each seat is played by a person seated at the table, or none.")
        if turn_limit is not None and turn_limit <= 0:
            raise ValueError("A turn limit is a number of seconds above zero.")
        match = cls(
            kind=kind,
            sheets=tuple(Sheet(kind=kind) for _ in range(seats)),
            states=(SeatState.PLAYING,) * seats,
            host=host,
            phase=MatchPhase.ROLLING_FOR_FIRST,
            first=None,
            current=None,
            contenders=tuple(range(seats)) if roll_for_first else (0,),
            first_rolls=(None,) * seats,
            log=(Started(kind.key, seats, roll_for_first, host, players, turn_limit),),
            players=players,
            turn_limit=turn_limit,
        )
        match = match._settle_first()
        return match._computers_throw(dice) if dice is not None else match

    @classmethod
    def replay(cls, log: Iterable[MatchEvent]) -> Match:
        """The match ``log`` records, rebuilt by playing every event again.

        Raises ``ValueError`` when the log does not start with ``Started``, and ``ValueError``
        (or the ``IllegalMove`` of the first move that breaks the rules) when it does not
        replay to itself.
        """
        events = iter(log)
        started = next(events, None)
        if not isinstance(started, Started):
            raise ValueError("A match's log starts with Started.")
        match = cls.start(
            KINDS[started.kind],
            started.seats,
            roll_for_first=started.roll_for_first,
            host=started.host,
            players=started.players,
            turn_limit=started.turn_limit,
        )
        for event in events:
            match = match.apply(event)
        return match

    def apply(self, event: MatchEvent) -> Match:
        """This match after ``event``, played again from a log; the event must come out equal."""
        new: Match
        match event:
            case FirstRoll(seat=seat, dice=dice):
                new, _ = self.roll_for_first(seat, _throw(dice))
            case Rolled(seat=seat, dice=dice, held=held):
                fresh = [die for die, kept in zip(dice, held, strict=True) if not kept]
                new, _ = self.roll(seat, _throw(fresh))
            case HeldDice(seat=seat, held=held):
                new, _ = self.hold(seat, held)
            case Scored(seat=seat, column=column, box=box):
                new, _ = self.score(seat, box, column)
            case Undone(seat=seat):
                new, _ = self.undo_scoring(seat)
            case Resigned(seat=seat):
                new, _ = self.resign(seat)
            case Skipped(seat=seat, by=by):
                new, _ = self.skip(seat, by=by)
            case Ended(by=by):
                new, _ = self.end(by)
            case Started():
                raise ValueError("Started comes only at the start of a log.")
        if new.log[-1] != event:
            raise ValueError(f"The log says {event!r} but the rules make it {new.log[-1]!r}.")
        return new

    # --- What the pages read ------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return len(self.sheets)

    @property
    def order(self) -> tuple[int, ...]:
        """Every seat in turn order: seating order from the seat that went first."""
        first = self.first or 0
        return tuple(range(first, self.seats)) + tuple(range(first))

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats still in the game (not resigned), in turn order."""
        return tuple(s for s in self.order if self.states[s] is SeatState.PLAYING)

    @property
    def on_turn(self) -> int | None:
        """The seat that may roll, hold or score now."""
        return self.current if self.phase is MatchPhase.PLAYING else None

    @property
    def round(self) -> int:
        """The round being played, 1 to the kind's rounds (every turn fills one box)."""
        if self.phase is MatchPhase.FINISHED:
            return self.kind.rounds
        if self.current is None:
            return 1
        return min(self.kind.rounds, self.sheets[self.current].boxes_filled + 1)

    @property
    def is_over(self) -> bool:
        return self.phase in (MatchPhase.FINISHED, MatchPhase.ABANDONED)

    def player_of(self, seat: int) -> Player:
        """Who makes ``seat``'s moves: a person's seat, or ``None`` for the computer."""
        return self.players[seat] if self.players else seat

    @property
    def computer_on_turn(self) -> bool:
        """Whether a computer player is to move now."""
        return self.on_turn is not None and self.player_of(self.on_turn) is None

    def seat_for(self, by: Player) -> int:
        """The seat ``by`` acts for now: the seat on turn when they play it (their own, or a
        guest's at their screen), else their own, which the turn's checks then refuse."""
        current = self.on_turn
        if current is not None and self.player_of(current) == by:
            return current
        if by is None:
            raise OutOfTurn("It is not a computer player's turn.")
        return by

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` has a move to make now: on turn, or still to throw for first."""
        if self.phase is MatchPhase.PLAYING:
            return self.current == seat
        if self.phase is MatchPhase.ROLLING_FOR_FIRST:
            return seat in self.contenders and self.first_rolls[seat] is None
        return False

    def standings(self) -> tuple[Standing, ...]:
        """The seats still in the game, best total first; equal totals share a place."""
        totals = [(s, self.sheets[s].grand_total) for s in self.playing]
        ranked = sorted(totals, key=lambda seat_total: -seat_total[1])
        return tuple(
            Standing(seat, total, 1 + sum(1 for _, other in totals if other > total))
            for seat, total in ranked
        )

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that share the win of a finished match."""
        if self.phase is not MatchPhase.FINISHED:
            return ()
        return tuple(standing.seat for standing in self.standings() if standing.place == 1)

    # --- Checks shared by the actions ---------------------------------------------------------

    def _verify_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise UnknownSeat(f"There is no seat {seat!r} at this game.")
        if self.phase is MatchPhase.FINISHED:
            raise MatchOver("The game is over.")
        if self.phase is MatchPhase.ABANDONED:
            raise MatchOver("The game was ended.")

    def _verify_playing(self, seat: int) -> None:
        self._verify_seat(seat)
        if self.states[seat] is SeatState.RESIGNED:
            raise SeatResigned("You have resigned from this game.")

    def _verify_on_turn(self, seat: int) -> None:
        self._verify_playing(seat)
        if self.phase is MatchPhase.ROLLING_FOR_FIRST:
            raise OutOfTurn("Everyone rolls for first before play begins.")
        if seat != self.current:
            raise OutOfTurn("It is not your turn.")

    def _logged(self, event: MatchEvent, **changes: Any) -> Match:
        """This match with ``event`` appended to its log and ``changes`` made."""
        return replace(self, log=(*self.log, event), **changes)

    # --- Roll for first -----------------------------------------------------------------------

    def verify_roll_for_first(self, seat: int) -> None:
        self._verify_playing(seat)
        if self.phase is not MatchPhase.ROLLING_FOR_FIRST:
            raise OutOfTurn("Who goes first is already decided.")
        if seat not in self.contenders:
            raise OutOfTurn("Only the players tied for the highest total roll again.")
        if self.first_rolls[seat] is not None:
            raise OutOfTurn("You have rolled for first: the others roll now.")

    def can_roll_for_first(self, seat: int) -> bool:
        return _can(lambda: self.verify_roll_for_first(seat))

    def roll_for_first(self, seat: int, source: DiceSource) -> tuple[Match, FirstRoll]:
        """Throw ``seat``'s five dice for first; when every contender has thrown, the highest
        total goes first and a tie sends the tied players to throw again."""
        self.verify_roll_for_first(seat)
        dice = validate_dice(source(DICE_COUNT))
        event = FirstRoll(seat, dice)
        rolls = tuple(dice if s == seat else d for s, d in enumerate(self.first_rolls))
        return self._logged(event, first_rolls=rolls)._settle_first(), event

    def _settle_first(self) -> Match:
        """Decide who goes first once the draw allows it, or start a round among the tied."""
        tied = self.contenders
        if len(tied) > 1:
            thrown = [(s, self.first_rolls[s]) for s in tied]
            totals = {s: sum(dice) for s, dice in thrown if dice is not None}
            if len(totals) < len(tied):
                return self
            tied = tuple(s for s in tied if totals[s] == max(totals.values()))
            if len(tied) > 1:
                return replace(self, contenders=tied, first_rolls=(None,) * self.seats)
        # One contender left: by the dice, or because the others left the draw.
        first = tied[0]
        return replace(self, phase=MatchPhase.PLAYING, first=first, current=first, contenders=())

    # --- Hold, roll, score --------------------------------------------------------------------

    def verify_hold(self, seat: int, held: Sequence[bool]) -> None:
        self._verify_on_turn(seat)
        verify_turn_hold(self.turn, held)

    def can_hold(self, seat: int, held: Sequence[bool]) -> bool:
        return _can(lambda: self.verify_hold(seat, held))

    def hold(self, seat: int, held: Sequence[bool]) -> tuple[Match, HeldDice]:
        self.verify_hold(seat, held)
        turn = hold_dice(self.turn, held)
        event = HeldDice(seat, turn.held)
        return self._logged(event, turn=turn), event

    def verify_roll(self, seat: int) -> None:
        self._verify_on_turn(seat)
        verify_turn_roll(self.turn)

    def can_roll(self, seat: int) -> bool:
        return _can(lambda: self.verify_roll(seat))

    def roll(self, seat: int, source: DiceSource) -> tuple[Match, Rolled]:
        """Throw the dice the seat on turn does not hold; it ends any chance to undo."""
        self.verify_roll(seat)
        turn, record = roll_dice(self.turn, source)
        event = Rolled(seat, record.dice, record.held, record.roll_number)
        return self._logged(event, turn=turn, undo=None), event

    def verify_score(self, seat: int, box: str, column: int = 0) -> int:
        """Raise with a reason if ``seat`` cannot fill ``box`` now; else return its points."""
        self._verify_on_turn(seat)
        return verify_turn_score(self.sheets[seat], self.turn, box, column)

    def can_score(self, seat: int, box: str, column: int = 0) -> bool:
        return _can(lambda: self.verify_score(seat, box, column))

    def score(self, seat: int, box: str, column: int = 0) -> tuple[Match, Scored]:
        """Fill ``box`` with the dice on the table and pass the turn on.

        Until anyone rolls next (or skips a turn), the scorer may take the box back. The last box
        of the last seat finishes the match and is final: the result is entered at once.
        """
        self.verify_score(seat, box, column)
        sheet, s = score_box(self.sheets[seat], self.turn, box, column)
        event = Scored(
            seat, s.column, s.box, s.points, s.dice, s.yahtzee_bonus, s.joker, s.upper_bonus
        )
        new = self._logged(event, sheets=self._replace_sheet(seat, sheet), turn=Turn())
        new = new._pass_turn()
        return replace(new, undo=None if new.is_over else replace(self, undo=None)), event

    def _replace_sheet(self, seat: int, sheet: Sheet) -> tuple[Sheet, ...]:
        return tuple(sheet if s == seat else other for s, other in enumerate(self.sheets))

    def _pass_turn(self) -> Match:
        """Hand the dice to the next seat still playing, or end the match when none is left
        or every seat still playing has filled its card."""
        if not self.playing:
            return replace(self, phase=MatchPhase.ABANDONED, turn=Turn(), undo=None)
        if all(self.sheets[s].is_complete for s in self.playing):
            return replace(self, phase=MatchPhase.FINISHED, current=None, turn=Turn(), undo=None)
        current = self.current if self.current is not None else 0
        after = [(current + step) % self.seats for step in range(1, self.seats + 1)]
        following = next(s for s in after if self.states[s] is SeatState.PLAYING)
        return replace(self, current=following, turn=Turn())

    # --- Undo ---------------------------------------------------------------------------------

    def verify_undo(self, seat: int) -> None:
        self._verify_playing(seat)
        if self.undo is None:
            raise NothingToUndo("There is no scoring to take back: the dice have moved on.")
        if self.undo.current != seat:
            raise NothingToUndo("Only the player who has just scored can take it back.")

    def can_undo(self, seat: int) -> bool:
        return _can(lambda: self.verify_undo(seat))

    def undo_scoring(self, seat: int) -> tuple[Match, Undone]:
        """Take back the box ``seat`` has just filled: the match is again as it was before that
        scoring, dice and rolls left included; only the log remembers."""
        self.verify_undo(seat)
        assert self.undo is not None
        scored = next(e for e in reversed(self.log) if isinstance(e, Scored))
        event = Undone(seat, scored.column, scored.box, scored.points)
        return replace(self.undo, log=(*self.log, event)), event

    # --- Resign, skip, end --------------------------------------------------------------------

    def verify_resign(self, seat: int) -> None:
        self._verify_playing(seat)

    def can_resign(self, seat: int) -> bool:
        return _can(lambda: self.verify_resign(seat))

    def resign(self, seat: int) -> tuple[Match, Resigned]:
        """Leave the match: the seat is passed over from now on and out of the standings. The
        last seat to leave ends the match as abandoned."""
        self.verify_resign(seat)
        event = Resigned(seat)
        states = tuple(SeatState.RESIGNED if s == seat else st for s, st in enumerate(self.states))
        new = self._logged(event, states=states)
        if self.phase is MatchPhase.ROLLING_FOR_FIRST:
            contenders = tuple(s for s in self.contenders if s != seat)
            return replace(new, contenders=contenders)._settle_first(), event
        if self.undo is not None and seat != self.undo.current:
            # Another player leaving does not close the scorer's undo, and taking the scoring
            # back must not bring the leaver back.
            new = replace(new, undo=replace(self.undo, states=states))
        else:
            new = replace(new, undo=None)
        return (new._pass_turn() if seat == self.current else new), event

    def verify_skip(self, seat: int, *, by: int, idle: float | None = None) -> None:
        """Raise unless ``by`` may skip ``seat`` now. ``idle`` is how long the game has gone
        without a move: a request made now says it, and the turn limit is checked; a skip read
        back from a log was due when it was made (``None``)."""
        self._verify_playing(by)
        self._verify_seat(seat)
        if self.player_of(seat) == by:
            raise CannotSkip("You cannot skip your own turn.")
        if self.player_of(seat) is None:
            raise CannotSkip("A computer player never keeps the game waiting.")
        if idle is not None:
            if self.turn_limit is None:
                raise CannotSkip("This game has no time limit: nobody can be skipped.")
            if idle < self.turn_limit:
                wait = math.ceil(self.turn_limit - idle)
                raise CannotSkip(
                    f"The player on turn has {wait} more second{'s' if wait != 1 else ''} to play."
                )
        if self.states[seat] is SeatState.RESIGNED:
            raise CannotSkip("That player has resigned: their turns are passed over already.")
        if self.phase is MatchPhase.ROLLING_FOR_FIRST:
            if seat not in self.contenders or self.first_rolls[seat] is not None:
                raise CannotSkip("Only a player who still has to roll for first can be skipped.")
        elif seat != self.current:
            raise CannotSkip("Only the player on turn can be skipped.")

    def can_skip(self, seat: int, *, by: int, idle: float | None = None) -> bool:
        return _can(lambda: self.verify_skip(seat, by=by, idle=idle))

    def skip(self, seat: int, *, by: int, idle: float | None = None) -> tuple[Match, Skipped]:
        """Seat ``by`` skips idle ``seat``: while rolling for first it drops out of the draw;
        in play its turn scores as ``skipped_box`` says."""
        self.verify_skip(seat, by=by, idle=idle)
        if self.phase is MatchPhase.ROLLING_FOR_FIRST:
            event = Skipped(seat, by)
            contenders = tuple(s for s in self.contenders if s != seat)
            return self._logged(event, contenders=contenders)._settle_first(), event
        column, box = skipped_box(self.sheets[seat])
        event = Skipped(seat, by, column, box)
        sheets = self._replace_sheet(seat, _with_zero(self.sheets[seat], (column, box)))
        return self._logged(event, sheets=sheets, undo=None)._pass_turn(), event

    def verify_end(self, by: int) -> None:
        self._verify_playing(by)
        if by != self.host:
            raise NotHost("Only the host can end the game for everyone.")

    def can_end(self, by: int) -> bool:
        return _can(lambda: self.verify_end(by))

    def end(self, by: int) -> tuple[Match, Ended]:
        """The host ends the match for everyone: abandoned, no score for anyone."""
        self.verify_end(by)
        event = Ended(by)
        return self._logged(event, phase=MatchPhase.ABANDONED, undo=None), event

    # --- Actions as values: what a person asks, played for the seat they act for -------------

    def verify(self, action: Action) -> None:
        """Raise with a reason unless ``action`` can be played now (dice aside)."""
        match action:
            case actions.Hold(by=by, held=held):
                self.verify_hold(self.seat_for(by), held)
            case actions.Roll(by=by, held=held):
                seat = self.seat_for(by)
                if held is not None and self.turn.has_rolled:
                    self.verify_hold(seat, held)
                self.verify_roll(seat)
            case actions.Score(by=by, box=box, column=column):
                self.verify_score(self.seat_for(by), box, column)
            case actions.Undo(by=by):
                self._undoing(by)
            case actions.Resign(by=by):
                self.verify_resign(by)
            case actions.Skip(by=by, idle=idle):
                for seat in self._keeping_waiting(by):
                    self.verify_skip(seat, by=by, idle=idle)
            case actions.End(by=by):
                self.verify_end(by)
            case actions.ThrowForFirst(by=by):
                self._throwing_for(by)

    def can(self, action: Action) -> bool:
        return _can(lambda: self.verify(action))

    def act(self, action: Action, dice: DiceSource | None = None) -> Match:
        """The match after ``action``, its events appended to the log. ``dice`` throws what a
        roll or a throw for first needs; in the draw for first, computer players throw at once
        after any action (again after each tie they are in)."""
        self.verify(action)
        new: Match
        match action:
            case actions.Hold(by=by, held=held):
                new, _ = self.hold(self.seat_for(by), held)
            case actions.Roll(by=by, held=held):
                seat, new = self.seat_for(by), self
                if held is not None and self.turn.has_rolled:
                    new, _ = new.hold(seat, held)
                new, _ = new.roll(seat, _needed(dice))
            case actions.Score(by=by, box=box, column=column):
                new, _ = self.score(self.seat_for(by), box, column)
            case actions.Undo(by=by):
                new, _ = self.undo_scoring(self._undoing(by))
            case actions.Resign(by=by):
                new, _ = self.resign(by)
            case actions.Skip(by=by, idle=idle):
                new = self
                for seat in self._keeping_waiting(by):
                    new, _ = new.skip(seat, by=by, idle=idle)
            case actions.End(by=by):
                new, _ = self.end(by)
            case actions.ThrowForFirst(by=by):
                new = self
                for seat in self._throwing_for(by):
                    new, _ = new.roll_for_first(seat, _needed(dice))
        return new._computers_throw(dice)

    def verify_hint(self, by: Player) -> None:
        """Raise unless ``by`` may ask for a hint now: on turn, with dice on the table."""
        self._verify_on_turn(self.seat_for(by))
        if not self.turn.has_rolled:
            raise NotRolledYet("Roll first: a hint weighs the dice on the table.")

    def can_hint(self, by: Player) -> bool:
        return _can(lambda: self.verify_hint(by))

    def _undoing(self, by: Player) -> int:
        """The seat whose scoring ``by`` would take back."""
        if self.undo is None or self.undo.current is None:
            raise NothingToUndo("There is no scoring to take back: the dice have moved on.")
        seat = self.undo.current
        if self.player_of(seat) != by:
            raise NothingToUndo("Only the player who has just scored can take it back.")
        self.verify_undo(seat)
        return seat

    def _keeping_waiting(self, by: int) -> tuple[int, ...]:
        """Whom ``by`` would skip: the seat on turn, or in the draw every seat still to throw
        that ``by`` does not play."""
        self._verify_playing(by)
        if self.phase is MatchPhase.PLAYING:
            assert self.current is not None
            return (self.current,)
        pending = [s for s in self.contenders if self.first_rolls[s] is None]
        waiting = tuple(s for s in pending if self.player_of(s) != by)
        if not waiting:
            raise CannotSkip("You cannot skip your own turn.")
        return waiting

    def _throwing_for(self, by: Player) -> tuple[int, ...]:
        """The seats ``by`` throws for first for: every contender they play still to throw."""
        if by is not None:
            self._verify_seat(by)
        if self.phase is not MatchPhase.ROLLING_FOR_FIRST:
            if self.is_over:
                self._verify_seat(0)  # says how it ended
            raise OutOfTurn("Who goes first is already decided.")
        seats = tuple(
            s for s in self.contenders if self.player_of(s) == by and self.can_roll_for_first(s)
        )
        if not seats:
            raise OutOfTurn("You have rolled for first: the others roll now.")
        return seats

    def _computers_throw(self, dice: DiceSource | None) -> Match:
        match = self
        while waiting := [
            s
            for s in match.contenders
            if match.player_of(s) is None and match.can_roll_for_first(s)
        ]:
            match, _ = match.roll_for_first(waiting[0], _needed(dice))
        return match


def _needed(dice: DiceSource | None) -> DiceSource:
    if dice is None:
        raise ValueError("This action throws dice: pass a dice source.")
    return dice
