"""One game in progress, and the one door every action on it goes through: ``act``.

Like boardgame.io's master: load the game (locked), check the version the player saw, say which
seat the request speaks for, let the ``Match`` play the action (every rule is checked there, and
nowhere else: a challenge's "no help", the seat limit, a zero to confirm), save what it made
(``store.save``), and tell every room that listens what the move did (``games.events``: the
high scores, the day's results, the open pages, the coach, the turn mail, grading, the trainer).
A person's move, a guest's at the host's screen, a hint, a computer's steps, a throw for first,
a skip, a resignation and the host's end alike; the functions below only say what to ask.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import advice, events, rules, store, strategy
from games.daily import clock as daily_clock
from games.daily import dice as daily_dice
from games.errors import GameNotInProgress, StaleGame
from games.models import GameStatus
from games.rules import actions
from games.store import SeatedGame
from games.tournaments import closing as tournament_closing
from games.tournaments import dice as tournament_dice


@dataclass(frozen=True)
class ComputersTurn:
    """The computer's next step (a roll, a hold and a roll, or a box), or with ``to_the_end``
    each step until a person is on turn. Asked against an older version it does nothing: the
    pages of several players may ask for the same step at once."""

    to_the_end: bool


Asked = rules.Action | ComputersTurn
Choose = Callable[[SeatedGame, rules.Player], Asked]
"""What the request asks, given the table and the seat of the person asking."""


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

    ``version`` is the one the request was made against (``None``: any, for an action meant
    whatever the page showed: a throw for first). A day's challenge moves only while its day
    lasts (at ``now``, the clock unless given), a tournament's game until the tournament ends.
    The dice are chosen here and nowhere else: a day's challenge throws the day's dice for the
    positions the action throws (``games.daily.dice``), a tournament's game the tournament's
    (``games.tournaments.dice``), any other game ``dice`` or the system's.
    """
    table = store.load(game_id=game_id, user=user, lock=True)
    match = table.loaded
    if match is None:
        raise GameNotInProgress("This game has not started yet.")
    asked = choose(table, table.position_of(user))
    if table.game.status == GameStatus.IN_PROGRESS and not isinstance(asked, actions.End):
        # A day's challenge no longer counts once its day is over: it may only be abandoned.
        daily_clock.verify_open(table.game.challenge_day, now)
        # Nor does a tournament's once it has ended (its host ended it, every game is over, or
        # its set end has come).
        tournament_closing.verify_open(table.game.tournament_id, now)
    if version is not None and version != table.game.version:
        if isinstance(asked, ComputersTurn):
            return table  # another page asked for this step first
        raise StaleGame("The game has moved on since this page was shown; here is where it is now.")
    if isinstance(asked, ComputersTurn):
        after = _computers_steps(table, match, to_the_end=asked.to_the_end)
    else:
        thrown = daily_dice.source_for(
            table.game.challenge_day, match, asked
        ) or tournament_dice.source_for(table.game.tournament_id, match, asked)
        after = match.act(asked, thrown or dice or rules.system_dice)
    if after is match:
        return table
    return _saved(table, after, by=user)


def _saved(table: SeatedGame, after: rules.Match, *, by: User | None) -> SeatedGame:
    """``store.save``, every room that listens told of the move, and what the page shows of the
    move just made (a roll or a scoring)."""
    moved = store.save(table, after, by=by)
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
    match = rules.Match.begin(store.setup(table.game, table.seats), rules.system_dice)
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


def _asking(action: Asked) -> Choose:
    return lambda *_: action


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

    With ``confirm_zero``, a scoring that would enter a zero is refused with the question
    (``rules.ZeroToConfirm``), changing nothing.
    """
    return act(
        game_id=game_id,
        user=user,
        version=version,
        choose=lambda _, by: actions.Score(by, box, column, ask_before_zero=confirm_zero),
        now=now,
    )


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
    """The best move for the dice on the table, and the next ones, for the player on turn
    (where the match gives help: never in a challenge).

    The hint is counted on the seat: a score played with hints is marked so in the high
    scores. It changes nothing else, so the game's version stays as it is.
    """
    table = act(
        game_id=game_id,
        user=user,
        version=version,
        choose=lambda _, by: actions.Hint(by),
        now=now,
    )
    match = table.match()
    seat = match.on_turn
    assert seat is not None  # the hint was shown to the seat on turn
    found = advice.advisor(match.kind).hint(
        match.sheets[seat], match.turn, players=match.seats, alternatives=2
    )
    return table, found


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
    """Play the computer's next step, or with ``to_the_end`` every step until a person is on
    turn (or the game is over), through the same door as a person's move (``ComputersTurn``)."""
    return act(
        game_id=game_id,
        user=user,
        version=version,
        choose=_asking(ComputersTurn(to_the_end)),
        now=now,
    )


def _computers_steps(table: SeatedGame, match: rules.Match, *, to_the_end: bool) -> rules.Match:
    if match.is_over:
        match._verify_seat(0)  # says how it ended
    after = match
    while after.computer_on_turn:
        after = after.act(_computers_choice(table, after), rules.system_dice)
        if not to_the_end:
            break
    return after


def _computers_choice(table: SeatedGame, match: rules.Match) -> rules.Action:
    seat = match.on_turn
    assert seat is not None
    # Seeded by the game and how far it has gone: a replay of the same position decides the same.
    rng = random.Random(f"{table.game.pk}:{table.game.version}:{len(match.log)}")
    bot = strategy.make_bot(table.seats[seat].bot or "good", advice.advisor(match.kind), rng)
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

    def skipping(table: SeatedGame, by: rules.Player) -> rules.Action:
        idle = ((now or timezone.now()) - table.game.updated_at).total_seconds()
        return actions.Skip(_own(by), idle=idle)

    return act(game_id=game_id, user=user, version=version, choose=skipping, now=now)


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
    """End an unfinished game for good; it records no score. Only its host ends it for all
    (``End``, refused by the Match to anyone else); another player may leave a game that has
    not started yet, freeing the seat. A game of a day's challenge may be abandoned after its
    day too: abandoning moves nothing.

    A game abandoned before its first roll gives back the trial games it used (the tables
    listen for that: ``games.tables.events``); the game row stays locked until the end, so at
    most once.
    """
    from games.tables import services as tables

    table = store.load(game_id=game_id, user=user, lock=True)
    if table.game.status == GameStatus.WAITING:
        if table.game.owner_id != user.pk:
            return Abandoned(seated=tables.leave(table, user), trial_games_given_back=0, left=True)
        return Abandoned(seated=tables.close(table), trial_games_given_back=0)
    ended = act(
        game_id=game_id, user=user, version=None, choose=lambda _, by: actions.End(_own(by))
    )
    given_back = sum(
        1
        for before, after in zip(table.seats, ended.seats, strict=True)
        if before.used_trial_game and not after.used_trial_game
    )
    return Abandoned(seated=ended, trial_games_given_back=given_back)
