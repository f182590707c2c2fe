"""A whole game as pure Python: every seat's sheet, who goes first, whose turn it is, undo,
resigning, skipping an idle seat, the end, and the log that replays it all.

Like ``Turn``, a ``Match`` is frozen and every action comes as a trio: ``verify_x`` raises an
``IllegalMove`` saying why not, ``can_x`` says yes or no, and ``x`` verifies, then returns the
new match and the event it appended to ``log``. Seats are numbered by their place at the table,
0 first. Dice come from a ``DiceSource`` passed in: a match never rolls by itself, and
``Match.replay`` rebuilds any match from its log alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from games.rules import acting, draw, leaving
from games.rules import playing as turn_play
from games.rules import undo as taking_back
from games.rules.actions import Player
from games.rules.dice import Dice, DiceSource
from games.rules.errors import (
    MatchOver,
    OutOfTurn,
    SeatResigned,
    TableRefused,
    UnknownSeat,
)
from games.rules.events import (
    Ended,
    FirstRoll,
    HeldDice,
    Hinted,
    MatchEvent,
    Resigned,
    Rolled,
    Scored,
    Skipped,
    Started,
    Undone,
)
from games.rules.phases import MatchPhase, SeatState, Standing
from games.rules.scoring import KINDS, GameKind
from games.rules.turn import Sheet, Turn, _can

MAX_SEATS: Final = 6


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
    another may skip them (``None``: nobody is ever skipped). A ``challenge`` (the daily one) is
    played alone on dice everyone shares, with no help: no hints, no coach (``can_hint``,
    ``can_coach``), no computer players or guests (``verify_table``).

    Make one with ``Match.start``, or rebuild one from its log with ``Match.replay``; play it
    with ``act``, which takes an action (``games.rules.actions``) from the person who asks.
    """

    kind: GameKind
    sheets: tuple[Sheet, ...]
    states: tuple[SeatState, ...]
    host: int
    phase: MatchPhase = MatchPhase.PLAYING
    first: int | None
    current: int | None
    turn: Turn = field(default_factory=Turn)
    contenders: tuple[int, ...] = ()
    first_rolls: tuple[Dice | None, ...] = ()
    log: tuple[MatchEvent, ...] = ()
    undo: Match | None = field(default=None, repr=False)
    players: tuple[Player, ...] = ()
    turn_limit: int | None = None
    challenge: bool = False

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
        challenge: bool = False,
        dice: DiceSource | None = None,
    ) -> Match:
        """A new match of ``seats`` players; they roll for first when asked and more than one
        plays, otherwise seat 0 begins and play passes on in seating order. With ``dice``, the
        computer players throw for first at once."""
        cls.verify_table(seats, challenge=challenge, roll_for_first=roll_for_first)
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
            log=(Started(kind.key, seats, roll_for_first, host, players, turn_limit, challenge),),
            players=players,
            turn_limit=turn_limit,
            challenge=challenge,
        )
        match = match._settle_first()
        return match._computers_throw(dice) if dice is not None else match

    @staticmethod
    def verify_table(seats: int, *, challenge: bool = False, roll_for_first: bool = False) -> None:
        """Raise ``TableRefused`` unless a match may seat ``seats`` players (one to
        ``MAX_SEATS``; a challenge one alone, who does not roll for first)."""
        if not 1 <= seats <= MAX_SEATS:
            raise TableRefused(f"A game seats 1 to {MAX_SEATS} players, not {seats}.")
        if challenge and (seats != 1 or roll_for_first):
            raise TableRefused("The daily challenge is played alone.")

    @classmethod
    def can_seat(cls, seats: int, *, challenge: bool = False) -> bool:
        return _can(lambda: cls.verify_table(seats, challenge=challenge))

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
        match = cls.begin(started)
        for event in events:
            match = match.apply(event)
        return match

    @classmethod
    def begin(cls, started: Started, dice: DiceSource | None = None) -> Match:
        """The match ``started`` sets up (``start`` with its kind, seats and options)."""
        return cls.start(
            KINDS[started.kind],
            started.seats,
            roll_for_first=started.roll_for_first,
            host=started.host,
            players=started.players,
            turn_limit=started.turn_limit,
            challenge=started.challenge,
            dice=dice,
        )

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
            case Hinted(seat=seat):
                new, _ = self.hint(self.player_of(seat))
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

    # --- Undo (games.rules.undo) -------------------------------------------------------------

    verify_undo = taking_back.verify_undo
    can_undo = taking_back.can_undo
    undo_scoring = taking_back.undo_scoring

    # --- The draw for first (games.rules.draw) ---------------------------------------------

    verify_roll_for_first = draw.verify_roll_for_first
    can_roll_for_first = draw.can_roll_for_first
    roll_for_first = draw.roll_for_first
    _settle_first = draw._settle_first

    # --- Resign, skip, end (games.rules.leaving) --------------------------------------------

    verify_resign = leaving.verify_resign
    can_resign = leaving.can_resign
    resign = leaving.resign
    verify_skip = leaving.verify_skip
    can_skip = leaving.can_skip
    skip = leaving.skip
    verify_end = leaving.verify_end
    can_end = leaving.can_end
    end = leaving.end

    # --- Actions as values, played for the seat that asks (games.rules.acting) -------------

    verify = acting.verify
    can = acting.can
    act = acting.act
    verify_hint = acting.verify_hint
    can_hint = acting.can_hint
    hint = acting.hint
    can_coach = acting.can_coach
    _computers_throw = acting._computers_throw

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

    # --- Hold, roll, score (games.rules.playing) ----------------------------------------------

    verify_hold = turn_play.verify_hold
    can_hold = turn_play.can_hold
    hold = turn_play.hold
    verify_roll = turn_play.verify_roll
    can_roll = turn_play.can_roll
    roll = turn_play.roll
    verify_score = turn_play.verify_score
    can_score = turn_play.can_score
    score = turn_play.score

    def _replace_sheet(self, seat: int, sheet: Sheet) -> tuple[Sheet, ...]:
        return tuple(sheet if s == seat else other for s, other in enumerate(self.sheets))

    def _pass_turn(self) -> Match:
        """Hand the dice to the next seat still playing, or end the match when none is left
        or every seat still playing has filled its card."""
        if not self.playing:  # the last seat resigned: its undo, if any, closed with it
            return replace(self, phase=MatchPhase.ABANDONED, turn=Turn())
        if all(self.sheets[s].is_complete for s in self.playing):
            return replace(self, phase=MatchPhase.FINISHED, current=None, turn=Turn(), undo=None)
        assert self.current is not None  # a scoring, skip or resign of the seat on turn
        later = [s for s in self.playing if s > self.current]  # then round the table again
        return replace(self, current=min(later or self.playing), turn=Turn())
