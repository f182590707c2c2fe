"""Mutation testing for the modules where a wrong operator is a wrong score or a free licence.

For each module below, every small change a slip of the keyboard could make (its mutants:
``tools/mutants.py`` says which) is applied in turn to a private copy of the repository, and the
module's tests run against it. A mutant the tests fail on is killed; one they pass is a
survivor, printed with its line so a test can be written for it. The working tree is only ever
read: copies live in a temporary folder removed on exit, even on Ctrl-C.

    make mutation                                    # every module, 2 workers
    .venv/bin/python tools/mutate.py accounts/serials.py --jobs 1
    .venv/bin/python tools/mutate.py --list games/rules/dice.py
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mutants import Mutant, mutants  # beside this script, which Python puts first on the path

ROOT = Path(__file__).resolve().parent.parent

# Each module with the tests that speak for it, the quick ones first: with ``-x`` most mutants
# die in the first file, and only survivors pay for the slow property-based tests.
RULES_TESTS = (
    "tests/rules/test_dice.py",
    "tests/rules/test_turn.py",
    "tests/rules/test_scoring.py",
    "tests/rules/test_totals.py",
    "tests/rules/test_joker.py",
    "tests/rules/test_boxes.py",
    "tests/rules",
)
# The Match: its own tests, then the property tests that play whole matches.
MATCH_TESTS = (
    "tests/rules/test_match_gaps.py",
    "tests/rules/test_match.py",
    "tests/rules/test_match_actions.py",
    "tests/rules/test_match_machine.py",
)
# The store and its Move rows: the replay (every event kept and read back), then the services
# and online tests that load and save games through it, close a waiting game, count a hint.
STORE_TESTS = (
    "tests/store/test_store_gaps.py",
    "tests/store/test_replay.py",
    "tests/play/test_undo.py",
    "tests/play/test_game_services.py",
    "tests/play/test_hot_seat.py",
    "tests/play/test_resign_and_skip.py",
    "tests/play/test_roll_for_first.py",
    "tests/play/test_draw_for_first_leavers.py",
    "tests/play/test_computer_players.py",
    "tests/tables/test_invitations.py",
    "tests/play/test_hint_views.py",
)
TARGETS: dict[str, tuple[str, ...]] = {
    "games/rules/boxes.py": RULES_TESTS,
    "games/rules/dice.py": RULES_TESTS,
    "games/rules/errors.py": RULES_TESTS,
    "games/rules/scoring.py": RULES_TESTS,
    "games/rules/turn.py": RULES_TESTS,
    "games/rules/__init__.py": RULES_TESTS,
    "accounts/serials.py": ("tests/licensing/test_licence_serial_format.py",),
    "accounts/licensing.py": (
        "tests/licensing/test_licence_trial.py",
        "tests/licensing/test_licence_revoke.py",
        "tests/licensing/test_licence_redeem.py",
        "tests/licensing/test_licence_attempt_limits.py",
        "tests/licensing",
    ),
    **dict.fromkeys(
        (
            "games/rules/match.py",
            "games/rules/acting.py",
            "games/rules/actions.py",
            "games/rules/draw.py",
            "games/rules/events.py",
            "games/rules/leaving.py",
            "games/rules/playing.py",
            "games/rules/phases.py",
            "games/rules/undo.py",
        ),
        MATCH_TESTS,
    ),
    "games/moves.py": STORE_TESTS,
    "games/store.py": (*STORE_TESTS, "tests/play/test_coach_views.py"),  # keep_coaching
    "games/seating.py": (*STORE_TESTS, "tests/tables/test_room_pages.py"),
    "games/daily/dice.py": ("tests/daily/test_daily_dice.py",),
    # The codec of a stored match, and the door every action goes through (issue 36).
    "games/rules/codec.py": ("tests/rules/test_codec.py",),
    "games/play/actions.py": (
        "tests/play/test_door.py",
        *STORE_TESTS,
        "tests/daily/test_daily_closing.py",
        "tests/play/test_game_views.py",
        "tests/play/test_coach_views.py",
        "tests/test_house.py",
    ),
    "games/events.py": (
        "tests/play/test_door.py",
        *STORE_TESTS,
        "tests/play/test_turn_mail.py",
        "tests/review/test_grading.py",
    ),
    # Rated play (issue 37): the rating's arithmetic, and rating a game.
    "games/ratings/scale.py": ("tests/ratings/test_scale.py",),
    "games/ratings/services.py": (
        "tests/ratings/test_rating_games.py",
        "tests/ratings/test_rating_races.py",
        "tests/ratings/test_rated_mark.py",
    ),
}

MAX_JOBS = 2  # the machine is shared


# --- Running ---------------------------------------------------------------------------------


def _project_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def _make_copy(into: Path, files: list[str]) -> None:
    for name in files:
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)


def _pytest(copy: Path, tests: tuple[str, ...], timeout: float) -> tuple[str, float]:
    """Run ``tests`` in ``copy``: "passed", "failed" or "timeout", and the seconds it took."""
    tests = tuple(test for test in tests if (copy / test).exists())
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    command = [
        sys.executable,
        *("-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not browser"),
        *tests,
    ]
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=copy,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        process.wait()
        return "timeout", time.monotonic() - started
    finally:
        if process.poll() is None:
            os.killpg(process.pid, 9)
            process.wait()
    return ("passed" if code == 0 else "failed"), time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: all)")
    parser.add_argument("--jobs", type=int, default=MAX_JOBS, help=f"at most {MAX_JOBS}")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args(argv)
    modules = args.modules or list(TARGETS)
    unknown = [m for m in modules if m not in TARGETS]
    if unknown:
        parser.error(f"no tests are named for {unknown}; known: {', '.join(TARGETS)}")
    jobs = max(1, min(args.jobs, MAX_JOBS))

    if args.list:
        for module in modules:
            for mutant in mutants(module, (ROOT / module).read_text()):
                print(mutant.describe())
        return 0

    files = _project_files()
    scratch = Path(tempfile.mkdtemp(prefix="yahtzee-mutate-"))
    copies: queue.Queue[Path] = queue.Queue()
    try:
        for i in range(jobs):
            copy = scratch / f"worker{i}"
            _make_copy(copy, files)
            copies.put(copy)
        # Mutants of the copied text, which later edits of the working tree cannot change.
        plan = {m: list(mutants(m, (scratch / "worker0" / m).read_text())) for m in modules}
        scores: list[tuple[str, int, int]] = []
        for module, found in plan.items():
            scores.append(_mutate_module(module, found, copies, jobs))
        print("\nMutation scores (killed / mutants):")
        for module, killed, total in scores:
            percent = 100 * killed / total if total else 100.0
            print(f"  {module:28} {killed:4} / {total:<4} {percent:5.1f}%")
    except KeyboardInterrupt:  # also on SIGTERM, see below
        print("\ninterrupted: the working tree was never touched", file=sys.stderr)
        return 130
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


def _mutate_module(
    module: str, found: list[Mutant], copies: queue.Queue[Path], jobs: int
) -> tuple[str, int, int]:
    tests = TARGETS[module]
    if not found:
        print(f"{module}: no mutants", flush=True)
        return module, 0, 0
    copy = copies.get()
    original = (copy / module).read_text()  # as copied: the tree may have changed since
    try:
        outcome, seconds = _pytest(copy, tests, timeout=600)
    finally:
        copies.put(copy)
    if outcome != "passed":
        raise SystemExit(f"{module}: its tests fail before any mutation ({' '.join(tests)})")
    timeout = max(30.0, 4 * seconds)
    print(f"{module}: {len(found)} mutants, tests take {seconds:.0f}s", flush=True)

    def run(mutant: Mutant) -> tuple[Mutant, str]:
        copy = copies.get()
        target = copy / module
        try:
            target.write_text(mutant.source)
            outcome, _ = _pytest(copy, tests, timeout)
        finally:
            target.write_text(original)
            copies.put(copy)
        return mutant, outcome

    survivors = []
    killed = 0
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        for mutant, outcome in pool.map(run, found):
            if outcome == "passed":
                survivors.append(mutant)
                print(f"  survived  {mutant.describe()}", flush=True)
            else:
                killed += 1
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # on Ctrl-C: no new mutant starts
    print(f"{module}: {killed} of {len(found)} killed", flush=True)
    return module, killed, len(found)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _interrupt)
    sys.exit(main())
