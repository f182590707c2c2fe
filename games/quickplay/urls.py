from django.urls import path

from games.quickplay import stream, views

urlpatterns = [
    path("", views.page, name="quick"),
    path("check/", views.check, name="quick_check"),
    path("stream/", stream.stream, name="quick_stream"),
    path("join/", views.join, name="quick_join"),
    path("cancel/", views.cancel, name="quick_cancel"),
    path("computer/", views.computer, name="quick_computer"),
]
