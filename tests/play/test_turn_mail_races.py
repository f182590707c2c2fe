"""Two workers running the same turn's mail at once, each on its own connection released at one
barrier (the commit's work retried, or two nodes): the turn's one ``TurnMail`` row lets one
of them send."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.cache import caches

from games.models import Seat
from games.play import live, turn_mail
from games.play.models import TurnMail, TurnMailState
from games.tables import services
from tests.factories import make_user, roll_now, score_now
from tests.licensing.licensing_support import run_together

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("workers", [2, 6])
def test_workers_racing_to_mail_one_turn_send_it_once(workers: int) -> None:
    caches["presence"].clear()
    alice, bob = make_user("alice", display_name="Alice"), make_user("bob")
    game = services.open_game(owner=alice, invites=1, turn_limit=3600)
    services.join_game(token=game.invitations.get().token, user=bob)
    live.saw_page(game_id=game.pk, user_id=alice.pk)
    live.saw_page(game_id=game.pk, user_id=bob.pk)  # no mail while the game is set up
    services.begin_game(game_id=game.pk, user=alice)
    roll_now(game, alice, 1, 2, 3, 4, 6)
    score_now(game, alice, "small_straight")
    assert mail.outbox == []
    caches["presence"].clear()  # Bob has closed the page
    seat = Seat.objects.get(game=game, user=bob)

    run_together(
        workers,
        lambda _: turn_mail.turn_passed(
            seat_id=seat.pk, turn=1, news="Alice scored 30 in Small Straight"
        ),
    )

    assert len(mail.outbox) == 1
    assert TurnMail.objects.get().state == TurnMailState.SENT
