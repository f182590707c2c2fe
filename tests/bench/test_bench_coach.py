"""The coach's bench: two players alike but for the coach play the same games on the same dice,
and the figure held to its target is a turn's moves with the coach over the same without."""

from __future__ import annotations

import io

from django.core.management.base import OutputWrapper
from django.core.management.color import no_style

from bench import coach
from bench.output import Console
from games.models import Game


def test_the_ratio_is_a_turn_at_the_medians_with_the_coach_over_without() -> None:
    ms = 1 / 1000
    times = {
        (True, "roll"): [2 * ms, 2 * ms, 90 * ms],  # one pause of the machine's: no weight
        (False, "roll"): [2 * ms, 2 * ms, 2 * ms],
        (True, "reroll"): [4 * ms] * 3,
        (False, "reroll"): [3 * ms] * 3,
        (True, "score"): [4 * ms] * 3,
        (False, "score"): [3 * ms] * 3,
    }

    found = coach.figures(times, spoke=4)

    assert (found["coach_roll_ms"], found["plain_reroll_ms"]) == (2.0, 3.0)
    assert found["coach_vs_plain"] == round(10 / 8, 3)
    assert found["coach_vs_plain_graded"] == round(8 / 6, 3)
    assert found["coach_vs_plain_mean"] > 3  # the pause counts in the means
    assert found["coach_notes"] == 4


def test_a_run_plays_both_players_alike_and_leaves_no_game(
    db, strategy_dir, table, monkeypatch
) -> None:
    monkeypatch.setattr(coach, "GAMES", 1)
    out = io.StringIO()
    console = Console(OutputWrapper(out), OutputWrapper(io.StringIO()), no_style())

    found = coach.run(strategy_dir, console, seed=7)

    assert "39 moves each with and without the coach, interleaved" in out.getvalue()
    assert found["coach_notes"] > 0  # the bench's turns are poor play: the coach speaks
    assert found["coach_vs_plain"] > 0 and found["plain_score_ms"] > 0
    assert not Game.objects.exists()
