from django.urls import path

from games.ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.season_page, name="season"),
    path("all-time/", views.all_time_page, name="all_time"),
]
