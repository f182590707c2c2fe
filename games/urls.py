from django.urls import include, path, register_converter

from games.home import views as home
from games.play import stream
from games.play import views as play
from games.review import views as review
from games.tables import views as tables
from yahtzee_site.converters import Int64Converter, TokenConverter

# Every number in an address is an int64: a larger one is no page (404), never a 500 where the
# database driver refuses it.
register_converter(Int64Converter, "int64")
register_converter(TokenConverter, "token")

app_name = "games"

urlpatterns = [
    path("", home.dashboard, name="dashboard"),
    path("train/", include("games.trainer.urls")),
    path("quick/", include("games.quickplay.urls")),
    path("new/", tables.new_game, name="new"),
    path("lobby/", tables.lobby, name="lobby"),
    path("join/<token:token>/", tables.join, name="join"),
    path("<int64:game_id>/start/", tables.start, name="start"),
    path(
        "<int64:game_id>/invitations/<int64:invitation_id>/revoke/",
        tables.revoke,
        name="revoke",
    ),
    path("<int64:game_id>/", play.game_page, name="play"),
    path("<int64:game_id>/stream/", stream.stream, name="stream"),
    path("<int64:game_id>/hold/", play.hold, name="hold"),
    path("<int64:game_id>/roll/", play.roll, name="roll"),
    path("<int64:game_id>/hint/", play.hint, name="hint"),
    path("<int64:game_id>/undo/", play.undo, name="undo"),
    path("<int64:game_id>/first/", play.first, name="first"),
    path("<int64:game_id>/rematch/", play.rematch, name="rematch"),
    path("<int64:game_id>/accuracy/", review.grade, name="grade"),
    path("<int64:game_id>/analysis/<int64:position>/", review.analysis, name="analysis"),
    path("<int64:game_id>/replay/<int64:position>/", review.replay, name="replay"),
    path("<int64:game_id>/replay/<int64:position>/share/", review.share, name="share"),
    path("<int64:game_id>/replay/<int64:position>/withdraw/", review.withdraw, name="withdraw"),
    path("<int64:game_id>/resign/", play.resign, name="resign"),
    path("<int64:game_id>/skip/", play.skip, name="skip"),
    path("<int64:game_id>/computer/", play.computer, name="computer"),
    path("<int64:game_id>/score/", play.score, name="score"),
    path("<int64:game_id>/abandon/", play.abandon_page, name="abandon_page"),
    path("<int64:game_id>/abandon/confirm/", play.abandon, name="abandon"),
]
