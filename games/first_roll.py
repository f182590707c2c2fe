"""Who goes first (RULES.md): every player throws all five dice once, shown to all; the highest
total starts; players tied for it throw again among themselves. Computer players throw at once;
the host throws for the guests at their screen."""

from __future__ import annotations

from accounts.models import User
from games import rules, selectors, store
from games.errors import GameNotInProgress, NotYourTurn
from games.models import PlayerKind
from games.store import SeatedGame
from yahtzee_site import prepared


def begin(seated: SeatedGame) -> SeatedGame:
    """Start the match of a game whose seats are set: the draw for first when the game asks
    for it (computer players throw at once), else the first seat begins. Saved."""
    game = seated.game
    match = rules.Match.start(
        game.rules_kind,
        len(seated.seats),
        roll_for_first=game.roll_for_first,
        host=store.host_of(game, seated.seats),
    )
    return store.save(seated, computers_throw(seated, match))


def computers_throw(seated: SeatedGame, match: rules.Match) -> rules.Match:
    """Computer players throw for first at once, again after each tie they are in."""
    while waiting := [
        s
        for s in match.contenders
        if seated.seats[s].player_kind == PlayerKind.COMPUTER and match.can_roll_for_first(s)
    ]:
        match, _ = match.roll_for_first(waiting[0], rules.system_dice)
    return match


@prepared.atomic
def roll_for_first(
    *, game_id: int, user: User, version: int, dice_source: rules.DiceSource | None = None
) -> SeatedGame:
    """Throw for every contender seat ``user`` plays (their own; the host's guests too).

    The players throw at the same time and a throw involves no choice, so a throw is taken
    whatever version of the draw the player's page showed (``version`` is not checked): two
    players clicking at once both throw, and the Match alone says who may throw now.
    """
    seated = selectors.seated_game(game_id=game_id, user=user, lock=True)
    if not seated.game.is_in_progress:
        raise GameNotInProgress("This game is over.")
    match = seated.match()
    if match.phase is not rules.MatchPhase.ROLLING_FOR_FIRST:
        raise rules.IllegalMove("Who goes first is already decided.")
    mine = [
        s
        for s in match.contenders
        if match.first_rolls[s] is None and seated.seats[s].played_by(user.pk)
    ]
    if not mine:
        raise NotYourTurn("You have rolled for first: the others roll now.")
    source = dice_source or rules.system_dice
    for seat in mine:
        match, _ = match.roll_for_first(seat, source)
    return store.save(seated, computers_throw(seated, match))
