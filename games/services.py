"""The writes of a game: start, hold, roll, score, abandon — one transaction per action.

Each action locks the game row, checks that the caller is seated and on turn and that the
request was made against the current ``version``, asks ``games.rules`` whether the move is
legal, then saves the new state and logs the move. Errors a player can cause are those of
``games.errors`` or ``rules.IllegalMove``; views map them to messages.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import advice, first_roll, live, rules, selectors, strategy, turn_marks
from games.errors import GameError, GameNotInProgress, NotYourTurn
from games.models import (
    LOBBY_SEAT_HOURS,
    TURN_LIMITS,
    Game,
    GameStatus,
    Invitation,
    Move,
    MoveAction,
    PlayerKind,
    Score,
    Seat,
    lobby_cutoff,
)
from games.selectors import SeatedGame
from yahtzee_site import prepared


class ZeroNeedsConfirmation(GameError):
    """Scoring would put a zero in the box; the player is asked first."""

    def __init__(self, seated: SeatedGame, box: str, column: int) -> None:
        self.seated, self.box, self.column = seated, rules.Box(box), column
        super().__init__(f"Score 0 in {self.box.label}?")


def _check_turn(seated: SeatedGame, *, user: User, version: int) -> Seat:
    game = seated.game
    game.require_in_play(version)
    if game.contenders:
        raise NotYourTurn("Everyone rolls for first before play begins.")
    seat = seated.current
    if not seat.played_by(user.pk):
        raise NotYourTurn(f"It is {seat.display_name}'s turn.")
    return seat


FIRST_FIELDS = ("contenders", "first_rolls", "first_seat", "current_seat")
"""What the draw for first changes in the game row."""
TURN_FIELDS = ("dice", "held", "rolls_used", "undo")
"""What a roll or the end of a turn changes in the game row (a roll ends any undo)."""


def _save_game(game: Game, *changed: str) -> None:
    """Write what the action ``changed`` and move the version on, so stale requests are caught."""
    game.version += 1
    prepared.update(game, [*changed, "version", "updated_at"])
    live.publish(game)


def _log(game: Game, seat: Seat, round: int, record: rules.Roll | rules.Scoring) -> None:
    """Append what just happened to the game's log, numbered by the version it made."""
    fields: dict[str, Any]
    match record:
        case rules.Roll(held=held, roll_number=number):
            fields = {"action": MoveAction.ROLL, "held": list(held), "roll_number": number}
        case rules.Scoring():
            fields = {
                "action": MoveAction.SCORE,
                "column": record.column,
                "box": record.box,
                "points": record.points,
                "yahtzee_bonus": record.yahtzee_bonus,
                "joker": record.joker,
            }
    prepared.insert(
        Move(game=game, seat=seat, seq=game.version, round=round, dice=list(record.dice), **fields)
    )


MAX_SEATS = 6
"""Six seats at most in a game, however they are filled."""
MAX_GUESTS = MAX_SEATS - 1
"""Players at the host's screen besides the host: six seats in all, as in the Mac original."""
NAME_LENGTH = Seat._meta.get_field("display_name").max_length or 30


class BadGuests(GameError):
    """The names typed for the players at the host's screen will not do."""


def guest_names(typed: Sequence[str], *, owner: User) -> list[str]:
    """The guests' names, tidied; ``BadGuests`` says what is wrong with them."""
    names = [" ".join(name.split()) for name in typed]
    names = [name for name in names if name]
    if len(names) > MAX_GUESTS:
        raise BadGuests(f"At most {MAX_GUESTS} more players can sit at your screen.")
    if any(len(name) > NAME_LENGTH for name in names):
        raise BadGuests(f"A player's name can be at most {NAME_LENGTH} characters.")
    taken = {str(owner).casefold()}
    for name in names:
        if name.casefold() in taken:
            raise BadGuests(f"Two players are called “{name}”: give each their own name.")
        taken.add(name.casefold())
    return names


GUEST_NAMES_KEPT = 12


def remember_guests(owner: User, names: Sequence[str]) -> None:
    """Put ``names`` first in the list of players the host's screen offers again."""
    kept = list(dict.fromkeys([*names, *owner.guest_names]))[:GUEST_NAMES_KEPT]
    if kept != owner.guest_names:
        owner.guest_names = kept
        owner.save(update_fields=["guest_names"])


def computer_seats(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Each computer player's (strategy, name): "Computer (Good)", numbered when repeated."""
    bots = [bot for bot in bots if bot]
    unknown = [bot for bot in bots if bot not in strategy.BOT_NAMES]
    if unknown:
        raise BadGuests(f"There is no computer player called “{unknown[0]}”.")
    named = []
    for i, bot in enumerate(bots):
        same = bots.count(bot)
        number = f" {bots[: i + 1].count(bot)}" if same > 1 else ""
        named.append((bot, f"Computer ({bot.title()}){number}"))
    return named


def _guest_and_computer_seats(
    game: Game, names: Sequence[str], computers: Sequence[tuple[str, str]]
) -> list[Seat]:
    """The seats after the host's: guests at the host's screen, then computer players."""
    guests = [
        _new_seat(game, position, name, player_kind=PlayerKind.GUEST)
        for position, name in enumerate(names, start=1)
    ]
    bots = [
        _new_seat(game, position, name, player_kind=PlayerKind.COMPUTER, bot=bot)
        for position, (bot, name) in enumerate(computers, start=1 + len(names))
    ]
    return guests + bots


@prepared.atomic
def start_game(
    *,
    owner: User,
    kind: str = rules.CLASSIC.key,
    guests: Sequence[str] = (),
    computers: Sequence[str] = (),
    roll_for_first: bool = False,
) -> Game:
    """Start a game of ``kind`` for ``owner``, with ``guests`` at the owner's screen after them
    and then the ``computers`` (strategy names).

    A trial account uses up one of its trial games (``licensing.TrialOver`` when none is left);
    guests play on the host's game. ``BadGuests`` when a name will not do (nothing is used).
    """
    rules_kind = rules.KINDS[kind]
    names = guest_names(guests, owner=owner)
    bots = computer_seats(computers)
    if 1 + len(names) + len(bots) > MAX_SEATS:
        raise BadGuests(f"A game has at most {MAX_SEATS} players, you included.")
    used_trial_game = licensing.use_trial_game(user=owner)
    remember_guests(owner, names)
    game = Game.objects.create(owner=owner, kind=rules_kind.key, roll_for_first=roll_for_first)
    host = _new_seat(game, 0, str(owner), user=owner, used_trial_game=used_trial_game)
    seats = Seat.objects.bulk_create([host, *_guest_and_computer_seats(game, names, bots)])
    if roll_for_first and len(seats) > 1:
        seated = SeatedGame(game=game, seats=seats)
        first_roll.begin(seated)
        turn_marks.mark(seated)
        game.save(update_fields=[*FIRST_FIELDS, "version"])
    return game


# --- Online: seats offered by link or in the lobby, taken before the host starts ------------


class InvitationError(GameError):
    """An invitation that cannot be used; the message says why, for the one who followed it."""


def _new_seat(game: Game, position: int, name: str, **fields: Any) -> Seat:
    cards: list[dict[str, int]] = [{} for _ in range(game.rules_kind.columns)]
    seat = Seat(game=game, position=position, display_name=name, cards=cards, **fields)
    seat.on_turn = seat.account_on_turn()
    return seat


MAX_WAITING_GAMES = 3
"""Games one account may keep waiting for players at once: enough to ask friends to one and
strangers to another with one to spare, too few to fill the lobby (issue 19: one trial account
opened 40 lobby games in half a second). A game stops counting once it starts or ends, or once
it has waited ``LOBBY_SEAT_LIFETIME``: its lobby seats have closed by then."""

LOBBY_SEAT_CLOSED = (
    f"Nobody took this seat in the lobby within {LOBBY_SEAT_HOURS} hours, so it has closed."
)
"""What a player following a lobby seat past ``LOBBY_SEAT_LIFETIME`` is told."""


def _check_waiting_games(owner: User) -> None:
    """Raise ``BadGuests`` if ``owner`` keeps ``MAX_WAITING_GAMES`` games waiting already.

    The account's row is locked first, so racing requests of one account count one after
    another, each seeing the games the others opened (on SQLite, whose transactions begin
    ``IMMEDIATE``, they queue for the database anyway). ``no_key``: rows that merely point at
    the account (a seat, a score) are not held up by it.
    """
    User.objects.select_for_update(no_key=True).filter(pk=owner.pk).values_list("pk").get()
    waiting = Game.objects.filter(
        owner=owner, status=GameStatus.WAITING, created_at__gt=lobby_cutoff(timezone.now())
    )
    if waiting.count() >= MAX_WAITING_GAMES:
        raise BadGuests(
            f"You already have {MAX_WAITING_GAMES} games waiting for players: start one or "
            "abandon one (My games lists them) before you open another."
        )


@prepared.atomic
def open_game(
    *,
    owner: User,
    kind: str = rules.CLASSIC.key,
    guests: Sequence[str] = (),
    computers: Sequence[str] = (),
    invites: int = 0,
    open_seats: int = 0,
    turn_limit: int | None = None,
    roll_for_first: bool = False,
) -> Game:
    """A game with seats offered online: ``invites`` links for friends, ``open_seats`` listed in
    the lobby. It waits for players until the host starts it; with no seat offered it is an
    ordinary game, started at once (``start_game``). ``BadGuests`` when a choice will not do,
    or when the host keeps ``MAX_WAITING_GAMES`` games waiting already (nothing is changed)."""
    if invites < 0 or open_seats < 0:
        raise BadGuests("The number of seats offered cannot be negative.")
    if invites + open_seats == 0:
        return start_game(
            owner=owner,
            kind=kind,
            guests=guests,
            computers=computers,
            roll_for_first=roll_for_first,
        )
    names = guest_names(guests, owner=owner)
    bots = computer_seats(computers)
    if 1 + len(names) + len(bots) + invites + open_seats > MAX_SEATS:
        raise BadGuests(f"A game has at most {MAX_SEATS} players, you included.")
    # Nothing is used yet: each account uses a trial game when the host starts the game.
    licensing.check_can_start(user=owner)
    if turn_limit is not None and turn_limit not in TURN_LIMITS:
        raise BadGuests("Choose a time limit from the list.")
    _check_waiting_games(owner)
    remember_guests(owner, names)
    game = Game.objects.create(
        owner=owner,
        kind=rules.KINDS[kind].key,
        status=GameStatus.WAITING,
        turn_limit=turn_limit,
        roll_for_first=roll_for_first,
    )
    host = _new_seat(game, 0, str(owner), user=owner)
    Seat.objects.bulk_create([host, *_guest_and_computer_seats(game, names, bots)])
    Invitation.objects.bulk_create(
        Invitation(game=game, token=secrets.token_urlsafe(32), open_to_all=offered >= invites)
        for offered in range(invites + open_seats)
    )
    return game


def _waiting_game(game_id: int) -> Game:
    """The game, locked, if it still waits for players."""
    game = Game.objects.select_for_update().get(pk=game_id)
    _require_waiting(game)
    return game


def _require_waiting(game: Game) -> None:
    if game.status != GameStatus.WAITING:
        raise InvitationError(
            "This game has already started." if game.is_in_progress else "This game is over."
        )


@prepared.atomic
def join_game(*, token: str, user: User) -> Game:
    """Take the seat an invitation offers. Following it again once seated changes nothing.

    ``InvitationError`` for an unknown, revoked or taken invitation, a lobby seat closed
    (``LOBBY_SEAT_LIFETIME``), or a game no longer waiting; ``licensing.TrialOver`` for an
    account with no trial game left to play it with.
    """
    game_id = Invitation.objects.filter(token=token).values_list("game_id", flat=True).first()
    if game_id is None:
        raise InvitationError("This invitation link is not valid: check that it was copied whole.")
    # Locked first: racing players (or one account through two links at once) take the seats
    # one at a time, and each sees the seats taken before it.
    game = Game.objects.select_for_update().get(pk=game_id)
    if Seat.objects.filter(game_id=game_id, user=user).exists():
        return game
    _require_waiting(game)
    invitation = Invitation.objects.get(token=token)
    if invitation.revoked_at is not None:
        raise InvitationError("The host has withdrawn this invitation.")
    if invitation.seat_id is not None:
        raise InvitationError("Someone else has taken this seat.")
    if invitation.closed_in_lobby(timezone.now()):
        raise InvitationError(LOBBY_SEAT_CLOSED)
    if invitation.for_user_id is not None and invitation.for_user_id != user.pk:
        raise InvitationError("This seat is kept for another player.")
    licensing.check_can_start(user=user)
    last = Seat.objects.filter(game=game).order_by("-position").values_list("position", flat=True)
    seat = _new_seat(game, last[0] + 1, str(user), user=user)
    seat.save()
    invitation.seat = seat
    invitation.save(update_fields=["seat"])
    _save_game(game)
    return game


@prepared.atomic
def rematch(*, game_id: int, user: User) -> Game:
    """The same players again, same kind and settings: a new game waiting for them, with a seat
    kept for each other account (they accept from the old game's page). Whoever asks first
    hosts it; asking again, by anyone, leads to the same game."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    old = seated.game
    if old.rematch_id is not None:
        return Game.objects.get(pk=old.rematch_id)
    if old.status not in (GameStatus.FINISHED, GameStatus.ABANDONED):
        raise GameNotInProgress("A rematch follows a game that is over.")
    others = [s for s in seated.seats if s.user_id not in (None, user.pk)]
    if not others:
        raise rules.IllegalMove("Nobody else to play again with: start a new game.")
    licensing.check_can_start(user=user)
    hosting = old.owner_id == user.pk
    guests = [s.display_name for s in seated.seats if s.player_kind == PlayerKind.GUEST]
    game = Game.objects.create(
        owner=user,
        kind=old.kind,
        status=GameStatus.WAITING,
        turn_limit=old.turn_limit,
        roll_for_first=old.roll_for_first,
    )
    computers = [
        (s.bot, s.display_name) for s in seated.seats if s.player_kind == PlayerKind.COMPUTER
    ]
    Seat.objects.bulk_create(
        [
            _new_seat(game, 0, str(user), user=user),
            *_guest_and_computer_seats(game, guests if hosting else [], computers),
        ]
    )
    Invitation.objects.bulk_create(
        Invitation(game=game, token=secrets.token_urlsafe(32), for_user_id=seat.user_id)
        for seat in others
    )
    old.rematch = game
    _save_game(old, "rematch")
    return game


def _hosted(game_id: int, user: User) -> Game:
    game = _waiting_game(game_id)
    if game.owner_id != user.pk:
        raise NotYourTurn("Only the host can do that.")
    return game


@prepared.atomic
def revoke_invitation(*, game_id: int, user: User, invitation_id: int) -> Game:
    """Withdraw a seat not yet taken; its link then says so."""
    game = _hosted(game_id, user)
    withdrawn = Invitation.objects.filter(
        pk=invitation_id, game=game, seat__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    if not withdrawn:
        raise InvitationError("That seat is already taken or withdrawn.")
    _save_game(game)
    return game


def _close_ranks(seats: Sequence[Seat]) -> None:
    """Number the seats left 0, 1, 2, … again in their order, so that a position is also the
    seat's place in the turn order (``Game.current_seat``). One at a time, lowest first: each
    moves into a place already freed, whatever order the database checks uniqueness in."""
    for position, seat in enumerate(seats):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])


@prepared.atomic
def begin_game(*, game_id: int, user: User) -> SeatedGame:
    """The host starts a waiting game: seats not taken are dropped, and each account seated uses
    one of its own trial games. A player whose last trial game went meanwhile is dropped (the
    host's own ``TrialOver`` stops the start)."""
    game = _hosted(game_id, user)
    Invitation.objects.filter(game=game, seat__isnull=True, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    seated = selectors.seated_game(game_id=game_id, user=user)
    keep: list[Seat] = []
    for seat in seated.seats:
        if seat.user is not None:
            try:
                seat.used_trial_game = licensing.use_trial_game(user=seat.user)
            except licensing.LicenceError:
                if seat.user_id == game.owner_id:
                    raise
                seat.delete()
                continue
        keep.append(seat)
    Seat.objects.bulk_update(keep, ["used_trial_game"])
    _close_ranks(keep)
    seated = replace(seated, seats=keep)
    seated.game.status = GameStatus.IN_PROGRESS
    first_roll.begin(seated)
    turn_marks.mark(seated)
    _save_game(seated.game, "status", *FIRST_FIELDS)
    return seated


@prepared.atomic
def take_hint(*, game_id: int, user: User, version: int) -> tuple[SeatedGame, strategy.Hint]:
    """The best move for the dice on the table, and the next ones, for the player on turn.

    The hint is counted on the seat: a score played with hints is marked so in the high
    scores. It changes nothing else, so the game's version stays as it is.
    """
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    seat = _check_turn(seated, user=user, version=version)
    turn = seated.game.turn()
    if not turn.has_rolled:
        raise rules.IllegalMove("Roll first: a hint weighs the dice on the table.")
    players = len(seated.seats)
    found = advice.advisor().hint(
        seat.sheet(seated.game.rules_kind), turn, players=players, alternatives=2
    )
    seat.hints += 1
    seat.save(update_fields=["hints"])
    return seated, found


@prepared.atomic
def set_held(*, game_id: int, user: User, version: int, held: Sequence[bool]) -> SeatedGame:
    """Hold exactly the dice marked ``True`` (and release the others) before the next roll."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    _check_turn(seated, user=user, version=version)
    after, _ = seated.match().hold(seated.game.current_seat, held)
    seated.game.set_turn(after.turn)
    _save_game(seated.game, "held")
    return seated


@prepared.atomic
def roll_dice(
    *,
    game_id: int,
    user: User,
    version: int,
    held: Sequence[bool] | None = None,
    dice_source: rules.DiceSource | None = None,
) -> SeatedGame:
    """Roll every die that is not held; ``held``, when given, is applied first."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    _check_turn(seated, user=user, version=version)
    return roll_for_seat_on_turn(seated, held=held, dice_source=dice_source)


def roll_for_seat_on_turn(
    seated: SeatedGame,
    *,
    held: Sequence[bool] | None = None,
    dice_source: rules.DiceSource | None = None,
) -> SeatedGame:
    """The seat on turn holds ``held`` (on a re-roll) and rolls, through the Match: saved and
    logged. Callers have checked who may act (a person on turn, or the computer's seat)."""
    game, seat = seated.game, seated.current
    match = seated.match()
    if held is not None and match.turn.has_rolled:
        match, _ = match.hold(game.current_seat, held)
    after, rolled = match.roll(game.current_seat, dice_source or rules.system_dice)
    game.set_turn(after.turn)
    game.undo = None  # new dice are seen: the last scoring is final
    _save_game(game, *TURN_FIELDS)
    record = rules.Roll(dice=rolled.dice, held=rolled.held, roll_number=rolled.roll_number)
    _log(game, seat, game.round, record)
    return replace(seated, record=record, actor=game.current_seat)


@prepared.atomic
def score_box(
    *,
    game_id: int,
    user: User,
    version: int,
    box: str,
    column: int = 0,
    confirm_zero: bool = False,
) -> SeatedGame:
    """Fill ``box`` with the dice on the table, end the turn, and end the game after the last.

    With ``confirm_zero``, a scoring that would enter a zero raises ``ZeroNeedsConfirmation``
    instead, changing nothing.
    """
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    seat = _check_turn(seated, user=user, version=version)
    game = seated.game
    played_round = game.round
    match = seated.match()
    if confirm_zero and match.verify_score(game.current_seat, box, column) == 0:
        raise ZeroNeedsConfirmation(seated, box, column)
    before = {
        "seat": game.current_seat,
        "cards": seat.cards,
        "yahtzee_bonuses": seat.yahtzee_bonuses,
        "yahtzees": seat.yahtzees,
        "dice": game.dice,
        "held": game.held,
        "rolls_used": game.rolls_used,
        "round": game.round,
    }
    after, scored = match.score(game.current_seat, box, column)
    record = scoring_of(scored)
    game.undo = before | {"box": record.box, "column": record.column, "points": record.points}
    _end_turn(seated, after)
    _log(game, seat, played_round, record)
    return replace(seated, record=record, actor=seated.seats.index(seat))


@prepared.atomic
def undo_score(*, game_id: int, user: User, version: int) -> SeatedGame:
    """Take back the box just filled: the card, the dice and the rolls left are as they were
    before it. Only the player who scored, and only until anyone rolls; the undo is logged."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    game = seated.game
    game.require_in_play(version)
    if not game.undo:
        raise rules.IllegalMove("There is no box to take back: the dice have moved on.")
    before = game.undo
    seat = seated.seats[before["seat"]]
    if not seat.played_by(user.pk):
        raise NotYourTurn(f"Only {seat.display_name} can take back that box.")
    after, undone = seated.match().undo_scoring(before["seat"])
    seat.set_sheet(after.sheets[before["seat"]])
    prepared.update(seat, ["cards", "yahtzee_bonuses", "yahtzees"])
    game.set_turn(after.turn)
    assert after.current is not None
    game.current_seat, game.round, game.undo = after.current, after.round, None
    turn_marks.mark(seated)
    _save_game(game, *TURN_FIELDS, "current_seat", "round")
    _log_seat_event(
        game,
        seat,
        MoveAction.UNDO,
        dice=game.dice,
        column=undone.column,
        box=undone.box,
        points=before["points"],
    )
    return seated


def scoring_of(scored: rules.Scored) -> rules.Scoring:
    """A Match's ``Scored`` event as the log and the pages read a scoring."""
    return rules.Scoring(
        column=scored.column,
        box=scored.box,
        points=scored.points,
        yahtzee_bonus=scored.yahtzee_bonus,
        dice=scored.dice,
        joker=scored.joker,
        upper_bonus=scored.upper_bonus,
    )


def _end_turn(seated: SeatedGame, after: rules.Match) -> None:
    """Save what the Match made of the turn's end: the next seat on turn and its round, or
    the end of the game (finished, every card full; or abandoned, nobody left)."""
    game, seat, kind = seated.game, seated.current, seated.game.rules_kind
    for s, sheet in zip(seated.seats, after.sheets, strict=True):
        s.set_sheet(sheet)
    game.set_turn(after.turn)
    if after.phase is rules.MatchPhase.ABANDONED:
        game.undo, game.status, game.finished_at = None, GameStatus.ABANDONED, timezone.now()
        for s in seated.seats:
            s.game_over = True
        Seat.objects.filter(game=game).update(game_over=True)
    elif after.phase is rules.MatchPhase.FINISHED:
        game.undo = None  # the result is entered at once: the game's last box is final
        game.status = GameStatus.FINISHED
        game.finished_at = timezone.now()
        game.round = kind.rounds
        # One plain UPDATE a seat (at most six): cheaper than one bulk_update's CASE per column.
        for s in seated.seats:
            s.grand_total = s.sheet(kind).grand_total
            s.game_over = True
            card = ["cards", "yahtzee_bonuses", "yahtzees"] if s is seat else []
            prepared.update(s, [*card, "grand_total", "game_over"])
        _record_scores(seated)
    else:
        assert after.current is not None
        game.current_seat, game.round = after.current, after.round
        turn_marks.mark(seated, but=seat)  # the player's own flag goes with their card:
        prepared.update(seat, ["cards", "yahtzee_bonuses", "yahtzees", "on_turn"])
    if game.status != GameStatus.IN_PROGRESS:
        turn_marks.mark(seated)
    _save_game(game, *TURN_FIELDS, "current_seat", "round", "status", "finished_at")


def _record_scores(seated: SeatedGame) -> None:
    """Copy each seat's result into the high scores, noting where it enters them."""
    game = seated.game
    assert game.finished_at is not None
    scores = Score.objects.bulk_create(
        Score(
            seat=seat,
            game=game,
            kind=game.kind,
            player_kind=seat.player_kind,
            user_id=seat.user_id,
            display_name=seat.display_name,
            grand_total=seat.grand_total or 0,
            upper_bonuses=sum(1 for card in seat.cards if rules.totals(card)["upper_bonus"]),
            yahtzees=seat.yahtzees,
            yahtzee_bonuses=seat.yahtzee_bonuses,
            hints=seat.hints,
            finished_at=game.finished_at,
        )
        for seat in seated.seats
        if not seat.resigned  # a resigned player's score is never entered
    )
    for score in scores:
        if entry := selectors.high_score_entry(score, now=game.finished_at):
            score.high_score_rank, score.high_score_period = entry
            score.save(update_fields=["high_score_rank", "high_score_period"])


# --- Leaving a game in play: resign, or skip an idle player ---------------------------------


def _log_seat_event(
    game: Game, seat: Seat, action: str, *, dice: Sequence[int] = (), **fields: Any
) -> None:
    """Log what a seat did besides a roll or a scoring (undo, resign, skip, end), numbered by
    the version it made."""
    prepared.insert(
        Move(
            game=game,
            seat=seat,
            seq=game.version,
            round=game.round,
            action=action,
            dice=list(dice),
            **fields,
        )
    )


@prepared.atomic
def resign(*, game_id: int, user: User, version: int) -> SeatedGame:
    """Leave a game in play for good: the seat is passed over from now on and its score never
    entered. The others play on; when nobody is left, the game ends as abandoned."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    game = seated.game
    game.require_in_play(version)
    mine = seated.seat_of(user)
    if mine is None or mine.resigned:
        raise rules.IllegalMove("You have resigned from this game already.")
    if sum(1 for s in seated.seats if not s.resigned) < 2:
        raise rules.IllegalMove("You are the last player left: abandon the game instead.")
    on_turn = seated.current.pk == mine.pk
    after, _ = seated.match().resign(seated.seats.index(mine))
    mine.resigned, mine.game_over = True, True
    mine.save(update_fields=["resigned", "game_over"])
    if on_turn:
        game.undo = None
        _end_turn(seated, after)  # their dice are put aside unscored
    else:
        _save_game(game)
    _log_seat_event(game, mine, MoveAction.RESIGN)
    return seated


@prepared.atomic
def skip_turn(*, game_id: int, user: User, version: int) -> SeatedGame:
    """Skip the player on turn, idle past the game's time limit: a zero where the rules say
    (``rules.skipped_box``), then the next player. Any other player at the table may do it."""
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    game, seat = seated.game, seated.current
    game.require_in_play(version)
    if game.turn_limit is None:
        raise rules.IllegalMove("This game has no time limit: nobody can be skipped.")
    if seat.played_by(user.pk):
        raise rules.IllegalMove("You cannot skip your own turn.")
    if seat.player_kind != PlayerKind.HUMAN:
        raise rules.IllegalMove("Only a player on another device can be skipped.")
    idle = (timezone.now() - game.updated_at).total_seconds()
    if idle < game.turn_limit:
        wait = int(game.turn_limit - idle) + 1
        raise rules.IllegalMove(
            f"{seat.display_name} has {wait} more second{'s' if wait != 1 else ''} to play."
        )
    mine = seated.seat_of(user)
    if mine is None or mine.resigned:
        raise rules.IllegalMove("Only a player still in the game can skip another.")
    after, skipped = seated.match().skip(game.current_seat, by=seated.seats.index(mine))
    game.undo = None
    _end_turn(seated, after)
    _log_seat_event(
        game,
        seat,
        MoveAction.SKIP,
        column=skipped.column,
        box=skipped.box,
        points=0,
        by_position=mine.position,
    )
    return seated


@dataclass(frozen=True)
class Abandoned:
    seated: SeatedGame
    trial_games_given_back: int
    """Trial games returned because the game ended before its first roll."""
    left: bool = False
    """Only the caller's seat was given up (a player leaving a game that has not started)."""


@prepared.atomic
def abandon_game(*, game_id: int, user: User) -> Abandoned:
    """End an unfinished game for good; it records no score. Only its host ends it for all;
    another player may leave a game that has not started yet, freeing the seat.

    A game abandoned before its first roll gives back the trial games it used: nothing was
    played. The game row stays locked until the end, so it gives them back at most once.
    """
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    game = seated.game
    if game.status not in (GameStatus.IN_PROGRESS, GameStatus.WAITING):
        raise GameNotInProgress("Only a game in progress can be abandoned.")
    if game.owner_id != user.pk:
        if game.status != GameStatus.WAITING:
            raise NotYourTurn("Only the host can end the game for everyone.")
        mine = seated.seat_of(user)
        assert mine is not None
        mine.delete()
        _close_ranks([seat for seat in seated.seats if seat.pk != mine.pk])
        _save_game(game)
        return Abandoned(seated=seated, trial_games_given_back=0, left=True)
    in_play = game.status == GameStatus.IN_PROGRESS
    host = seated.seat_of(user)
    assert host is not None
    if in_play:
        seated.match().verify_end(seated.seats.index(host))  # a host who resigned has left
    unplayed = not Move.objects.filter(game=game).exists()
    game.status = GameStatus.ABANDONED
    game.finished_at = timezone.now()
    turn_marks.mark(seated)
    _save_game(game, "status", "finished_at")
    if in_play:
        _log_seat_event(game, host, MoveAction.END)
    given_back = 0
    for seat in seated.seats:
        seat.game_over = True
        if unplayed and seat.used_trial_game and seat.user_id is not None:
            licensing.give_back_trial_game(user_id=seat.user_id)
            seat.used_trial_game = False
            given_back += 1
    Seat.objects.bulk_update(seated.seats, ["game_over", "used_trial_game"])
    return Abandoned(seated=seated, trial_games_given_back=given_back)
