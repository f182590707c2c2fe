"""The site's URLs: the front page, the apps, and the admin."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from games.home import views as home
from games.review import views as review
from games.scores import views as scores
from yahtzee_site import views as site_views

urlpatterns = [
    path("", home.home, name="home"),
    path("accounts/", include("accounts.urls")),
    path("play/", include("games.urls")),
    # After play/: games.urls registers the converters the watchers' addresses use.
    path("watch/", include("games.watching.urls")),
    path("daily/", include("games.daily.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("scores/", scores.high_scores, name="high_scores"),
    path("ratings/", include("games.ratings.urls")),
    path("players/me/", scores.my_stats, name="my_stats"),
    path("players/<uuid:public_id>/", scores.player_page, name="player"),
    path(settings.ADMIN_PATH, admin.site.urls),
    path("healthz", home.healthz, name="healthz"),
    path("theme.css", account_views.theme_css, name="theme_css"),
    path("help/", home.help_page, name="help"),
    # A finished card its player shared: the token is the link's whole secret.
    path("shared/<slug:token>/", review.shared, name="shared"),
    path("shared/<slug:token>/card.png", review.shared_card, name="shared_card"),
]

handler400 = site_views.bad_request
handler403 = site_views.permission_denied
handler404 = site_views.page_not_found
handler500 = site_views.server_error
