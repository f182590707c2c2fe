from django.urls import path, register_converter

from games import review_views, room_views, views
from yahtzee_site.converters import Int64Converter

# Every number in an address is an int64: a larger one is no page (404), never a 500 where the
# database driver refuses it.
register_converter(Int64Converter, "int64")

app_name = "games"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("new/", views.new_game, name="new"),
    path("lobby/", room_views.lobby, name="lobby"),
    path("join/<str:token>/", room_views.join, name="join"),
    path("<int64:game_id>/start/", room_views.start, name="start"),
    path(
        "<int64:game_id>/invitations/<int64:invitation_id>/revoke/",
        room_views.revoke,
        name="revoke",
    ),
    path("<int64:game_id>/", views.game_page, name="play"),
    path("<int64:game_id>/hold/", views.hold, name="hold"),
    path("<int64:game_id>/roll/", views.roll, name="roll"),
    path("<int64:game_id>/hint/", views.hint, name="hint"),
    path("<int64:game_id>/undo/", views.undo, name="undo"),
    path("<int64:game_id>/first/", views.first, name="first"),
    path("<int64:game_id>/rematch/", views.rematch, name="rematch"),
    path("<int64:game_id>/analysis/<int64:position>/", review_views.analysis, name="analysis"),
    path("<int64:game_id>/resign/", views.resign, name="resign"),
    path("<int64:game_id>/skip/", views.skip, name="skip"),
    path("<int64:game_id>/computer/", views.computer, name="computer"),
    path("<int64:game_id>/score/", views.score, name="score"),
    path("<int64:game_id>/abandon/", views.abandon_page, name="abandon_page"),
    path("<int64:game_id>/abandon/confirm/", views.abandon, name="abandon"),
]
