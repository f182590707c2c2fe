from django.urls import path

from games import review_views, room_views, views

app_name = "games"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("new/", views.new_game, name="new"),
    path("lobby/", room_views.lobby, name="lobby"),
    path("join/<str:token>/", room_views.join, name="join"),
    path("<int:game_id>/start/", room_views.start, name="start"),
    path("<int:game_id>/invitations/<int:invitation_id>/revoke/", room_views.revoke, name="revoke"),
    path("<int:game_id>/", views.game_page, name="play"),
    path("<int:game_id>/hold/", views.hold, name="hold"),
    path("<int:game_id>/roll/", views.roll, name="roll"),
    path("<int:game_id>/hint/", views.hint, name="hint"),
    path("<int:game_id>/undo/", views.undo, name="undo"),
    path("<int:game_id>/first/", views.first, name="first"),
    path("<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("<int:game_id>/analysis/<int:position>/", review_views.analysis, name="analysis"),
    path("<int:game_id>/resign/", views.resign, name="resign"),
    path("<int:game_id>/skip/", views.skip, name="skip"),
    path("<int:game_id>/computer/", views.computer, name="computer"),
    path("<int:game_id>/score/", views.score, name="score"),
    path("<int:game_id>/abandon/", views.abandon_page, name="abandon_page"),
    path("<int:game_id>/abandon/confirm/", views.abandon, name="abandon"),
]
