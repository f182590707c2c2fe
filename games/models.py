"""What a game keeps: its players' seats and cards, the turn in progress, and a log of moves.

Everything needed to resume a game exactly lives here; the rules themselves live in
``games.rules``. ``Game.version`` rises with every state change, so a stale request is caught.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q

from games import rules

KIND_CHOICES = [(kind.key, kind.name) for kind in rules.PLAYABLE.values()]
"""The kinds of game the site offers (``rules.PLAYABLE``) as the database stores them: every
chooser reads them."""
_SHORT_NAMES = [kind.name.removesuffix(" Yahtzee") for kind in rules.PLAYABLE.values()]
KINDS_IN_WORDS = ", ".join(_SHORT_NAMES[:-1]) + " or " + _SHORT_NAMES[-1]
"""The kinds offered as a refusal names them: "Classic, Triple or Yatzy"."""


TURN_LIMITS = {60: "1 minute", 3600: "1 hour", 86400: "1 day"}
"""The time limits a host may set for a turn, in seconds, and how the pages say them."""

LOBBY_SEAT_HOURS = 24
LOBBY_SEAT_LIFETIME = timedelta(hours=LOBBY_SEAT_HOURS)
"""How long a seat offered in the lobby stays listed and open if nobody takes it. A day: the
longest turn limit (``TURN_LIMITS``) is a day, so a host who plays at that pace and looks in
once a day still finds who came; past that, a seat listed is most likely a host gone away,
and a player who takes it would wait for nobody. Links for friends never expire this way:
they are passed on by hand, not listed. Measured from the invitation's ``created_at``, a
range of the ``invitation_lobby_newest`` index: no job has to close anything."""


def lobby_cutoff(now: datetime) -> datetime:
    """Seats offered in the lobby at this moment or before have closed by ``now``."""
    return now - LOBBY_SEAT_LIFETIME


class GameStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"
    ABANDONED = "abandoned", "Abandoned"


class PlayerKind(models.TextChoices):
    """Who plays a seat: a person with an account, a guest named at the host's screen, or the
    computer. Their scores are never ranked together, and a guest's never publicly: nobody can
    vouch for a typed name."""

    HUMAN = "human", "Person"
    GUEST = "guest", "Guest at the host's screen"
    COMPUTER = "computer", "Computer"


class Game(models.Model):
    kind = models.CharField(max_length=16, choices=KIND_CHOICES, default=rules.CLASSIC.key)
    status = models.CharField(max_length=16, choices=GameStatus, default=GameStatus.IN_PROGRESS)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_games"
    )
    # The match as the rules keep it (``games.rules.codec``: every seat's sheet, the turn, the
    # draw for first, the undo snapshot), written by ``games.store`` alone. ``None`` while the
    # game waits for players: it has no match until its host starts it.
    state = models.JSONField(null=True, blank=True, default=None)
    # Copies of the state kept to be searched and listed: whose turn (kept as it was while
    # nobody's is), the round, and how many moves the game has made (the pages' version).
    current_seat = models.PositiveSmallIntegerField(default=0)
    round = models.PositiveSmallIntegerField(default=1)
    version = models.PositiveIntegerField(default=0)
    # Seconds a player on another device may stay idle on turn before others may skip them
    # (``None``: no limit, nobody is skipped).
    turn_limit = models.PositiveIntegerField(null=True, blank=True)
    # Roll for first (RULES.md): the players each throw five dice, the highest total starts.
    roll_for_first = models.BooleanField(default=False)
    # The day whose challenge this game is (``games.daily``): its dice are the day's.
    challenge_day = models.DateField(null=True, blank=True)
    # The tournament whose game this is (``games.tournaments``): its dice are the tournament's.
    tournament = models.ForeignKey(
        "games.Tournament", on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    # The host chose a rated game (``games.ratings``): its accounts' ratings change by where
    # they finish.
    rated = models.BooleanField(default=False, db_default=False)
    # The secret of the game's watch link, when its host lets others watch it (``games.watching``).
    watch_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # The game the players went on to after this one ("Rematch"), once someone asked for it.
    rematch = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["owner", "status", "-updated_at"], name="game_owner_status")
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=GameStatus.values), name="game_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=list(rules.PLAYABLE)), name="game_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.get_status_display()})"

    @property
    def rules_kind(self) -> rules.GameKind:
        return rules.KINDS[self.kind]

    @property
    def is_in_progress(self) -> bool:
        return self.status == GameStatus.IN_PROGRESS


class Grading(models.TextChoices):
    """How a finished card's ``Seat.accuracy`` was worked out (``games.review.grading``)."""

    PENDING = "", "Not graded yet"
    EXACT = "exact", "Exact: Classic, played alone"
    ESTIMATE = "estimate", "The stated estimate: Triple, or a game of several"
    NONE = "none", "None: a card not played to its end, or a log that cannot be graded"


class Seat(models.Model):
    """A player's place in a game: who sits there (their card is in the game's ``state``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player_kind = models.CharField(max_length=16, choices=PlayerKind, default=PlayerKind.HUMAN)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    display_name = models.CharField(max_length=30)
    # A copy of "the game is over" (finished or abandoned), so a player's games can be listed
    # straight off the seat_user_turn index, open ones apart from the rest, newest first.
    game_over = models.BooleanField(default=False)
    # A copy of "a move of this account's is awaited" (on turn, or still to throw for first),
    # kept by ``games.store``: the games waiting for a player come first on their dashboard,
    # straight off the same index. (Guests and computers have no dashboard: never set.)
    on_turn = models.BooleanField(default=False, db_default=False)
    # Whether seating this account used one of its trial games (given back if the game is
    # abandoned before its first roll).
    used_trial_game = models.BooleanField(default=False)
    # A player who resigned: their turns are passed over and their score is never entered.
    resigned = models.BooleanField(default=False)
    # For a computer's seat: which strategy plays it (``games.strategy.BOT_NAMES``).
    bot = models.CharField(max_length=16, blank=True)
    # Hints asked for in this game: a score played with hints is marked as such.
    hints = models.PositiveSmallIntegerField(default=0)
    # The coach graded a decision of this seat's (its account had the coach on): a score
    # played with the coach is marked as one played with hints is. Written by ``games.store``.
    coached = models.BooleanField(default=False, db_default=False)
    # The coach's note on this seat's latest decision, shown beside the card to its account
    # until its next move (``games.play.coach``); ``None``: nothing to say.
    coach_note = models.JSONField(null=True, blank=True, default=None)
    # Stored when the game finishes, so high scores never recompute cards.
    grand_total = models.IntegerField(null=True, blank=True)
    # Graded when the game finishes: the card's accuracy (``strategy.accuracy``), and how.
    accuracy = models.FloatField(null=True, blank=True)
    grading = models.CharField(
        max_length=8, choices=Grading, blank=True, default=Grading.PENDING, db_default=""
    )

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.CheckConstraint(
                condition=Q(accuracy__isnull=True, grading__in=[Grading.PENDING, Grading.NONE])
                | Q(
                    accuracy__isnull=False,  # a check that comes out NULL would pass
                    accuracy__range=(0, 100),
                    grading__in=[Grading.EXACT, Grading.ESTIMATE],
                ),
                name="seat_accuracy_graded",
            ),
            # One seat per account in a game (guests and computers have none): racing joins
            # through two links can never seat one account twice.
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(user__isnull=False),
                name="seat_one_per_account",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "game"], name="seat_user_game"),
            models.Index(fields=["user", "game_over", "-on_turn", "-game"], name="seat_user_turn"),
            # The finished cards still to grade (``manage.py grade_games``): none, once graded.
            models.Index(
                fields=["id"],
                name="seat_ungraded",
                condition=Q(grading="", grand_total__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} in game {self.game_id}"

    @property
    def ungraded(self) -> bool:
        """A finished card whose accuracy is still to grade (``games.review.grading``)."""
        return self.grand_total is not None and self.grading == Grading.PENDING


class Invitation(models.Model):
    """A seat offered online: by a link for one friend, or to anyone in the lobby.

    The token is the link's secret (long, unguessable, for this game only). Once an account
    takes the seat, ``seat`` points at it; a revoked invitation, or one left open when the host
    starts the game, can no longer be used, nor can a lobby seat nobody took within
    ``LOBBY_SEAT_LIFETIME``.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    open_to_all = models.BooleanField(default=False)
    # A seat kept for one account (a rematch's): nobody else can take it.
    for_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # A player who leaves before the start frees the seat: the invitation is open again.
    seat = models.OneToOneField(
        Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="invitation"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "pk"]
        indexes = [
            # The lobby: seats open to anyone, not yet taken nor withdrawn, newest first. Only
            # they are in it, so the lobby reads the range still open (``lobby_cutoff``) from
            # its newest end and stops after a page, however many games wait or have waited.
            models.Index(
                fields=["-created_at", "-id"],
                name="invitation_lobby_newest",
                condition=Q(open_to_all=True, seat__isnull=True, revoked_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"Invitation to game {self.game_id}"

    @property
    def is_open(self) -> bool:
        return self.seat_id is None and self.revoked_at is None

    def closed_in_lobby(self, now: datetime) -> bool:
        """Whether this is a lobby seat offered for ``LOBBY_SEAT_LIFETIME`` without being taken:
        it is no longer listed, nor can it be taken."""
        return self.open_to_all and self.created_at <= lobby_cutoff(now)


class MoveAction(models.TextChoices):
    ROLL = "roll", "Roll"
    SCORE = "score", "Score"
    UNDO = "undo", "Undo"  # the scoring logged just before it is taken back
    RESIGN = "resign", "Resign"
    FIRST = "first", "Roll for first"
    SKIP = "skip", "Skip"  # an idle player's turn, scored as a zero (rules.skipped_box)
    END = "end", "End"  # the host ended the game in play for everyone (abandoned)


class Move(models.Model):
    """One entry in a game's log, in order: each roll for first, roll, scoring, undo, resign,
    skip and end; enough to replay the whole game through ``rules.Match`` (``games.replay``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    round = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=8, choices=MoveAction)
    dice = models.JSONField()
    held = models.JSONField(default=list, blank=True)
    roll_number = models.PositiveSmallIntegerField(null=True, blank=True)
    column = models.PositiveSmallIntegerField(null=True, blank=True)
    box = models.CharField(max_length=20, blank=True)
    points = models.SmallIntegerField(null=True, blank=True)
    yahtzee_bonus = models.PositiveSmallIntegerField(default=0)
    joker = models.BooleanField(default=False)
    upper_bonus = models.PositiveSmallIntegerField(default=0)
    """For a scoring, the upper bonus it earned (its column's upper boxes reaching 63)."""
    by_position = models.PositiveSmallIntegerField(null=True, blank=True)
    """For a skip, the seat (its position) of the player who skipped the idle one."""
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq")]

    def __str__(self) -> str:
        return f"{self.action} #{self.seq} in game {self.game_id}"


class HighScorePeriod(models.TextChoices):
    ALL_TIME = "all", "All time"
    MONTH = "30d", "Last 30 days"
    WEEK = "7d", "Last 7 days"


class Score(models.Model):
    """A finished seat's result, copied out for the high scores and statistics.

    One row per seat of a finished game (abandoned games have none), with the few numbers the
    tables and charts need, so those pages read one indexed table and never recompute cards.
    """

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="score")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="scores")
    kind = models.CharField(max_length=16, choices=KIND_CHOICES)
    player_kind = models.CharField(max_length=16, choices=PlayerKind)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="scores",
    )
    display_name = models.CharField(max_length=30)
    grand_total = models.IntegerField()
    upper_bonuses = models.PositiveSmallIntegerField(default=0)
    yahtzees = models.PositiveSmallIntegerField(default=0)
    yahtzee_bonuses = models.PositiveSmallIntegerField(default=0)
    hints = models.PositiveSmallIntegerField(default=0)
    coached = models.BooleanField(default=False, db_default=False)  # played with the coach
    # A day's challenge (``games.daily``): counted in its player's statistics, never ranked in
    # the high scores, where knowing the day's dice from another account would buy a place.
    challenge = models.BooleanField(default=False, db_default=False)
    finished_at = models.DateTimeField()
    # Where the game stood in the high scores when it finished ("New high score — #3 ...").
    high_score_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    high_score_period = models.CharField(
        max_length=8, choices=HighScorePeriod, blank=True, default=""
    )

    class Meta:
        ordering = ["-grand_total", "finished_at", "id"]
        indexes = [
            # The top ten: best first, earlier first among equals, per kind and player kind
            # (the days' challenges, never ranked, apart).
            models.Index(
                fields=["kind", "player_kind", "challenge", "-grand_total", "finished_at", "id"],
                name="score_ranking",
            ),
            # Counting a period's rows (a player's rank in the last 7 or 30 days).
            models.Index(
                fields=["kind", "player_kind", "challenge", "finished_at"], name="score_recent"
            ),
            models.Index(fields=["user", "kind", "finished_at"], name="score_player"),
        ]

    def __str__(self) -> str:
        return f"{self.display_name}: {self.grand_total} ({self.kind})"


class SharedGame(models.Model):
    """A finished game's card its player chose to show to anyone holding the link.

    The token is the link's whole secret (long and random: the link can be guessed no better
    than a password). Withdrawing deletes the row, so the old link answers 404 for good; sharing
    again makes a new link.
    """

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="shared")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Shared card of seat {self.seat_id}"


# The models of a feature's own room live there, registered with this app: the daily
# challenge's, the turn mail's, quick play's, the ratings', the trainer's and the tournaments'.
import games.daily.models  # noqa: E402
import games.play.models  # noqa: E402
import games.quickplay.models  # noqa: E402
import games.ratings.models  # noqa: E402
import games.tournaments.models  # noqa: E402
import games.trainer.models  # noqa: E402, F401
