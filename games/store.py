"""The one room that turns rows into a ``Match`` and a ``Match`` into rows.

``load`` reads a game and its seats (locked for a write) and the match the game keeps in one
column, ``Game.state`` (the rules' codec reads and writes it); ``save`` takes the match an
action made and writes what changed: the state, the few copies of it kept to be searched and
listed (the game's status, whose turn, the round; each seat's flags and total), and the match's
new events as ``Move`` rows (``games.moves``). Every state column is written here and nowhere
else, derived from the match in one place. ``save`` returns what the move did
(``games.events.Moved``); the door (``games.play.actions``) tells the rooms that listen. The
store decides no rule and knows no feature: it neither grades, nor mails, nor publishes.

A loaded match carries only the end of its log that the rules may still need (the scoring an
undo would take back); the whole log is the ``Move`` table, which ``replay`` plays again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from accounts.models import User
from games import moves, rules
from games.errors import GameNotFound
from games.events import Moved
from games.models import Game, GameStatus, Move, PlayerKind, Seat
from games.rules import codec

# --- A game and its seats, as loaded --------------------------------------------------------


@dataclass(frozen=True)
class SeatedGame:
    """A game with its seats loaded, and the match they keep (``loaded``; ``None`` while the
    game waits for players: it has no match until its host starts it)."""

    game: Game
    seats: list[Seat]
    loaded: rules.Match | None = field(repr=False)
    record: rules.Roll | rules.Scoring | None = None
    """What the action that produced this state did: the page shows it (a line of the log, a
    celebration) without reading the log again."""
    actor: int | None = None
    """The seat (its place in ``seats``) whose ``record`` it is: after a scoring, the turn has
    passed on."""

    def seat_of(self, user: User) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user.pk), None)

    def position_of(self, user: User) -> int | None:
        """The place at the table of ``user``'s own seat (``None``: not seated)."""
        return next((p for p, seat in enumerate(self.seats) if seat.user_id == user.pk), None)

    def match(self) -> rules.Match:
        """The game as the rules see it (a game still waiting for players has none)."""
        if self.loaded is None:
            raise ValueError("A game waiting for players has no match yet.")
        return self.loaded


def load(*, game_id: int, user: User, lock: bool = False) -> SeatedGame:
    """The game and its seats, if ``user`` is seated in it; else ``GameNotFound``.

    One read, the seats in order each with their game (a join): every roll, score and page
    starts here. With ``lock`` the game's row alone is locked until the transaction ends (the
    writes use this; SQLite's IMMEDIATE transactions lock anyway).
    """
    seats = Seat.objects.filter(game_id=game_id).select_related("game").order_by("position")
    if lock:
        seats = seats.select_for_update(of=("game",))
    found = list(seats)
    if not found or not any(seat.user_id == user.pk for seat in found):
        raise GameNotFound("There is no such game.")
    return seated(found[0].game, found)


def seated(game: Game, seats: list[Seat]) -> SeatedGame:
    """``game`` and its ``seats`` (in order) as one, with the match they keep."""
    for seat in seats:
        seat.game = game  # one Game object for all, so a change made through one is seen by all
    loaded = None if game.state is None else match_of(game)
    return SeatedGame(game=game, seats=seats, loaded=loaded)


# --- Rows -> Match -> rows -------------------------------------------------------------------


def setup(game: Game, seats: Sequence[Seat]) -> rules.Started:
    """How the rows say the match was set up: its kind, the seats and who plays each (a
    person's own seat, the host's for a guest at the host's screen, the computer's), the draw
    for first, the turn limit."""
    host = next(
        (p for p, seat in enumerate(seats) if seat.user_id == game.owner_id and seat.user_id),
        0,
    )
    players = tuple(
        host if seat.player_kind == PlayerKind.GUEST
        else None if seat.player_kind == PlayerKind.COMPUTER
        else position
        for position, seat in enumerate(seats)
    )  # fmt: skip
    return rules.Started(
        game.kind,
        len(seats),
        game.roll_for_first,
        host,
        players,
        game.turn_limit,
        # A day's challenge and a tournament's game alike: alone, on shared dice, no help.
        challenge=game.challenge_day is not None or game.tournament_id is not None,
    )


def match_of(game: Game) -> rules.Match:
    """The match ``game`` keeps (its ``state``, read by the rules' codec); ``ValueError`` for a
    game still waiting for players (it has none)."""
    if game.state is None:
        raise ValueError("A game waiting for players has no match yet.")
    return codec.from_state(game.state)


_STATUS_OF_PHASE = {
    rules.MatchPhase.ROLLING_FOR_FIRST: GameStatus.IN_PROGRESS,
    rules.MatchPhase.PLAYING: GameStatus.IN_PROGRESS,
    rules.MatchPhase.FINISHED: GameStatus.FINISHED,
    rules.MatchPhase.ABANDONED: GameStatus.ABANDONED,
}


def _game_columns(match: rules.Match, game: Game) -> dict[str, Any]:
    """The game row as ``match`` has it: its state, and the copies searched and listed."""
    return {
        "state": codec.to_state(match),
        "status": _STATUS_OF_PHASE[match.phase],
        # The seat on turn; kept as it was while nobody is (the draw, a finished game).
        "current_seat": game.current_seat if match.current is None else match.current,
        "round": match.round,
    }


def _seat_columns(match: rules.Match, position: int, seat: Seat) -> dict[str, Any]:
    """A seat's copies of ``match`` kept to list its account's games."""
    resigned = match.states[position] is rules.SeatState.RESIGNED
    columns: dict[str, Any] = {
        "resigned": resigned,
        "game_over": match.is_over or resigned,
        # The dashboard's copy of "a move of yours is awaited" (an account's seat on turn, or
        # still to throw for first): guests and computers have no dashboard.
        "on_turn": seat.user_id is not None and match.can_act(position),
    }
    if match.phase is rules.MatchPhase.FINISHED:
        columns["grand_total"] = match.sheets[position].grand_total
    return columns


def _changed(instance: Game | Seat, columns: dict[str, Any]) -> list[str]:
    """Set ``columns`` on ``instance``; the names of those whose value changed."""
    changed = []
    for name, value in columns.items():
        if getattr(instance, name) != value:
            setattr(instance, name, value)
            changed.append(name)
    return changed


def save(table: SeatedGame, after: rules.Match, *, by: User | None = None) -> Moved:
    """Write what ``after`` changed of the loaded game (inside the action's transaction, the
    game row locked): state columns, the hints shown, new events as ``Move`` rows numbered by
    the version each made. What the move did, ``by`` whom."""
    game, seats, before = table.game, table.seats, table.loaded
    new_events = after.log[len(before.log) :] if before is not None else after.log
    logged = [e for e in new_events if not isinstance(e, moves.NOT_KEPT)]
    changed = _changed(game, _game_columns(after, game))
    if after.is_over and "status" in changed:
        game.finished_at = timezone.now()
        changed.append("finished_at")
    hinted = Counter(e.seat for e in new_events if isinstance(e, rules.Hinted))
    seat_changes = [
        (s, _changed(s, _seat_columns(after, p, s) | {"hints": s.hints + hinted[p]}))
        for p, s in enumerate(seats)
    ]
    # What a page shows of a game is its state (a seat's flags and total are copies of it; the
    # hints a mark for the high scores): a move the pages must see changes it or logs an event.
    # A match that begins is no move yet: the state it is first written with is not shown.
    shown = bool(logged) or any(before is not None or name != "state" for name in changed)
    first_seq = game.version + 1
    if shown:
        game.version += max(1, len(logged))
    if game._state.adding:
        # A table just laid (a game started at once): its rows written once, as the match begins.
        game.save()
        Seat.objects.bulk_create(seats)
    else:
        if shown:
            game.save(update_fields=[*changed, "version", "updated_at"])
        for seat, fields in seat_changes:
            if fields:
                seat.save(update_fields=fields)
    round_before = (before or after).round
    rows = []
    for seq, event in enumerate(logged, start=first_seq):
        seat = seats[moves.seat_of(event)]
        round = after.round if isinstance(event, rules.Undone) else round_before
        rows.append(Move(game=game, seat=seat, seq=seq, **moves.row(event, round=round)))
    Move.objects.bulk_create(rows)
    return Moved(game=game, seats=seats, before=before, after=after, by=by, shown=shown)


def keep_coaching(seats: Sequence[Seat], position: int, coached: dict[str, Any]) -> None:
    """What the coach made of a move (``games.play.coach``: its ``Coaching.columns``) on the
    seat at ``position`` of the game's ``seats``: the note to show, and that the seat played
    with the coach."""
    seat = seats[position]
    columns = {name: value for name, value in coached.items() if getattr(seat, name) != value}
    if columns:
        Seat.objects.filter(pk=seat.pk).update(**columns)
        for name, value in columns.items():
            setattr(seat, name, value)


def replay(game: Game) -> rules.Match:
    """The match ``game``'s ``Move`` log makes, played again through the rules (``Match.replay``)
    with every outcome checked; ``moves.ReplayMismatch`` says at which move it does not."""
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    positions = {seat.pk: seat.position for seat in seats}
    at: list[Move] = []

    def log() -> Iterator[rules.MatchEvent]:
        yield setup(game, seats)
        for move in Move.objects.filter(game=game).order_by("seq"):
            at[:] = [move]
            yield from moves.events_of(move, positions[move.seat_id])

    try:
        return rules.Match.replay(log())
    except moves.ReplayMismatch:
        raise
    except ValueError as refused:  # the rules' IllegalMove, or an outcome that differs
        where = f"Move {at[0].seq} ({at[0].action})" if at else "The log's start"
        raise moves.ReplayMismatch(f"{where}: {refused}") from refused
