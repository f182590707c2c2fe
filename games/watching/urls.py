"""A watcher's addresses: a tournament's game by the tournament's link, a game by its own watch
link, each with its stream; and the host's switch for the link. (The ``int64`` and ``token``
converters are registered by ``games.urls``, included before this.)"""

from django.urls import path

from games.watching import stream, views

app_name = "watching"

urlpatterns = [
    path("t/<token:token>/<int64:game_id>/", views.tournament_game, name="tournament_game"),
    path(
        "t/<token:token>/<int64:game_id>/stream/",
        stream.tournament_stream,
        name="tournament_stream",
    ),
    path("g/<token:token>/", views.linked_game, name="game"),
    path("g/<token:token>/stream/", stream.game_stream_by_link, name="game_stream"),
    path("link/<int64:game_id>/allow/", views.allow, name="allow"),
    path("link/<int64:game_id>/withdraw/", views.withdraw, name="withdraw"),
]
