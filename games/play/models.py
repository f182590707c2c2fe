"""What the turn mail keeps (``games.play.turn_mail``): the one mail of each seat's turn."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class TurnMailState(models.TextChoices):
    HELD = "held", "Held until send_after"
    SENDING = "sending", "Being sent"
    SENT = "sent", "Sent"
    DROPPED = "dropped", "Not sent (no longer due)"


class TurnMail(models.Model):
    """The one "your turn" mail of a seat's turn (``games.play.turn_mail``): created before the
    mail is sent, so the unique (game, seat, turn) lets one sender only, whatever retries or
    workers try; a mail held for the night waits here for ``send_turn_mail``."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="+")
    turn = models.PositiveSmallIntegerField()
    """The seat's turn: its boxes filled + 1, the game's round while the seat is on turn."""
    news = models.CharField(max_length=200)
    """What passed the turn ("Alice scored 30 in Small Straight"), as the subject says it."""
    state = models.CharField(max_length=8, choices=TurnMailState, default=TurnMailState.HELD)
    send_after = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "turn"], name="turn_mail_once"),
            models.CheckConstraint(
                condition=Q(state__in=TurnMailState.values), name="turn_mail_state_valid"
            ),
        ]
        indexes = [
            # The command's read: the held mails now due, and only those.
            models.Index(
                fields=["send_after"],
                name="turn_mail_held_due",
                condition=Q(state="held"),
            )
        ]

    def __str__(self) -> str:
        return f"Turn {self.turn} mail, seat {self.seat_id} of game {self.game_id}"
