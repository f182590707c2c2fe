"""Rematch: after an online game, one click offers the same players a new game of the same
kind; the others accept from the old game's page; a seat kept for one account is theirs only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rules
from games.models import Game, GameStatus, Invitation
from games.tables import services
from tests.factories import client_for, make_user, page_text, roll_now, score_now


@pytest.fixture
def bob():
    return make_user("bob")


def finished_online_game(player, bob) -> Game:
    game = services.open_game(owner=player, invites=1, kind="classic", guests=["Ann"])
    services.join_game(token=game.invitations.get().token, user=bob)
    services.begin_game(game_id=game.pk, user=player)
    for box in rules.CATEGORIES:
        for user in (player, player, bob):  # Alice, Ann at her screen, Bob
            roll_now(game, user, 2, 3, 4, 5, 6)
            score_now(game, user, box.value)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


def test_a_rematch_seats_the_host_and_keeps_a_seat_for_each_other_account(player, bob) -> None:
    old = finished_online_game(player, bob)

    new = services.rematch(game_id=old.pk, user=player)

    assert new.status == GameStatus.WAITING and new.kind == old.kind
    assert [s.display_name for s in new.seats.order_by("position")] == ["Alice", "Ann"]
    kept = Invitation.objects.get(game=new)
    assert kept.for_user_id == bob.pk and not kept.open_to_all
    old.refresh_from_db()
    assert old.rematch_id == new.pk
    assert services.rematch(game_id=old.pk, user=bob).pk == new.pk  # one rematch, whoever asks


def test_the_other_player_accepts_from_the_old_games_page(player, bob) -> None:
    old = finished_online_game(player, bob)
    new = services.rematch(game_id=old.pk, user=player)
    bobs = client_for(bob)

    page = bobs.get(reverse("games:play", kwargs={"game_id": old.pk}))
    assert "Accept the rematch" in page_text(page)
    token = Invitation.objects.get(game=new).token
    bobs.post(reverse("games:join", kwargs={"token": token}))

    assert new.seats.filter(user=bob).exists()


def test_a_kept_seat_is_refused_to_anyone_else(player, bob) -> None:
    old = finished_online_game(player, bob)
    new = services.rematch(game_id=old.pk, user=player)

    with pytest.raises(services.InvitationError, match=r"^This seat is kept for another player\.$"):
        services.join_game(token=Invitation.objects.get(game=new).token, user=make_user("eve"))


def test_no_rematch_without_another_account_or_before_the_end(player, game) -> None:
    with pytest.raises(
        services.GameNotInProgress, match=r"^A rematch follows a game that is over\."
    ):
        services.rematch(game_id=game.pk, user=player)


def test_the_game_over_page_offers_a_rematch_button(player, bob) -> None:
    old = finished_online_game(player, bob)

    response = client_for(player).post(reverse("games:rematch", kwargs={"game_id": old.pk}))

    new = Game.objects.get(status=GameStatus.WAITING)
    assert response["Location"] == reverse("games:play", kwargs={"game_id": new.pk})
