"""Who may watch a finished card, and a player's link that shows theirs to anyone.

A card can be watched by the players of its game, by anyone while it stands in a public top ten
(``scores.selectors.public_rank``), and by anyone holding the link its own player made (opt-in,
withdrawn at will: the row goes and the link answers 404 from then on). A daily challenge's
card is its player's alone until its day is over: its dice are everyone's dice that day. After,
anyone may watch it while it is among the rows its day's board shows (the top ten never ranks
a challenge). A tournament's game is sealed while its tournament runs, for everyone, its own
player too (``sealed``): every entrant throws the same faces. Once over, anyone who may read
its standings may watch it: its entrants, anyone for a listed one, and anyone holding its link
through the link's own replay address (``tournament_seat``: the standings link each score there,
as a private tournament's link is all its visitors hold).
"""

from __future__ import annotations

import secrets

from django.db import transaction

from accounts.models import User
from games.daily import selectors as daily_selectors
from games.daily.services import today
from games.errors import GameError, GameNotFound, TournamentSealed
from games.models import GameStatus, PlayerKind, Score, Seat, SharedGame
from games.scores.selectors import public_rank
from games.tournaments import selectors as tournaments

SEALED = (
    "This game is of a tournament still running: every entrant throws the same dice, so its "
    "replay, analysis and shared card open once the tournament is over."
)

TOKEN_BYTES = 32
"""256 random bits in the link: it can be guessed no better than a key."""


class NotFinished(GameError):
    """Only a finished game's card can be shared (answered 409, as a refusal of the moment)."""


def finished_seat(game_id: int, position: int) -> Seat | None:
    """The card at ``position`` of a finished game, with its game; ``None`` if there is none."""
    return (
        Seat.objects.select_related("game")
        .filter(game_id=game_id, position=position, game__status=GameStatus.FINISHED)
        .first()
    )


def tournament_seat(token: str, game_id: int) -> tuple[Seat | None, bool]:
    """The finished card of game ``game_id`` of the tournament whose link holds ``token``, and
    whether it is still sealed (the tournament not over); ``(None, False)`` when that
    tournament has no such finished game."""
    seat = (
        Seat.objects.select_related("game")
        .filter(
            game_id=game_id,
            position=0,
            game__status=GameStatus.FINISHED,
            game__tournament__token=token,
        )
        .first()
    )
    if seat is None:
        return None, False
    return seat, sealed(seat)


def may_watch(seat: Seat, viewer: User | None) -> bool:
    """Whether ``viewer`` (``None``: logged out) may watch ``seat``'s finished card: one of the
    game's players may, anyone may while it stands in a public top ten (a challenge, once its
    day is over, while it is on its day's board; a tournament's, once it is over, for those who
    may read its standings)."""
    if sealed(seat):
        return False
    if viewer is not None and Seat.objects.filter(game_id=seat.game_id, user=viewer).exists():
        return True
    if secret_today(seat):
        return False
    if (day := seat.game.challenge_day) is not None:
        return daily_selectors.on_board(day, seat.game_id)
    if (tournament := tournaments.game_tournament(seat.game)) is not None:
        return tournament.listed or tournaments.entered(tournament, viewer)
    score = Score.objects.filter(seat=seat).first()
    return score is not None and public_rank(score) is not None


def secret_today(seat: Seat) -> bool:
    """Whether ``seat`` is of a daily challenge whose day is not over yet."""
    day = seat.game.challenge_day
    return day is not None and day >= today()


def sealed(seat: Seat) -> bool:
    """Whether ``seat`` is of a tournament that is not over yet (its dice are sealed)."""
    tournament = tournaments.game_tournament(seat.game)
    return tournament is not None and not tournament.is_over


def shared_seat(token: str) -> Seat | None:
    """The card a live shared link shows, with its game; ``None`` for a link never made or
    withdrawn."""
    shared = SharedGame.objects.select_related("seat__game").filter(token=token).first()
    if shared is None or shared.seat.game.status != GameStatus.FINISHED:
        return None
    if secret_today(shared.seat) or sealed(shared.seat):
        return None
    return shared.seat


def link_of(seat: Seat) -> str | None:
    """The token of ``seat``'s live shared link, if it has one."""
    return SharedGame.objects.filter(seat=seat).values_list("token", flat=True).first()


def _own_seat(*, user: User, game_id: int, position: int) -> Seat:
    """``user``'s own card at ``position`` (locked), else ``GameNotFound``: another player's
    card, a guest's or a computer's is nobody's to share, and looks the same as no card."""
    seat = (
        Seat.objects.select_for_update()
        .select_related("game")
        .filter(game_id=game_id, position=position, user=user, player_kind=PlayerKind.HUMAN)
        .first()
    )
    if seat is None:
        raise GameNotFound("There is no such card of yours.")
    return seat


@transaction.atomic
def share_card(*, user: User, game_id: int, position: int) -> SharedGame:
    """Make (or keep) the link to ``user``'s own finished card; sharing twice gives one link."""
    seat = _own_seat(user=user, game_id=game_id, position=position)
    if seat.game.status != GameStatus.FINISHED:
        raise NotFinished("Only a finished game can be shared.")
    if secret_today(seat):
        raise NotFinished(
            "A daily challenge can be shared once its day is over: until then its dice are "
            "the same for everyone who plays it."
        )
    if sealed(seat):
        raise TournamentSealed(SEALED)
    shared, _ = SharedGame.objects.get_or_create(
        seat=seat, defaults={"token": secrets.token_urlsafe(TOKEN_BYTES)}
    )
    return shared


@transaction.atomic
def withdraw_card(*, user: User, game_id: int, position: int) -> None:
    """Withdraw the link to ``user``'s own card: it answers 404 from now on."""
    seat = _own_seat(user=user, game_id=game_id, position=position)
    SharedGame.objects.filter(seat=seat).delete()
