from django.urls import path, re_path

from games.daily import views

app_name = "daily"

urlpatterns = [
    path("", views.today_page, name="today"),
    path("start/", views.start, name="start"),
    re_path(r"^(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})/$", views.board_page, name="board"),
]
