from django.apps import AppConfig
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.daily import events as daily
        from games.play import events as play
        from games.play import stream
        from games.ratings import events as ratings
        from games.review import events as review
        from games.scores import events as scores
        from games.tables import events as tables
        from games.tournaments import events as tournaments
        from games.trainer import events as trainer

        # What a move did, told to each room that listens (``games.events``): the high scores,
        # the day's results, the trial games given back and the coach's note in the move's
        # transaction; the pages, the turn mail, the grading, the rating and the trainer's
        # harvest once it commits; the tournament ended by its last game's end.
        for room in (scores, daily, tables, play, review, ratings, trainer, tournaments):
            room.subscribe()

        # A game's stream ends with its session: logged out, the password changed, the account
        # made inactive or deleted.
        user = settings.AUTH_USER_MODEL
        post_save.connect(stream.credentials_changed, sender=user, dispatch_uid="live-stream")
        post_delete.connect(stream.account_deleted, sender=user, dispatch_uid="live-stream")
        user_logged_out.connect(stream.logged_out, dispatch_uid="live-stream")
