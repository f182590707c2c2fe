"""Your turn, by e-mail: one short mail when an online game with a turn limit of an hour or more
passes the turn to a player with no page of it open; never twice for one turn, never at night
where the player lives, never to someone who turned it off or whose mail bounced."""

from __future__ import annotations

import email
import email.policy
import smtplib
import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.core.cache import caches
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from accounts import mailing
from games.models import Game, PlayerKind, Seat
from games.play import actions as play
from games.play import live, turn_mail
from games.play.models import TurnMail, TurnMailState
from games.tables import services
from tests.factories import HTMX, client_for, make_user, roll_now, score_now

HOUR = 3600
BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture(autouse=True)
def _no_page_seen(settings) -> None:
    settings.SITE_URL = "https://yahtzee.example.com"
    caches["presence"].clear()


@pytest.fixture
def bob(db):
    return make_user("bob", display_name="Bob")


def online(host, *others, limit: int | None = HOUR) -> Game:
    game = services.open_game(owner=host, invites=len(others), turn_limit=limit)
    for invitation, user in zip(game.invitations.order_by("pk"), others, strict=True):
        services.join_game(token=invitation.token, user=user)
    services.begin_game(game_id=game.pk, user=host)
    game.refresh_from_db()
    return game


def small_straight(game: Game, user) -> None:
    roll_now(game, user, 1, 2, 3, 4, 6)
    score_now(game, user, "small_straight")


def test_the_turn_passing_to_a_player_with_no_page_open_mails_them_once(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)

    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["bob@example.com"]
    assert sent.subject == f"Alice scored 30 in Small Straight — your turn in game #{game.pk}"
    assert f"https://yahtzee.example.com/play/{game.pk}/" in sent.body
    assert TurnMail.objects.get().state == TurnMailState.SENT


def test_the_mail_carries_the_one_click_unsubscribe_headers(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)

    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    headers = mail.outbox[0].extra_headers
    link = headers["List-Unsubscribe"]
    assert link.startswith("<https://yahtzee.example.com/accounts/mail/unsubscribe/")
    assert link.endswith("/>")
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link[1:-1] in mail.outbox[0].body  # the same link, for a reader to click


def test_no_mail_while_the_players_page_checks_for_news(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)
    client_for(bob).get(reverse("games:play", kwargs={"game_id": game.pk}), headers=HTMX)

    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    assert mail.outbox == []
    assert not TurnMail.objects.exists()


def test_the_304_update_check_counts_as_an_open_page_at_no_extra_query(
    settings, player, bob, django_capture_on_commit_callbacks, django_assert_num_queries
) -> None:
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    settings.GAME_VERSIONS_IN_CACHE = False
    game = online(player, bob)
    bobs_page, url = client_for(bob), reverse("games:play", kwargs={"game_id": game.pk})
    etag = bobs_page.get(url, headers=HTMX)["ETag"]
    caches["presence"].clear()  # as if the page had last been drawn long ago

    with django_assert_num_queries(2):  # as without the turn mail: the session; the version
        checked = bobs_page.get(url, headers={**HTMX, "If-None-Match": etag})
    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    assert checked.status_code == 304
    assert mail.outbox == []


def test_a_page_silent_for_over_half_a_minute_counts_as_closed(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)
    live.saw_page(game_id=game.pk, user_id=bob.pk, now=time.time() - 45)

    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    assert len(mail.outbox) == 1


@pytest.mark.parametrize("limit", [60, None])
def test_no_mail_in_a_game_with_a_turn_limit_under_an_hour_or_none(
    player, bob, limit, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob, limit=limit)

    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    assert mail.outbox == []


def test_a_turn_is_mailed_once_even_when_taken_back_and_passed_again(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)
    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)
        game.refresh_from_db()
        play.undo_score(game_id=game.pk, user=player, version=game.version)
        score_now(game, player, "chance")

    assert len(mail.outbox) == 1
    assert TurnMail.objects.count() == 1


def test_a_retried_send_mails_once(player, bob, django_capture_on_commit_callbacks) -> None:
    game = online(player, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        small_straight(game, player)

    for callback in [*callbacks, *callbacks]:  # the commit's work run twice (a retry, 2 workers)
        callback()

    assert len(mail.outbox) == 1


def test_a_send_that_failed_is_sent_by_the_next_run_of_the_command(
    player, bob, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)

    def refused(self, fail_silently: bool = False) -> int:
        raise smtplib.SMTPServerDisconnected("the mail server went away")

    with monkeypatch.context() as patched:
        patched.setattr(mailing.LiteralSubjectMail, "send", refused)
        with django_capture_on_commit_callbacks(execute=True):
            small_straight(game, player)
    assert mail.outbox == [] and TurnMail.objects.get().state == TurnMailState.HELD

    call_command("send_turn_mail")
    call_command("send_turn_mail")

    assert len(mail.outbox) == 1
    assert TurnMail.objects.get().state == TurnMailState.SENT


def _at(moment: datetime, callbacks) -> None:
    """Run the commit's callbacks (the turn mail's task among them) as if at ``moment``."""
    with pytest.MonkeyPatch.context() as clock:
        clock.setattr(timezone, "now", lambda: moment)
        for callback in callbacks:
            callback()


def test_at_night_in_the_players_zone_the_mail_waits_for_eight(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    bob.time_zone = "Europe/Berlin"
    bob.save()
    game = online(player, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        small_straight(game, player)
    late = datetime(2026, 12, 3, 23, 30, tzinfo=BERLIN)

    _at(late, callbacks)

    held = TurnMail.objects.get()
    assert mail.outbox == []
    morning = late.replace(day=4, hour=8, minute=0)
    assert (held.state, held.send_after) == (TurnMailState.HELD, morning)
    assert turn_mail.send_held(now=held.send_after - timedelta(minutes=1)) == 0
    assert mail.outbox == []
    assert turn_mail.send_held(now=held.send_after + timedelta(minutes=2)) == 1
    assert len(mail.outbox) == 1
    assert turn_mail.send_held(now=held.send_after + timedelta(minutes=7)) == 0


def test_the_command_sends_the_mail_held_overnight_once_morning_has_come(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    bob.time_zone = "Europe/Berlin"
    bob.save()
    game = online(player, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        small_straight(game, player)
    two_nights_ago = datetime.now(BERLIN).replace(hour=23, minute=0) - timedelta(days=2)
    _at(two_nights_ago, callbacks)
    assert mail.outbox == []

    call_command("send_turn_mail")

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["bob@example.com"]


def test_by_day_in_the_players_zone_the_mail_goes_at_once(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    bob.time_zone = "Europe/Berlin"
    bob.save()
    game = online(player, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        small_straight(game, player)

    _at(datetime(2026, 12, 3, 8, 0, tzinfo=BERLIN), callbacks)

    assert len(mail.outbox) == 1


def test_a_held_mail_whose_turn_was_played_meanwhile_is_dropped(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    bob.time_zone = "Europe/Berlin"
    bob.save()
    game = online(player, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        small_straight(game, player)
    _at(datetime(2026, 12, 3, 23, 30, tzinfo=BERLIN), callbacks)
    small_straight(game, bob)  # Bob played at night after all (callbacks not run: no new mail)

    assert turn_mail.send_held(now=datetime(2026, 12, 4, 9, 0, tzinfo=UTC)) == 0

    assert mail.outbox == []
    assert TurnMail.objects.get().state == TurnMailState.DROPPED


@pytest.mark.parametrize(
    "change",
    [{"turn_mail": False}, {"email_bounced": True}, {"email_confirmed": False}, {"email": ""}],
    ids=["turned off", "bounced", "address not confirmed", "no address"],
)
def test_no_mail_to_a_player_who_cannot_or_will_not_get_it(
    player, bob, change, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)
    for field, value in change.items():
        setattr(bob, field, value)
    bob.save()

    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    assert mail.outbox == []


def test_the_bounce_webhook_with_the_secret_stops_the_mails(
    settings, client, player, bob, django_capture_on_commit_callbacks
) -> None:
    settings.MAIL_WEBHOOK_SECRET = "webhook-secret-for-tests"
    url = reverse("accounts:mail_bounced")

    wrong = client.post(url, {"email": "BOB@example.com"}, HTTP_AUTHORIZATION="Bearer nope")
    bob.refresh_from_db()
    assert wrong.status_code == 403 and not bob.email_bounced

    right = client.post(
        url,
        {"emails": ["BOB@example.com"]},
        content_type="application/json",
        HTTP_AUTHORIZATION="Bearer webhook-secret-for-tests",
    )
    bob.refresh_from_db()
    assert right.status_code == 200 and right.json() == {"flagged": 1}
    assert bob.email_bounced

    game = online(player, bob)
    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)
    assert mail.outbox == []


def test_the_bounce_webhook_is_not_there_without_a_secret(settings, client, bob) -> None:
    settings.MAIL_WEBHOOK_SECRET = ""

    response = client.post(reverse("accounts:mail_bounced"), {"email": "bob@example.com"})

    bob.refresh_from_db()
    assert response.status_code == 404 and not bob.email_bounced


def test_the_command_flags_a_bounced_address(bob) -> None:
    call_command("mark_bounced", "Bob@Example.com")

    bob.refresh_from_db()
    assert bob.email_bounced


def test_the_start_of_the_game_mails_the_first_player_if_away(
    player, bob, django_capture_on_commit_callbacks
) -> None:
    game = services.open_game(owner=bob, invites=1, turn_limit=HOUR)
    services.join_game(token=game.invitations.get().token, user=player)

    with django_capture_on_commit_callbacks(execute=True):
        services.begin_game(game_id=game.pk, user=bob)  # Bob, the host, goes first...

    assert mail.outbox[0].to == ["bob@example.com"]  # ...but was nowhere near the game
    assert mail.outbox[0].subject == f"The game has begun — your turn in game #{game.pk}"


def test_the_log_says_which_mail_went_but_never_its_address_or_link(
    player, bob, caplog, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)

    with caplog.at_level("DEBUG"), django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    logged = caplog.text
    assert f"game {game.pk}" in logged
    assert "bob@example.com" not in logged
    assert mailing.unsubscribe_token(bob) not in logged


def test_a_mail_that_breaks_never_turns_the_move_into_an_error(
    player, bob, monkeypatch, caplog, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)
    roll_now(game, player, 1, 2, 3, 4, 6)
    game.refresh_from_db()
    tried: list[dict[str, object]] = []

    def broken(**kwargs: object) -> None:
        tried.append(kwargs)
        raise RuntimeError("the mail went wrong")

    monkeypatch.setattr(turn_mail, "turn_passed", broken)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(player).post(
            reverse("games:score", kwargs={"game_id": game.pk}),
            {"box": "small_straight", "version": game.version},
        )

    game.refresh_from_db()
    # The move stands; the mail's task was run, retried until given up, and each failure logged.
    assert response.status_code == 302 and game.current_seat == 1
    assert len(tried) == 5 and tried[0]["news"] == "Alice scored 30 in Small Straight"
    assert "games.play.tasks.mail_turn" in caplog.text and "failed 5 times: given up" in caplog.text


def test_a_move_marks_the_movers_page_open_only_where_turns_are_mailed(player, bob) -> None:
    mailed, unmailed = online(player, bob), online(player, bob, limit=None)
    mover = client_for(player)

    for game in (mailed, unmailed):
        mover.post(reverse("games:roll", kwargs={"game_id": game.pk}), {"version": game.version})

    assert live.page_open(game_id=mailed.pk, user_id=player.pk)
    # A game without a long turn limit never mails a turn: its moves write nothing down.
    assert not live.page_open(game_id=unmailed.pk, user_id=player.pk)


# --- Names in the subject: read as typed, never decoded as encoded words, never a new header ---

RECEIVED_HEADERS = {
    "Content-Type",
    "MIME-Version",
    "Content-Transfer-Encoding",
    "Subject",
    "From",
    "To",
    "Date",
    "Message-ID",
    "List-Unsubscribe",
    "List-Unsubscribe-Post",
    "Auto-Submitted",
}


def received(sent: mail.EmailMessage) -> tuple[bytes, email.message.EmailMessage]:
    """The mail as the SMTP backend writes it, and as a mail program reads those bytes."""
    raw = sent.message(policy=email.policy.SMTP).as_bytes()
    return raw, email.message_from_bytes(raw, policy=email.policy.default)


def online_with_guest(host, other) -> Game:
    """An online game of the host, their guest Ann at the host's screen, and ``other``."""
    game = services.open_game(owner=host, guests=["Ann"], invites=1, turn_limit=HOUR)
    services.join_game(token=game.invitations.get().token, user=other)
    services.begin_game(game_id=game.pk, user=host)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    "name",
    [
        "=?utf-8?q?Alice?=",
        "=?UTF-8?B?QWxpY2U=?=",
        "=?utf-8?q?=E2=80=AEecilA?=",  # would decode to a right-to-left override
        "=?utf-8?b?Qm9iDQpCY2M6IHg=?=",  # would decode to "Bob\r\nBcc: x"
        "Al =?utf-8?q?ice?= =?x?q?_?=",
    ],
)
def test_a_name_like_an_encoded_word_reaches_the_reader_as_typed(
    player, bob, name, django_capture_on_commit_callbacks
) -> None:
    game = online_with_guest(player, bob)
    small_straight(game, player)
    # Stored before names with "=?…?=" were refused: straight into the table, past the rules.
    Seat.objects.filter(game=game, player_kind=PlayerKind.GUEST).update(display_name=name)

    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)  # Ann's turn, played at the host's screen

    subject = f"{name} scored 30 in Small Straight — your turn in game #{game.pk}"
    assert mail.outbox[0].subject == subject
    raw, mail_program = received(mail.outbox[0])
    assert mail_program["Subject"] == subject
    assert name.encode() not in raw  # not even a part of the subject is left to be decoded
    assert set(mail_program.keys()) == RECEIVED_HEADERS


def test_a_line_break_in_a_name_from_before_adds_no_header(
    player, bob, settings, django_capture_on_commit_callbacks
) -> None:
    game = online(player, bob)
    Seat.objects.filter(game=game, user=player).update(display_name="Eve\r\nBcc: x@example.com")

    with django_capture_on_commit_callbacks(execute=True):
        small_straight(game, player)

    raw, mail_program = received(mail.outbox[0])
    assert mail_program["Subject"] == (
        f"Eve Bcc: x@example.com scored 30 in Small Straight — your turn in game #{game.pk}"
    )
    assert set(mail_program.keys()) == RECEIVED_HEADERS
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert b"\r\nBcc" not in head
    assert mail_program["From"] == settings.DEFAULT_FROM_EMAIL  # no name of a player in it
    assert mail_program["To"] == "bob@example.com"
