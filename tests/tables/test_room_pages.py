"""The pages of online play: the new-game form's seats, the waiting room, the invitation link,
the lobby, the start; and a game page that follows by itself while others play."""

from __future__ import annotations

import re

from django.urls import reverse

from accounts.models import TRIAL_GAMES
from games import rules
from games.home.selectors import dashboard
from games.models import Game, GameStatus, Invitation, Seat
from games.play import actions as play
from games.tables import services
from tests.factories import client_for, make_user, page_text, roll_now, score_now


def join_url(invitation: Invitation) -> str:
    return reverse("games:join", kwargs={"token": invitation.token})


def play_url(game: Game) -> str:
    return reverse("games:play", kwargs={"game_id": game.pk})


def test_the_new_game_form_offers_seats_and_opens_the_waiting_room(alice_client) -> None:
    response = alice_client.post(
        reverse("games:new"), {"kind": "classic", "invites": "1", "open_seats": "1"}
    )

    game = Game.objects.get()
    assert game.status == GameStatus.WAITING
    room = alice_client.get(response["Location"])
    text = page_text(room)
    assert "Classic Yahtzee: waiting for players" in text
    assert "For a friend : send this link; whoever opens it first" in text
    assert "Open to anyone : listed in the lobby , or pass on the link" in text
    for invitation in Invitation.objects.all():
        assert f'value="http://testserver{join_url(invitation)}"' in room.text


def test_a_friend_opens_the_link_sees_who_invites_and_takes_the_seat(player) -> None:
    game = services.open_game(owner=player, invites=1)
    invitation = Invitation.objects.get()
    bob = client_for(make_user("bob"))

    shown = bob.get(join_url(invitation))
    taken = bob.post(join_url(invitation))

    assert "Join Alice's game of Classic Yahtzee" in page_text(shown)
    assert taken.status_code == 302 and taken["Location"] == play_url(game)
    room = page_text(bob.get(play_url(game)))
    assert "Waiting for the host to start the game." in room
    assert "Bob you" in room


def test_a_visitor_following_a_link_is_asked_to_log_in_first(client, player) -> None:
    services.open_game(owner=player, invites=1)
    url = join_url(Invitation.objects.get())

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('accounts:login')}?next={url}"


def test_a_mistyped_link_is_404_with_the_reason(player) -> None:
    bob = client_for(make_user("bob"))

    response = bob.get(reverse("games:join", kwargs={"token": "x" * 43}))

    assert response.status_code == 404
    assert "This invitation link is not valid: check that it was copied whole." in page_text(
        response
    )


def test_a_taken_seat_answers_409_with_the_reason_and_seats_no_one(player) -> None:
    services.open_game(owner=player, invites=1)
    invitation = Invitation.objects.get()
    services.join_game(token=invitation.token, user=make_user("carol"))

    response = client_for(make_user("bob")).post(join_url(invitation))

    assert response.status_code == 409
    assert "Someone else has taken this seat." in page_text(response)
    assert Seat.objects.count() == 2


def test_an_invitee_without_trial_games_is_sent_to_the_serial_page_with_a_word(player) -> None:
    services.open_game(owner=player, invites=1)
    bob = client_for(make_user("bob", trial_games_used=TRIAL_GAMES))

    response = bob.post(join_url(Invitation.objects.get()), follow=True)

    assert response.redirect_chain[-1][0] == reverse("accounts:serial")
    assert "Your trial games are used, so you cannot take this seat yet." in page_text(response)


def test_the_lobby_page_lists_open_games_with_a_join_button(player) -> None:
    services.open_game(owner=player, open_seats=2)
    bob = client_for(make_user("bob"))

    text = page_text(bob.get(reverse("games:lobby")))

    assert "Alice Classic Yahtzee 1 seated, 2 open Join" in text


def test_the_host_starts_and_everyone_lands_in_the_game(alice_client, player) -> None:
    game = services.open_game(owner=player, invites=1)
    services.join_game(token=Invitation.objects.get().token, user=make_user("bob"))

    response = alice_client.post(reverse("games:start", kwargs={"game_id": game.pk}))

    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS
    page = alice_client.get(play_url(game))
    assert "Your turn!" in page_text(page)


def test_start_sent_twice_lands_the_host_in_the_game_and_changes_nothing(
    alice_client, player
) -> None:
    # A double click, or a start sent again after a dropped answer: the game has begun already.
    game = services.open_game(owner=player, invites=1)
    bob_user = make_user("bob")
    services.join_game(token=Invitation.objects.get().token, user=bob_user)
    start = reverse("games:start", kwargs={"game_id": game.pk})
    alice_client.post(start)
    before = Game.objects.values_list("version", "updated_at").get()

    again = alice_client.post(start)

    assert (again.status_code, again["Location"]) == (302, play_url(game))
    assert Game.objects.values_list("version", "updated_at").get() == before
    player.refresh_from_db()
    bob_user.refresh_from_db()
    assert (player.trial_games_used, bob_user.trial_games_used) == (1, 1)
    # Only for the host: a guest's start of the game under way is still refused.
    refused = client_for(bob_user).post(start)
    assert refused.status_code == 409
    assert "This game has already started." in page_text(refused)


def test_a_guest_pressing_start_is_refused_with_403(player) -> None:
    game = services.open_game(owner=player, invites=1)
    bob_user = make_user("bob")
    services.join_game(token=Invitation.objects.get().token, user=bob_user)

    response = client_for(bob_user).post(reverse("games:start", kwargs={"game_id": game.pk}))

    assert response.status_code == 403
    assert "Only the host can do that." in page_text(response)
    assert Game.objects.get().status == GameStatus.WAITING


def test_every_page_of_a_game_on_several_devices_follows_it_and_a_solo_one_does_not(
    player,
) -> None:
    game = services.open_game(owner=player, invites=1)
    bob_user = make_user("bob")
    services.join_game(token=Invitation.objects.get().token, user=bob_user)
    services.begin_game(game_id=game.pk, user=player)
    solo = services.start_game(owner=bob_user, guests=["Ann"])

    def game_tag(page: str) -> str:
        return page.split('id="game"', 1)[1].split(">", 1)[0]

    alices = client_for(player).get(play_url(game)).text
    bobs = client_for(bob_user).get(play_url(game)).text
    at_one_screen = client_for(bob_user).get(play_url(solo)).text

    # The mover's page follows too: an undo, a resignation or an end can come at any moment.
    assert "data-live " in game_tag(alices)
    assert "data-live " in game_tag(bobs)
    assert "data-live " not in game_tag(at_one_screen)
    assert "Alice's turn" in page_text(client_for(bob_user).get(play_url(game)))


def test_the_dashboard_lists_games_where_it_is_your_turn_first(player) -> None:
    bob_user = make_user("bob")
    mine = services.start_game(owner=player)  # older, Alice's turn
    waiting_on_bob = services.open_game(owner=player, invites=1)
    services.join_game(token=Invitation.objects.get().token, user=bob_user)
    services.begin_game(game_id=waiting_on_bob.pk, user=player)
    waiting_on_bob.refresh_from_db()

    roll_now(waiting_on_bob, player, 1, 1, 1, 1, 2)
    score_now(waiting_on_bob, player, "aces")

    listed = [g.game_id for g in dashboard(user=player).open_games]
    first_page = dashboard(user=player, open_shown=1)

    assert listed == [mine.pk, waiting_on_bob.pk]
    # Over all the open games, not only the page shown: the older game waiting for Alice leads.
    assert [g.game_id for g in first_page.open_games] == [mine.pk]
    assert (first_page.open_count, first_page.more_open) == (2, True)
    lines = re.findall(r'class="game-item-meta">([^<]*)<', client_for(player).get("/play/").text)
    assert [line.startswith("Another player's turn") for line in lines] == [False, True]


def test_leaving_and_dropped_seats_keep_positions_in_turn_order(player) -> None:
    game = services.open_game(owner=player, invites=2, open_seats=1)
    bob_user, carol = make_user("bob"), make_user("carol")
    first, second, _ = Invitation.objects.order_by("pk")
    services.join_game(token=first.token, user=bob_user)
    services.join_game(token=second.token, user=carol)
    play.abandon_game(game_id=game.pk, user=bob_user)  # Bob leaves: Carol moves up

    seated = services.begin_game(game_id=game.pk, user=player)

    assert [(s.position, s.display_name) for s in seated.seats] == [(0, "Alice"), (1, "Carol")]


def test_the_header_names_whose_total_it_shows_when_the_card_is_not_yours(player) -> None:
    game = services.open_game(owner=player, invites=1)
    bob_user = make_user("bob", display_name="Bob")
    services.join_game(token=Invitation.objects.get().token, user=bob_user)
    services.begin_game(game_id=game.pk, user=player)
    roll_now(game, player, 6, 6, 6, 6, 5)
    score_now(game, player, "sixes")  # 24 for Alice; Bob's turn
    roll_now(game, bob_user, 1, 1, 2, 3, 5)

    alices = client_for(player).get(play_url(game)).text
    bobs = client_for(bob_user).get(play_url(game)).text

    badge = re.compile(r'<p class="game-score">(.*?)</p>', re.S)
    assert re.fullmatch(r"Bob ?'s total 0", page_text(badge.search(alices)[1]))
    assert page_text(badge.search(bobs)[1]) == "Total score 0"


def test_a_finished_game_of_several_names_the_winner_first(player) -> None:
    game = services.open_game(owner=player, invites=1)
    bob_user = make_user("bob", display_name="Bob")
    services.join_game(token=Invitation.objects.get().token, user=bob_user)
    services.begin_game(game_id=game.pk, user=player)
    game.refresh_from_db()
    play.resign(game_id=game.pk, user=bob_user, version=game.version)
    for box in rules.CATEGORIES:
        roll_now(game, player, 2, 2, 2, 2, 2)
        score_now(game, player, box.value)

    text = page_text(client_for(bob_user).get(play_url(game)))

    over = text[text.index("Game over") :]
    assert over.index("Alice wins with") < over.index("Your score")


# --- Actions on a game still in its waiting room, or on no game ----------------------------

ACTIONS = ["roll", "hold", "score", "hint", "undo", "resign", "skip", "computer", "first"]


def test_a_move_on_a_game_still_waiting_is_refused_in_its_room(player, alice_client) -> None:
    game = services.open_game(owner=player, invites=1)
    version = game.version

    for action in ACTIONS:
        url = reverse(f"games:{action}", kwargs={"game_id": game.pk})
        response = alice_client.post(url, {"version": version, "box": "chance"})

        assert response.status_code == 409, action
        text = page_text(response)
        assert "This game has not started yet." in text, action
        assert "Classic Yahtzee: waiting for players" in text, action
    game.refresh_from_db()
    assert (game.status, game.version) == (GameStatus.WAITING, version)


def test_a_rematch_of_a_game_still_waiting_is_refused_in_its_room(player, alice_client) -> None:
    game = services.open_game(owner=player, invites=1)

    response = alice_client.post(reverse("games:rematch", kwargs={"game_id": game.pk}))

    assert response.status_code == 409
    assert "A rematch follows a game that is over." in page_text(response)
    assert Game.objects.count() == 1


def test_starting_or_withdrawing_from_a_game_that_does_not_exist_is_not_found(
    alice_client,
) -> None:
    start = alice_client.post(reverse("games:start", kwargs={"game_id": 999999999}))
    revoke = alice_client.post(
        reverse("games:revoke", kwargs={"game_id": 999999999, "invitation_id": 1})
    )

    assert (start.status_code, revoke.status_code) == (404, 404)
    assert "There is nothing here" in page_text(start)
