"""The fuzzer's world: who asks (personas) and what there is to ask about (games in every state,
invitations, trainer positions, shared cards, mail tokens), built once through the site's own
services, so that every id and token the walker tries is one a real user could have."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts import licensing, mailing
from accounts.models import TRIAL_GAMES, Serial, SerialBatch, User
from games.daily import services as daily
from games.models import Game, Invitation
from games.play import actions as play
from games.ratings.models import Rating, RatingChange, SeasonRating
from games.review import sharing
from games.tables import services as tables
from games.tournaments import services as tournaments
from games.trainer import services as trainer
from games.watching import services as watching
from tests.factories import make_user, play_out, roll_now, score_now
from tests.licensing.licensing_support import KNOWN

PERSONAS = ("visitor", "host", "seated", "stranger", "trial_over", "unconfirmed", "staff")
"""Who a request comes from: nobody logged in; the host of every game; a second account seated
at the online games; an account seated nowhere; one with no trial game left; one whose address
is not confirmed; the site's staff (the admin)."""


@dataclass
class World:
    users: dict[str, User]
    games: dict[str, Game] = field(default_factory=dict)
    """Games by state: ``waiting``, ``drawing`` (roll for first), ``playing`` …, ``over``."""
    invitations: list[int] = field(default_factory=list)
    tokens: dict[str, list[str]] = field(default_factory=dict)
    """Real tokens by the URL parameter that takes them (join, unsubscribe, shared, …)."""
    positions: list[int] = field(default_factory=list)
    """The host's trainer positions."""

    def client(self, persona: str, *, csrf: bool = False) -> Client:
        client = Client(raise_request_exception=False, enforce_csrf_checks=csrf)
        if persona != "visitor":
            client.force_login(self.users[persona])
        # A browser that has opened a page holds the CSRF cookie: checks then read the body.
        client.get("/")
        assert "csrftoken" in client.cookies, persona
        return client


def build() -> World:
    users = {
        "host": make_user("fuzzhost", display_name="Hostess"),
        "seated": make_user("fuzzseated", display_name="Seated"),
        "stranger": make_user("fuzzstranger", display_name="Stranger"),
        "trial_over": make_user("fuzztrial", display_name="Trial", trial_games_used=TRIAL_GAMES),
        "unconfirmed": make_user("fuzzunconfirmed", email_confirmed=False),
        "staff": make_user("fuzzstaff", is_staff=True, is_superuser=True),
    }
    host, seated = users["host"], users["seated"]
    _register(host)
    _register(seated, serial="fuzz-seated")
    world = World(users=users)
    games = world.games

    # Alone: a game just begun, one mid-turn, one just scored (undo possible), one over, a Triple.
    games["new"] = tables.start_game(owner=host)
    games["rolled"] = tables.start_game(owner=host)
    roll_now(games["rolled"], host, 5, 5, 5, 2, 3)
    games["scored"] = tables.start_game(owner=host)
    roll_now(games["scored"], host, 6, 6, 6, 6, 1)
    score_now(games["scored"], host, "sixes")
    games["over"] = tables.start_game(owner=host)
    play_out(games["over"], host, seed=1)
    games["triple"] = tables.start_game(owner=host, kind="triple")
    roll_now(games["triple"], host, 1, 2, 3, 4, 5)
    games["abandoned"] = tables.start_game(owner=host)
    roll_now(games["abandoned"], host, 1, 1, 2, 3, 4)
    play.abandon_game(game_id=games["abandoned"].pk, user=host)

    # At one screen: a guest and a computer player beside the host.
    games["together"] = tables.start_game(owner=host, guests=["Gus"], computers=["good"])

    # Online: a room waiting (the seated account has joined), a draw for first, a game under way.
    games["waiting"] = _online(host, seated, start=False)
    games["drawing"] = _online(host, seated, roll_for_first=True)
    games["online"] = _online(host, seated)
    roll_now(games["online"], host, 2, 2, 4, 4, 4)
    games["online_over"] = _online(host, seated)
    play_out(games["online_over"], host, seed=2, until=lambda match: match.on_turn == 1)
    games["online_over"].refresh_from_db()
    waiting_alone = tables.open_game(owner=host, invites=1, open_seats=1)
    games["waiting_open"] = waiting_alone
    world.invitations = list(Invitation.objects.values_list("pk", flat=True))

    # The daily challenge: today's attempt under way; yesterday's left unfinished.
    games["challenge"] = daily.start_challenge(user=host)
    games["challenge_yesterday"] = daily.start_challenge(
        user=seated, now=timezone.now() - timedelta(days=1)
    )

    _rated(host, seated, games["online"])

    # Watching: a private tournament's game under way (the seated account plays it), and the
    # online game's watch link given out by its host.
    cup = tournaments.open_tournament(host=host, name="Fuzz cup", kind="classic", listed=False)
    tournaments.join(user=seated, token=cup.token)
    tournaments.start(user=host, token=cup.token)
    games["tournament"] = tournaments.play(user=seated, token=cup.token)
    roll_now(games["tournament"], seated, 3, 3, 3, 5, 6)
    watched = watching.allow_watching(game_id=games["online"].pk, user=host)

    over = games["over"]
    shared = sharing.share_card(user=host, game_id=over.pk, position=0)
    world.tokens = {
        "join": list(Invitation.objects.values_list("token", flat=True)),
        "shared": [shared.token],
        "unsubscribe": [mailing.unsubscribe_token(host)],
        "uidb64": [urlsafe_base64_encode(force_bytes(host.pk))],
        "password_token": [default_token_generator.make_token(host)],
        "public_id": [str(host.public_id), str(seated.public_id)],
        "watch": [cup.token, str(watched.watch_token)],
    }
    first = trainer.draw(user=host)
    world.positions = [first.pk] if first is not None else []
    world.positions += list(
        host.training_positions.exclude(pk__in=world.positions).values_list("pk", flat=True)[:3]
    )
    return world


def _register(user: User, *, serial: str = KNOWN) -> None:
    batch, _ = SerialBatch.objects.get_or_create(name="fuzz")
    Serial.objects.create(
        batch=batch,
        digest=licensing.serial_digest(serial),
        last4=serial[-4:],
        redeemed_by=user,
        redeemed_at=timezone.now(),
    )


def _online(host: User, seated: User, *, start: bool = True, roll_for_first: bool = False) -> Game:
    game = tables.open_game(owner=host, invites=1, roll_for_first=roll_for_first)
    tables.join_game(token=game.invitations.get().token, user=seated)
    if start:
        tables.begin_game(game_id=game.pk, user=host)
    game.refresh_from_db()
    return game


def _rated(host: User, seated: User, game: Game) -> None:
    """Both accounts rated, in this season's table and last season's, as if made yesterday (an
    account made today enters no table), with a rated game each for their pages' charts."""
    now = timezone.now()
    this = timezone.localdate().replace(day=1)
    last = (this - timedelta(days=1)).replace(day=1)
    yesterday = timezone.localdate() - timedelta(days=1)
    for user, rating in ((host, 1566), (seated, 1434)):
        seat = game.seats.get(user=user)
        Rating.objects.create(user=user, kind="classic", mu=25, sigma=7, rating=rating,
                              games=1, updated_at=now)  # fmt: skip
        RatingChange.objects.create(
            user=user, game=game, seat=seat, kind="classic", place=1 if rating > 1500 else 2,
            players=2, weight=1, before=1500, after=rating, mu=25, sigma=7, created_at=now,
        )  # fmt: skip
        for season in (this, last):
            SeasonRating.objects.create(user=user, kind="classic", season=season, rating=rating,
                                        games=1, joined=yesterday)  # fmt: skip
