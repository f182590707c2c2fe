from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("new/", views.new_game, name="new"),
    path("<int:game_id>/", views.game_page, name="play"),
    path("<int:game_id>/hold/", views.hold, name="hold"),
    path("<int:game_id>/roll/", views.roll, name="roll"),
    path("<int:game_id>/score/", views.score, name="score"),
    path("<int:game_id>/abandon/", views.abandon_page, name="abandon_page"),
    path("<int:game_id>/abandon/confirm/", views.abandon, name="abandon"),
]
