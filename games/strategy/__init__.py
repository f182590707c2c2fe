"""Perfect play for Yahtzee and Yatzy: the exact solvers of Classic and Yatzy solitaire, the
tables they write, a turn-level advisor, post-game analysis and computer players. Pure Python and
numpy; no Django.

    build = ensure_table(directory)            # load, or compute and store (about a second)
    build = ensure_table(directory, kind=YATZY)  # Yatzy's own table (a few seconds)
    advisor = Advisor(build.table)             # advises the table's kind (Classic's: Triple too)
    advisor.hint(sheet, turn)                  # best move, alternatives, a sentence, exact?
    analyse(advisor, GameRecord(turns))        # points each decision cost
    make_bot("perfect", advisor, rng).decide(sheet, turn)
"""

from games.strategy.advisor import Action, Advisor, Hint, Option, RollDice, ScoreBox
from games.strategy.analysis import (
    Analysis,
    Decision,
    GameRecord,
    RecordError,
    TurnRecord,
    accuracy,
    analyse,
    grade,
)
from games.strategy.bots import BOT_NAMES, Bot, make_bot
from games.strategy.simulate import Report, Spread, play_game, seeded_dice, simulate
from games.strategy.solver import solve
from games.strategy.states import Convention, State
from games.strategy.table import (
    FORMAT_VERSION,
    SOLVED,
    Build,
    StaleTable,
    StrategyTable,
    compute_table,
    ensure_table,
    load_table,
    save_table,
    table_path,
)

__all__ = [
    "BOT_NAMES", "FORMAT_VERSION", "SOLVED", "Action", "Advisor", "Analysis", "Bot", "Build",
    "Convention", "Decision", "GameRecord", "Hint", "Option", "RecordError", "Report", "RollDice",
    "ScoreBox", "Spread", "StaleTable", "State", "StrategyTable", "TurnRecord", "accuracy",
    "analyse", "compute_table", "ensure_table", "grade", "load_table", "make_bot", "play_game",
    "save_table", "seeded_dice", "simulate", "solve", "table_path",
]  # fmt: skip
