from django.urls import path

from games.review import views as review
from games.tournaments import stream, views

app_name = "tournaments"

urlpatterns = [
    path("", views.list_page, name="list"),
    path("new/", views.new, name="new"),
    path("t/<slug:token>/", views.page, name="page"),
    path("t/<slug:token>/stream/", stream.stream, name="stream"),
    path("t/<slug:token>/join/", views.join, name="join"),
    path("t/<slug:token>/start/", views.start, name="start"),
    path("t/<slug:token>/end/", views.end, name="end"),
    path("t/<slug:token>/play/", views.play, name="play"),
    path("t/<slug:token>/replay/<int64:game_id>/", review.tournament_replay, name="replay"),
]
