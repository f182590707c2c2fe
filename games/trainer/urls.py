from django.urls import path

from games.trainer import views

app_name = "trainer"

urlpatterns = [
    path("", views.train, name="train"),
    path("restart/", views.restart, name="restart"),
    path("<int64:position_id>/", views.position, name="position"),
    path("<int64:position_id>/answer/", views.answer, name="answer"),
]
