"""One game in progress, and the one door every action on it goes through.

Like boardgame.io's master: load the game (locked), check the version the player saw, say which
seat the request speaks for, let the ``Match`` play the action (every rule is checked there, and
nowhere else), let the coach grade a person's decision (``games.play.coach``: the player's
option), save what it made (``store.save``, which also tells every open page). A person's
move, a guest's at the host's screen, a computer's step and a throw for first alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts import licensing
from accounts.models import User
from games import advice, events, rules, store, strategy
from games.coaching import Coaching
from games.daily import clock as daily_clock
from games.daily import dice as daily_dice
from games.errors import GameError, GameNotInProgress, StaleGame
from games.models import GameStatus, Move, Seat
from games.play import coach
from games.rules import actions
from games.store import SeatedGame

Choose = Callable[[rules.Match, rules.Player], rules.Action]
"""What the request asks, given the match and the seat of the person asking."""


def _load(
    game_id: int, user: User, version: int | None, now: datetime | None = None
) -> tuple[SeatedGame, rules.Match]:
    """The game, locked, at the version the request was made against (``None``: any, for an
    action meant to be taken whatever the page showed), with its match; a game of a day's
    challenge only while that day lasts (``now``: the clock, for tests)."""
    table = store.load(game_id=game_id, user=user, lock=True)
    _verify_counts(table, now)
    if version is not None and version != table.game.version:
        raise StaleGame("The game has moved on since this page was shown; here is where it is now.")
    if table.loaded is None:
        raise GameNotInProgress("This game has not started yet.")
    return table, table.loaded


def _verify_counts(table: SeatedGame, now: datetime | None) -> None:
    """Refuse to move a game of a day's challenge once its day is over (``ChallengeClosed``):
    it no longer counts, and from midnight the day's dice and perfect play on them are shown
    to anyone (``games.daily``). Only abandoning it is left (``abandon_game`` does not ask)."""
    if table.game.status == GameStatus.IN_PROGRESS:
        daily_clock.verify_open(table.game.challenge_day, now)


def act(
    *,
    game_id: int,
    user: User,
    version: int | None,
    choose: Choose,
    dice: rules.DiceSource | None = None,
    now: datetime | None = None,
) -> SeatedGame:
    """Play what ``choose`` asks for ``user`` and save it: the door of every action.

    The dice are chosen here and nowhere else: a day's challenge throws the day's dice for the
    positions the action throws (``games.daily.dice``), any other game ``dice`` or the system's.
    A day's challenge moves only while its day lasts (at ``now``, the clock unless given).
    """
    table, match = _load(game_id, user, version, now)
    action = choose(match, table.position_of(user))
    thrown = daily_dice.source_for(table.game.challenge_day, match, action)
    after = match.act(action, thrown or dice or rules.system_dice)
    return _saved(table, after, coach.review(table, match, action, user))


def _saved(
    table: SeatedGame,
    after: rules.Match,
    coaching: Coaching | None = None,
    *,
    by: User | None = None,
) -> SeatedGame:
    """``store.save`` (with what the coach made of the move), every room that listens told of
    the move (``games.events``), and what the page shows of the move just made (a roll or a
    scoring)."""
    moved = store.save(table, after, coaching, by=by)
    events.tell(moved)
    saved = replace(table, loaded=after)
    shown = [e for e in moved.events if isinstance(e, rules.Rolled | rules.Scored)]
    if not shown:
        return saved
    event = shown[-1]
    record: rules.Roll | rules.Scoring
    if isinstance(event, rules.Rolled):
        record = rules.Roll(dice=event.dice, held=event.held, roll_number=event.roll_number)
    else:
        record = scoring_of(event)
    return replace(saved, record=record, actor=event.seat)


def begin(table: SeatedGame, *, by: User | None = None) -> SeatedGame:
    """The match of a game whose seats are set begins, as its rows say it was set up
    (computer players throw for first at once, when the game rolls for it). A table just laid
    and not yet written (a game started at once) is inserted as the match begins."""
    started = store.setup(table.game, table.seats)
    match = rules.Match.start(
        table.game.rules_kind,
        started.seats,
        roll_for_first=started.roll_for_first,
        host=started.host,
        players=started.players,
        turn_limit=started.turn_limit,
        dice=rules.system_dice,
    )
    return _saved(replace(table, loaded=None), match, by=by)


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


# --- A turn ---------------------------------------------------------------------------------


@transaction.atomic
def set_held(
    *,
    game_id: int,
    user: User,
    version: int,
    held: Sequence[bool],
    now: datetime | None = None,
) -> SeatedGame:
    """Hold exactly the dice marked ``True`` (and release the others) before the next roll."""
    return act(
        game_id=game_id,
        user=user,
        version=version,
        choose=lambda _, by: actions.Hold(by, tuple(held)),
        now=now,
    )


@transaction.atomic
def roll_dice(
    *,
    game_id: int,
    user: User,
    version: int,
    held: Sequence[bool] | None = None,
    dice_source: rules.DiceSource | None = None,
    now: datetime | None = None,
) -> SeatedGame:
    """Roll every die that is not held; ``held``, when given, is chosen first."""
    kept = tuple(held) if held is not None else None
    return act(
        game_id=game_id,
        user=user,
        version=version,
        choose=lambda _, by: actions.Roll(by, kept),
        dice=dice_source,
        now=now,
    )


class ZeroNeedsConfirmation(GameError):
    """Scoring would put a zero in the box; the player is asked first."""

    def __init__(self, seated: SeatedGame, box: str, column: int) -> None:
        self.seated, self.box, self.column = seated, rules.Box(box), column
        super().__init__(f"Score 0 in {self.box.label}?")


@transaction.atomic
def score_box(
    *,
    game_id: int,
    user: User,
    version: int,
    box: str,
    column: int = 0,
    confirm_zero: bool = False,
    now: datetime | None = None,
) -> SeatedGame:
    """Fill ``box`` with the dice on the table, end the turn, and end the game after the last.

    With ``confirm_zero``, a scoring that would enter a zero raises ``ZeroNeedsConfirmation``
    instead, changing nothing.
    """
    table, match = _load(game_id, user, version, now)
    scoring = actions.Score(table.position_of(user), box, column)
    if confirm_zero and match.verify_score(match.seat_for(scoring.by), box, column) == 0:
        raise ZeroNeedsConfirmation(table, box, column)
    return _saved(table, match.act(scoring), coach.review(table, match, scoring, user))


@transaction.atomic
def undo_score(
    *, game_id: int, user: User, version: int, now: datetime | None = None
) -> SeatedGame:
    """Take back the box just filled: the card, the dice and the rolls left are as they were
    before it. Only the player who scored, and only until anyone rolls; the undo is logged."""
    return act(
        game_id=game_id,
        user=user,
        version=version,
        choose=lambda _, by: actions.Undo(by),
        now=now,
    )


@transaction.atomic
def take_hint(
    *, game_id: int, user: User, version: int, now: datetime | None = None
) -> tuple[SeatedGame, strategy.Hint]:
    """The best move for the dice on the table, and the next ones, for the player on turn.

    The hint is counted on the seat: a score played with hints is marked so in the high
    scores. It changes nothing else, so the game's version stays as it is.
    """
    table, match = _load(game_id, user, version, now)
    if table.game.challenge_day is not None:
        raise NoHintsInChallenge(
            "No hints in the daily challenge: everyone plays the same dice on their own."
        )
    by = table.position_of(user)
    match.verify_hint(by)
    seat = match.seat_for(by)
    found = advice.advisor().hint(
        match.sheets[seat], match.turn, players=match.seats, alternatives=2
    )
    store.count_hint(table, seat)
    return table, found


class NoHintsInChallenge(GameError):
    """A hint asked for in a game of the daily challenge, where nobody gets one."""


# --- The draw for first ---------------------------------------------------------------------


@transaction.atomic
def throw_for_first(
    *,
    game_id: int,
    user: User,
    dice_source: rules.DiceSource | None = None,
    now: datetime | None = None,
) -> SeatedGame:
    """Throw for first for every seat ``user`` plays that has still to throw (their own; the
    host's guests too); computer players throw at once.

    The players throw at the same time and a throw involves no choice, so a throw is taken
    whatever version of the draw the player's page showed: two players clicking at once both
    throw, and the Match alone says who may throw now.
    """
    return act(
        game_id=game_id,
        user=user,
        version=None,
        choose=lambda _, by: actions.ThrowForFirst(by),
        dice=dice_source,
        now=now,
    )


# --- The computer's turns -------------------------------------------------------------------


@transaction.atomic
def play_computer(
    *,
    game_id: int,
    user: User,
    version: int,
    to_the_end: bool = False,
    now: datetime | None = None,
) -> SeatedGame:
    """Play the computer's next step (a roll, a hold and a roll, or a box), or with
    ``to_the_end`` every step until a person is on turn (or the game is over), through the
    same door as a person's move. A request made against an older version does nothing: the
    pages of several players may ask for the same step at once."""
    table = store.load(game_id=game_id, user=user, lock=True)
    match = table.loaded
    if match is None:
        raise GameNotInProgress("This game has not started yet.")
    if table.game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress("This game is over.")
    _verify_counts(table, now)
    after = match
    if table.game.version == version:
        while after.computer_on_turn:
            after = after.act(_computers_choice(table, after), rules.system_dice)
            if not to_the_end:
                break
    return _saved(table, after) if after is not match else table


def _computers_choice(table: SeatedGame, match: rules.Match) -> rules.Action:
    seat = match.on_turn
    assert seat is not None
    # Seeded by the game and how far it has gone: a replay of the same position decides the same.
    rng = random.Random(f"{table.game.pk}:{table.game.version}:{len(match.log)}")
    bot = strategy.make_bot(table.seats[seat].bot or "good", advice.advisor(), rng)
    decided = bot.decide(match.sheets[seat], match.turn)
    if isinstance(decided, strategy.RollDice):
        return actions.Roll(None, decided.held)
    return actions.Score(None, decided.box, decided.column)


# --- Leaving a game: resign, skip an idle player, the host's end -----------------------------


@transaction.atomic
def resign(*, game_id: int, user: User, version: int, now: datetime | None = None) -> SeatedGame:
    """Leave a game in play for good: the seat is passed over from now on and its score never
    entered. The others play on; when nobody is left, the game ends as abandoned."""
    return act(
        game_id=game_id,
        user=user,
        version=version,
        choose=lambda _, by: actions.Resign(_own(by)),
        now=now,
    )


@transaction.atomic
def skip_turn(*, game_id: int, user: User, version: int, now: datetime | None = None) -> SeatedGame:
    """Skip whoever keeps the game waiting past its time limit: the player on turn (a zero
    where ``rules.skipped_box`` says), or in the draw for first everyone still to throw."""
    table, match = _load(game_id, user, version, now)
    idle = ((now or timezone.now()) - table.game.updated_at).total_seconds()
    return _saved(table, match.act(actions.Skip(_own(table.position_of(user)), idle=idle)))


def _own(by: rules.Player) -> int:
    """A person's own seat (``store.load`` found one: they are seated)."""
    assert by is not None
    return by


@dataclass(frozen=True)
class Abandoned:
    seated: SeatedGame
    trial_games_given_back: int
    """Trial games returned because the game ended before its first roll."""
    left: bool = False
    """Only the caller's seat was given up (a player leaving a game that has not started)."""


@transaction.atomic
def abandon_game(*, game_id: int, user: User) -> Abandoned:
    """End an unfinished game for good; it records no score. Only its host ends it for all;
    another player may leave a game that has not started yet, freeing the seat. A game of a
    day's challenge may be abandoned after its day too: abandoning moves nothing.

    A game abandoned before its first roll gives back the trial games it used: nothing was
    played. The game row stays locked until the end, so it gives them back at most once.
    """
    from games.tables import services as tables

    table = store.load(game_id=game_id, user=user, lock=True)
    game = table.game
    if game.status == GameStatus.WAITING:
        if game.owner_id != user.pk:
            return Abandoned(seated=tables.leave(table, user), trial_games_given_back=0, left=True)
        ended = tables.close(table)
    else:
        unplayed = not Move.objects.filter(game=game).exists()
        ended = _saved(table, table.match().act(actions.End(_own(table.position_of(user)))))
        if not unplayed:
            return Abandoned(seated=ended, trial_games_given_back=0)
    given_back = []
    for seat in ended.seats:
        if seat.used_trial_game and seat.user_id is not None:
            licensing.give_back_trial_game(user_id=seat.user_id)
            seat.used_trial_game = False
            given_back.append(seat)
    Seat.objects.bulk_update(given_back, ["used_trial_game"])
    return Abandoned(seated=ended, trial_games_given_back=len(given_back))
