from django.apps import AppConfig
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.play import stream

        # A game's stream ends with its session: logged out, the password changed, the account
        # made inactive or deleted.
        user = settings.AUTH_USER_MODEL
        post_save.connect(stream.credentials_changed, sender=user, dispatch_uid="live-stream")
        post_delete.connect(stream.account_deleted, sender=user, dispatch_uid="live-stream")
        user_logged_out.connect(stream.logged_out, dispatch_uid="live-stream")
