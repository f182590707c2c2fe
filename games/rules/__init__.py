"""The rules of Yahtzee and of its Nordic cousin Yatzy as pure Python: boxes, dice, scoring,
the turn, the score sheet and the whole match (every seat, who goes first, undo, resign, skip)
with its log of events.

Nothing here imports Django, reads the clock or touches a global random generator. Dice come
from a ``DiceSource`` passed in, so tests script them and production draws them from
``secrets.SystemRandom``. ``../shared/RULES.md`` (Yahtzee) and ``docs/YATZY.md`` (Yatzy) are
the specification this package implements; ``from games import rules`` gives the whole
vocabulary.
"""

from games.rules import actions
from games.rules.actions import Action, Player
from games.rules.boxes import (
    CATEGORIES,
    FACE_OF,
    LOWER,
    UPPER,
    UPPER_BOX_OF_FACE,
    YATZY_BOXES,
    Box,
    Section,
)
from games.rules.dice import (
    DICE_COUNT,
    FACES,
    MAX_ROLLS,
    NO_HOLD,
    Dice,
    DiceSource,
    Held,
    describe_dice,
    describe_die,
    face_name,
    is_yahtzee,
    system_dice,
    validate_dice,
)
from games.rules.errors import (
    BoxFilled,
    CannotSkip,
    IllegalMove,
    InvalidHold,
    JokerForbids,
    MatchOver,
    NoHelpHere,
    NoRollsLeft,
    NothingToUndo,
    NotHost,
    NotRolledYet,
    OutOfTurn,
    ScorecardComplete,
    SeatResigned,
    TableRefused,
    UnknownBox,
    UnknownSeat,
    ZeroToConfirm,
)
from games.rules.events import (
    Ended,
    FirstRoll,
    HeldDice,
    Hinted,
    MatchEvent,
    Resigned,
    Rolled,
    Scored,
    Skipped,
    Started,
    Undone,
)
from games.rules.history import NoHistory, PlayedTurn, played_turns
from games.rules.leaving import skipped_box
from games.rules.match import MAX_SEATS, Match
from games.rules.phases import MatchPhase, SeatState, Standing
from games.rules.scoring import (
    CLASSIC,
    FULL_HOUSE_POINTS,
    KINDS,
    LARGE_STRAIGHT_POINTS,
    PLAYABLE,
    SMALL_STRAIGHT_POINTS,
    TRIPLE,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    YAHTZEE_POINTS,
    YATZY,
    YATZY_LARGE_STRAIGHT_POINTS,
    YATZY_SMALL_STRAIGHT_POINTS,
    YATZY_UPPER_BONUS,
    Card,
    GameKind,
    GameTotals,
    Slot,
    box_score,
    column_scores,
    game_totals,
    joker_applies,
    legal_moves,
    legal_scores,
    totals,
    yahtzee_bonus,
)
from games.rules.turn import (
    Roll,
    Scoring,
    Sheet,
    Turn,
    can_hold,
    can_roll,
    can_score,
    hold,
    roll,
    score,
    verify_hold,
    verify_roll,
    verify_score,
)

__all__ = [
    "CATEGORIES", "CLASSIC", "DICE_COUNT", "FACES", "FACE_OF", "FULL_HOUSE_POINTS", "KINDS",
    "LARGE_STRAIGHT_POINTS", "LOWER", "MAX_ROLLS", "MAX_SEATS", "NO_HOLD", "PLAYABLE",
    "SMALL_STRAIGHT_POINTS", "TRIPLE", "UPPER", "UPPER_BONUS", "UPPER_BONUS_THRESHOLD",
    "UPPER_BOX_OF_FACE", "YAHTZEE_BONUS", "YAHTZEE_POINTS", "YATZY", "YATZY_BOXES",
    "YATZY_LARGE_STRAIGHT_POINTS", "YATZY_SMALL_STRAIGHT_POINTS", "YATZY_UPPER_BONUS", "Action",
    "Box", "BoxFilled", "CannotSkip", "Card", "Dice", "DiceSource", "Ended", "FirstRoll",
    "GameKind", "GameTotals", "Held", "HeldDice", "Hinted", "IllegalMove", "InvalidHold",
    "JokerForbids", "Match", "MatchEvent", "MatchOver", "MatchPhase", "NoHelpHere", "NoHistory",
    "NoRollsLeft", "NotHost", "NotRolledYet", "NothingToUndo", "OutOfTurn", "PlayedTurn", "Player",
    "Resigned", "Roll", "Rolled", "ScorecardComplete", "Scored", "Scoring", "SeatResigned",
    "SeatState", "Section", "Sheet", "Skipped", "Slot", "Standing", "Started", "TableRefused",
    "Turn", "Undone", "UnknownBox", "UnknownSeat", "ZeroToConfirm", "actions", "box_score",
    "can_hold", "can_roll", "can_score", "column_scores", "describe_dice", "describe_die",
    "face_name", "game_totals", "hold", "is_yahtzee", "joker_applies", "legal_moves",
    "legal_scores", "played_turns", "roll", "score", "skipped_box", "system_dice", "totals",
    "validate_dice", "verify_hold", "verify_roll", "verify_score", "yahtzee_bonus"
]  # fmt: skip
