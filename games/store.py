"""The one room that turns rows into a ``Match`` and a ``Match`` into rows.

``load`` reads a game and its seats (locked for a write) and rebuilds the match they keep;
``save`` takes the match an action made and writes what changed: the game row's turn, draw,
status and round, each seat's card, state and on-turn flag, the high-score rows of a game that
just finished, and the match's new events as ``Move`` rows. Every state column is written here
and nowhere else, derived from the match in one place, so the game can never live twice.
After the commit, every open page of the game learns of the change (``live.publish``).

A loaded match carries only the end of its log that the rules may still need (the scoring an
undo would take back); the whole log is the ``Move`` table, which ``events`` reads back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from games import live, rules
from games.errors import GameNotFound
from games.models import Game, GameStatus, Move, MoveAction, PlayerKind, Score, Seat
from yahtzee_site import prepared

# --- A game and its seats, as loaded --------------------------------------------------------


@dataclass(frozen=True)
class SeatedGame:
    """A game with its seats loaded, and the match they keep (``None`` while the game waits
    for players: it has no match until its host starts it)."""

    game: Game
    seats: list[Seat]
    loaded: rules.Match | None = field(default=None, repr=False)
    record: rules.Roll | rules.Scoring | None = None
    """What the action that produced this state did: the page shows it (a line of the log, a
    celebration) without reading the log again."""
    actor: int | None = None
    """The seat (its place in ``seats``) whose ``record`` it is: after a scoring, the turn has
    passed on."""

    @property
    def current(self) -> Seat:
        return self.seats[self.game.current_seat]

    def seat_of(self, user: User) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user.pk), None)

    def position_of(self, user: User) -> int | None:
        """The place of ``user``'s own seat at the table (not a guest's they play for)."""
        return next(
            (
                position
                for position, seat in enumerate(self.seats)
                if seat.user_id == user.pk and seat.player_kind != PlayerKind.GUEST
            ),
            None,
        )

    def match(self) -> rules.Match:
        """The game as the rules see it (raises for a game still waiting for players)."""
        if self.loaded is None:
            raise ValueError("A game waiting for players has no match yet.")
        return self.loaded


def load(*, game_id: int, user: User, lock: bool = False) -> SeatedGame:
    """The game and its seats, if ``user`` is seated in it; else ``GameNotFound``.

    Two reads, the game then its seats in order, through SQL the ORM compiled once per process
    (``prepared``), in one round trip on PostgreSQL: every roll, score and page starts here.
    With ``lock`` the game row is locked until the transaction ends (the writes use this;
    SQLite's IMMEDIATE transactions lock anyway), before its seats are read.
    """
    game_rows, seat_rows = prepared.rows_together(
        (_locked_game if lock else _game, game_id, None), (_seats, game_id, None)
    )
    alias = connection.alias
    game = Game.from_db(alias, _GAME_FIELDS, game_rows[0]) if game_rows else None
    seats = [Seat.from_db(alias, _SEAT_FIELDS, row) for row in seat_rows]
    if game is None or not any(seat.user_id == user.pk for seat in seats):
        raise GameNotFound("There is no such game.")
    return seated(game, seats)


def seated(game: Game, seats: list[Seat]) -> SeatedGame:
    """``game`` and its ``seats`` (in order) as one, with the match they keep."""
    for seat in seats:
        seat.game = game  # one Game object for all, so a change made through one is seen by all
    return SeatedGame(game=game, seats=seats, loaded=match_of(game, seats))


_GAME_FIELDS = [f.attname for f in Game._meta.concrete_fields]
_SEAT_FIELDS = [f.attname for f in Seat._meta.concrete_fields]


def _game(game_id: int) -> QuerySet[Game, tuple[Any, ...]]:
    return Game.objects.filter(pk=game_id).order_by().values_list(*_GAME_FIELDS)


def _locked_game(game_id: int) -> QuerySet[Game, tuple[Any, ...]]:
    return _game(game_id).select_for_update()


def _seats(game_id: int) -> QuerySet[Seat, tuple[Any, ...]]:
    return Seat.objects.filter(game_id=game_id).order_by("position").values_list(*_SEAT_FIELDS)


# --- Rows -> Match ----------------------------------------------------------------------------

_PHASE_OF_STATUS = {
    GameStatus.FINISHED: rules.MatchPhase.FINISHED,
    GameStatus.ABANDONED: rules.MatchPhase.ABANDONED,
}


def match_of(game: Game, seats: Sequence[Seat]) -> rules.Match | None:
    """The match the rows keep: every seat's sheet and state, the draw for first while it
    lasts, who went first, the seat on turn and its turn, and the scoring an undo may take
    back. ``None`` for a game still waiting for players."""
    if game.status == GameStatus.WAITING:
        return None
    kind = game.rules_kind
    phase = _PHASE_OF_STATUS.get(GameStatus(game.status), rules.MatchPhase.PLAYING)
    drawing = phase is rules.MatchPhase.PLAYING and bool(game.contenders)
    if drawing:
        phase = rules.MatchPhase.ROLLING_FOR_FIRST
    now = rules.Match(
        kind=kind,
        sheets=tuple(_sheet(seat, kind) for seat in seats),
        states=tuple(
            rules.SeatState.RESIGNED if seat.resigned else rules.SeatState.PLAYING for seat in seats
        ),
        host=host_of(game, seats),
        phase=phase,
        first=None if drawing else game.first_seat,
        current=None if drawing or phase is rules.MatchPhase.FINISHED else game.current_seat,
        turn=_turn(game.dice, game.held, game.rolls_used),
        contenders=tuple(game.contenders) if drawing else (),
        first_rolls=tuple(
            tuple(game.first_rolls[str(s)]) if str(s) in game.first_rolls else None
            for s in range(len(seats))
        ),
    )
    if game.undo and phase is rules.MatchPhase.PLAYING:
        return _with_undo(now, game.undo)
    return now


def host_of(game: Game, seats: Sequence[Seat]) -> int:
    """The host's place at the table: the owner's own seat (0 unless they have left it)."""
    return next(
        (
            position
            for position, seat in enumerate(seats)
            if seat.user_id == game.owner_id and seat.player_kind == PlayerKind.HUMAN
        ),
        0,
    )


def _sheet(seat: Seat, kind: rules.GameKind) -> rules.Sheet:
    return rules.Sheet(
        kind=kind,
        cards=tuple(seat.cards) if seat.cards else (),
        yahtzee_bonuses=seat.yahtzee_bonuses,
        yahtzees=seat.yahtzees,
    )


def _turn(dice: Sequence[int], held: Sequence[bool], rolls_used: int) -> rules.Turn:
    if not dice:
        return rules.Turn()
    kept = tuple(held) if len(held) == rules.DICE_COUNT else rules.NO_HOLD
    return rules.Turn(dice=tuple(dice), held=kept, rolls_used=rolls_used)


def _with_undo(now: rules.Match, kept: dict[str, Any]) -> rules.Match:
    """``now`` able to take back its last scoring: ``kept`` is the scorer's sheet and turn as
    they were before it, and the scoring itself (the match's latest event)."""
    seat = kept["seat"]
    sheet = rules.Sheet(
        kind=now.kind,
        cards=tuple(kept["cards"]),
        yahtzee_bonuses=kept["yahtzee_bonuses"],
        yahtzees=kept["yahtzees"],
    )
    before = replace(
        now,
        sheets=tuple(sheet if s == seat else other for s, other in enumerate(now.sheets)),
        current=seat,
        turn=_turn(kept["dice"], kept["held"], kept["rolls_used"]),
    )
    scored = rules.Scored(seat, kept["column"], kept["box"], kept["points"], tuple(kept["dice"]))
    return replace(now, undo=before, log=(scored,))


# --- Match -> rows ----------------------------------------------------------------------------

_STATUS_OF_PHASE = {
    rules.MatchPhase.ROLLING_FOR_FIRST: GameStatus.IN_PROGRESS,
    rules.MatchPhase.PLAYING: GameStatus.IN_PROGRESS,
    rules.MatchPhase.FINISHED: GameStatus.FINISHED,
    rules.MatchPhase.ABANDONED: GameStatus.ABANDONED,
}


def _game_columns(match: rules.Match, game: Game) -> dict[str, Any]:
    """The game row's state columns as ``match`` has them."""
    turn = match.turn
    return {
        "status": _STATUS_OF_PHASE[match.phase],
        # The seat on turn; kept as it was while nobody is (the draw, a finished game).
        "current_seat": game.current_seat if match.current is None else match.current,
        "round": match.round,
        "first_seat": match.first or 0,
        "contenders": list(match.contenders),
        "first_rolls": {
            str(s): list(dice) for s, dice in enumerate(match.first_rolls) if dice is not None
        },
        "dice": list(turn.dice) if turn.dice is not None else [],
        "held": list(turn.held) if turn.dice is not None else [],
        "rolls_used": turn.rolls_used,
        "undo": _undo_kept(match),
    }


def _undo_kept(match: rules.Match) -> dict[str, Any] | None:
    """What the game row keeps of ``match.undo``: the scorer's sheet and turn before the
    scoring, and the scoring (what ``_with_undo`` rebuilds it from)."""
    before = match.undo
    if before is None or before.current is None:
        return None
    scored = next(e for e in reversed(match.log) if isinstance(e, rules.Scored))
    sheet, turn = before.sheets[before.current], before.turn
    return {
        "seat": before.current,
        "cards": [dict(card) for card in sheet.cards],
        "yahtzee_bonuses": sheet.yahtzee_bonuses,
        "yahtzees": sheet.yahtzees,
        "dice": list(turn.dice or ()),
        "held": list(turn.held) if turn.dice is not None else [],
        "rolls_used": turn.rolls_used,
        "column": scored.column,
        "box": str(scored.box),
        "points": scored.points,
    }


def can_act(match: rules.Match, position: int) -> bool:
    """Whether the seat at ``position`` has a move to make now: on turn in play, or still to
    throw in the draw for first. What a seat's ``on_turn`` flag keeps for an account."""
    if match.phase is rules.MatchPhase.PLAYING:
        return match.current == position
    if match.phase is rules.MatchPhase.ROLLING_FOR_FIRST:
        return position in match.contenders and match.first_rolls[position] is None
    return False


def _seat_columns(match: rules.Match, position: int, seat: Seat) -> dict[str, Any]:
    """A seat's state columns as ``match`` has them."""
    sheet = match.sheets[position]
    resigned = match.states[position] is rules.SeatState.RESIGNED
    columns: dict[str, Any] = {
        "cards": [dict(card) for card in sheet.cards],
        "yahtzee_bonuses": sheet.yahtzee_bonuses,
        "yahtzees": sheet.yahtzees,
        "resigned": resigned,
        "game_over": match.is_over or resigned,
        # Only an account's seat: guests and computers have no dashboard to put first.
        "on_turn": seat.user_id is not None and can_act(match, position),
    }
    if match.phase is rules.MatchPhase.FINISHED:
        columns["grand_total"] = sheet.grand_total
    return columns


def _changed(instance: Game | Seat, columns: dict[str, Any]) -> list[str]:
    """Set ``columns`` on ``instance``; the names of those whose value changed."""
    changed = []
    for name, value in columns.items():
        if getattr(instance, name) != value:
            setattr(instance, name, value)
            changed.append(name)
    return changed


def save(table: SeatedGame, after: rules.Match) -> SeatedGame:
    """Write what ``after`` changed of the loaded game (call inside the action's transaction,
    with the game row locked): state columns, new events as ``Move`` rows, and, when the match
    has just finished, each seat's result in the high scores. Every open page of the game is
    told once the transaction commits. Returns the table as it now stands."""
    game, seats = table.game, table.seats
    before = table.loaded
    events = after.log[len(before.log) :] if before is not None else after.log
    now = timezone.now()
    changed = _changed(game, _game_columns(after, game))
    finished_now = after.is_over and "status" in changed
    if finished_now:
        game.finished_at = now
        changed.append("finished_at")
    seat_changes = [(seat, _changed(seat, _seat_columns(after, p, seat))) for p, seat in
                    enumerate(seats)]  # fmt: skip
    # A hold is kept in the game row until the roll it leads to logs it (``events`` reads it
    # back); how the match was set up is the game row's kind, seats and draw.
    logged = [e for e in events if not isinstance(e, rules.HeldDice | rules.Started)]
    # The on-turn flag is the dashboard's copy of who may move: no page of the game shows it.
    shown = changed or logged or any(set(fields) - {"on_turn"} for _, fields in seat_changes)
    first_seq = game.version + 1
    if shown:
        game.version += max(1, len(logged))
        prepared.update(game, [*changed, "version", "updated_at"])
    for seat, fields in seat_changes:
        if fields:
            prepared.update(seat, fields)
    for seq, event in enumerate(logged, start=first_seq):
        prepared.insert(_move(game, seats, seq, event, before=before or after, after=after))
    if after.phase is rules.MatchPhase.FINISHED and finished_now:
        _record_scores(game, seats, after)
    if shown:
        live.publish(game)
    return replace(table, loaded=after)


def close_waiting(table: SeatedGame) -> SeatedGame:
    """The host gives up a game still waiting for players: it ends before it began (no match
    was ever played, so there is nothing else to write)."""
    game = table.game
    game.status, game.finished_at = GameStatus.ABANDONED, timezone.now()
    game.version += 1
    prepared.update(game, ["status", "finished_at", "version", "updated_at"])
    for seat in table.seats:
        seat.game_over = True
    Seat.objects.filter(game=game).update(game_over=True)
    live.publish(game)
    return table


# --- Events <-> Move rows: one mapping, both ways --------------------------------------------


def _move(
    game: Game,
    seats: Sequence[Seat],
    seq: int,
    event: rules.MatchEvent,
    *,
    before: rules.Match,
    after: rules.Match,
) -> Move:
    """The ``Move`` row of ``event``, numbered ``seq`` (the version it made)."""
    fields: dict[str, Any]
    match event:
        case rules.FirstRoll(seat=seat, dice=dice):
            fields = {"action": MoveAction.FIRST, "dice": list(dice), "round": 0}
        case rules.Rolled(seat=seat, dice=dice, held=held, roll_number=number):
            fields = {
                "action": MoveAction.ROLL,
                "dice": list(dice),
                "held": list(held),
                "roll_number": number,
            }
        case rules.Scored(seat=seat):
            fields = {
                "action": MoveAction.SCORE,
                "dice": list(event.dice),
                "column": event.column,
                "box": str(event.box),
                "points": event.points,
                "yahtzee_bonus": event.yahtzee_bonus,
                "joker": event.joker,
            }
        case rules.Undone(seat=seat, column=column, box=box):
            taken_back = before.log[-1] if before.log else None
            points = taken_back.points if isinstance(taken_back, rules.Scored) else None
            fields = {
                "action": MoveAction.UNDO,
                "dice": list(after.turn.dice or ()),
                "column": column,
                "box": str(box),
                "points": points,
                "round": after.round,
            }
        case rules.Resigned(seat=seat):
            fields = {"action": MoveAction.RESIGN, "dice": []}
        case rules.Skipped(seat=seat, by=by, column=column, box=box):
            fields = {
                "action": MoveAction.SKIP,
                "dice": [],
                "column": column,
                "box": str(box) if box is not None else "",
                "points": 0 if box is not None else None,
                "by_position": by,
            }
        case rules.Ended(by=seat):
            fields = {"action": MoveAction.END, "dice": []}
        case _:
            raise ValueError(f"{event!r} is not kept as a move.")
    fields.setdefault("round", before.round)
    return Move(game=game, seat=seats[seat], seq=seq, **fields)


def events(
    game: Game, moves: Iterable[Move], positions: dict[int, int]
) -> Iterator[rules.MatchEvent]:
    """The match's log as ``moves`` keep it (``positions``: seat id -> place at the table),
    from ``Started``: what ``rules.Match.replay`` rebuilds the game from. A re-roll's row
    holds the dice kept through it: the hold is read back as the event before the roll."""
    seats = len(positions)
    host = 0
    yield rules.Started(game.kind, seats, game.roll_for_first, host)
    for move in moves:
        seat = positions[move.seat_id]
        match move.action:
            case MoveAction.FIRST:
                yield rules.FirstRoll(seat, tuple(move.dice))
            case MoveAction.ROLL:
                if (move.roll_number or 0) > 1:
                    yield rules.HeldDice(seat, tuple(move.held))
                yield rules.Rolled(seat, tuple(move.dice), tuple(move.held), move.roll_number or 0)
            case MoveAction.SCORE:
                yield _scored(seat, move)
            case MoveAction.UNDO:
                yield rules.Undone(seat, move.column or 0, move.box)
            case MoveAction.RESIGN:
                yield rules.Resigned(seat)
            case MoveAction.SKIP:
                if move.by_position is None:
                    raise ValueError(f"Move {move.seq}: a skip that does not say who skipped.")
                yield rules.Skipped(seat, move.by_position, move.column, move.box or None)
            case MoveAction.END:
                yield rules.Ended(seat)
            case _:
                raise ValueError(f"Move {move.seq}: no such action {move.action!r}.")


def _scored(seat: int, move: Move) -> rules.Scored:
    return rules.Scored(
        seat,
        move.column or 0,
        move.box,
        move.points or 0,
        tuple(move.dice),
        move.yahtzee_bonus,
        move.joker,
    )


# --- High scores ------------------------------------------------------------------------------


def _record_scores(game: Game, seats: Sequence[Seat], match: rules.Match) -> None:
    """Copy each seat's result into the high scores, noting where it enters them."""
    from games.selectors import high_score_entry

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
            upper_bonuses=sum(1 for card in sheet.cards if rules.totals(card)["upper_bonus"]),
            yahtzees=sheet.yahtzees,
            yahtzee_bonuses=sheet.yahtzee_bonuses,
            hints=seat.hints,
            finished_at=game.finished_at,
        )
        for seat, sheet, state in zip(seats, match.sheets, match.states, strict=True)
        if state is rules.SeatState.PLAYING  # a resigned player's score is never entered
    )
    for score in scores:
        if entry := high_score_entry(score, now=game.finished_at):
            score.high_score_rank, score.high_score_period = entry
            score.save(update_fields=["high_score_rank", "high_score_period"])
