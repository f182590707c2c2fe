"""Mutation testing for the modules where a wrong operator is a wrong score or a free licence.

For each module below, every small change a slip of the keyboard could make (an operator
swapped, a constant off by one, a condition negated, a keyword argument, filter argument,
decorator or call statement dropped, ``transaction.atomic()`` made a no-op, an entry dropped from
a module-level table) is applied in turn to a private copy of the repository, and the module's
tests run against it. A mutant the tests fail on is killed; one they pass is a survivor, printed
with its line so a test can be written for it. The working tree is only ever read: copies live
in a temporary folder removed on exit, even on Ctrl-C.

    make mutation                                    # every module, 2 workers
    .venv/bin/python tools/mutate.py accounts/serials.py --jobs 1
    .venv/bin/python tools/mutate.py --list games/rules/dice.py

Strings are not mutated (they are messages; the tests check the ones that matter) and neither
are docstrings, annotations, f-strings or ``assert`` statements (they are there for mypy).
"""

from __future__ import annotations

import argparse
import ast
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

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
    "games/store.py": STORE_TESTS,
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
}

MAX_JOBS = 2  # the machine is shared

COMPARE_SWAPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAPS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitXor: ast.BitOr,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.Pow: ast.Mult,
}
NAME_SWAPS = {"min": "max", "max": "min", "any": "all", "all": "any"}
QUERY_METHODS = {"filter", "exclude"}


@dataclass(frozen=True)
class Mutant:
    path: str
    line: int
    before: str
    after: str
    source: str

    def describe(self) -> str:
        def short(text: str) -> str:
            text = " ".join(text.split())
            return text if len(text) <= 70 else text[:67] + "..."

        return f"{self.path}:{self.line}: {short(self.before)}  ->  {short(self.after)}"


class _Source:
    """The module's text, with spans addressed as the ``ast`` gives them (UTF-8 byte columns)."""

    def __init__(self, text: str) -> None:
        self.data = text.encode()
        self.line_starts = [0]
        for i, byte in enumerate(self.data):
            if byte == ord("\n"):
                self.line_starts.append(i + 1)

    def offset(self, line: int, col: int) -> int:
        return self.line_starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
        return start, end

    def text(self, start: int, end: int) -> str:
        return self.data[start:end].decode()

    def replace(self, start: int, end: int, new: str) -> str:
        return (self.data[:start] + new.encode() + self.data[end:]).decode()


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """Ids of nodes never mutated: docstrings, annotations, f-strings, asserts, ``__all__``."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                skip(body[0])
        if isinstance(node, ast.arg):
            skip(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            skip(node.returns)
        elif isinstance(node, ast.AnnAssign):
            skip(node.annotation)
        elif (
            isinstance(node, ast.JoinedStr | ast.Assert | ast.ImportFrom | ast.Import)
            or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
            or (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            )
        ):
            skip(node)  # messages, attribute docstrings, what mypy reads, the export list
    return skipped


def _module_level_tables(tree: ast.Module) -> Iterator[ast.AST]:
    for statement in tree.body:
        value = getattr(statement, "value", None)
        if isinstance(statement, ast.Assign | ast.AnnAssign) and value is not None:
            if isinstance(value, ast.Call) and value.args:  # Final wraps nothing at runtime
                value = value.args[0]
            if isinstance(value, ast.Tuple | ast.List | ast.Set | ast.Dict):
                yield value


def mutants(path: str, text: str) -> Iterator[Mutant]:
    """Every mutant of the module at ``path`` whose source is ``text``."""
    tree = ast.parse(text)
    source = _Source(text)
    skipped = _skipped_nodes(tree)
    seen: set[str] = set()

    def make(node: ast.AST, new: str, *, span: tuple[int, int] | None = None) -> Mutant | None:
        start, end = span or source.span(node)
        mutated = source.replace(start, end, new)
        if mutated == text or mutated in seen:
            return None
        try:
            ast.parse(mutated)
        except SyntaxError:
            return None
        seen.add(mutated)
        return Mutant(path, node.lineno, source.text(start, end), new, mutated)  # type: ignore[attr-defined]

    def expr(node: ast.AST, new: ast.AST) -> Mutant | None:
        return make(node, f"({ast.unparse(new)})")

    def copy(node: ast.AST) -> ast.AST:
        return ast.parse(ast.unparse(node), mode="eval").body

    candidates: list[Mutant | None] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in COMPARE_SWAPS:
                    new = copy(node)
                    assert isinstance(new, ast.Compare)
                    new.ops[i] = COMPARE_SWAPS[type(op)]()
                    candidates.append(expr(node, new))
        elif isinstance(node, ast.BoolOp):
            new = copy(node)
            assert isinstance(new, ast.BoolOp)
            new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            candidates.append(expr(node, new))
        elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAPS:
            new = copy(node)
            assert isinstance(new, ast.BinOp)
            new.op = BINOP_SWAPS[type(node.op)]()
            candidates.append(expr(node, new))
        elif isinstance(node, ast.AugAssign) and type(node.op) in BINOP_SWAPS:
            new_aug = ast.AugAssign(node.target, BINOP_SWAPS[type(node.op)](), node.value)
            candidates.append(make(node, ast.unparse(new_aug)))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            candidates.append(make(node, f"({source.text(*source.span(node.operand))})"))
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                candidates.append(make(node, str(not value)))
            elif isinstance(value, int):
                candidates.append(make(node, f"({value + 1})"))
                candidates.append(make(node, f"({value - 1})"))
        elif isinstance(node, ast.Name) and node.id in NAME_SWAPS:
            candidates.append(make(node, NAME_SWAPS[node.id]))
        elif isinstance(node, ast.Call):
            for i in range(len(node.keywords)):
                if node.keywords[i].arg is None:
                    continue
                new_call = copy(node)
                assert isinstance(new_call, ast.Call)
                del new_call.keywords[i]
                candidates.append(expr(node, new_call))
            name = node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if name in QUERY_METHODS:
                for i in range(len(node.args)):
                    new_call = copy(node)
                    assert isinstance(new_call, ast.Call)
                    del new_call.args[i]
                    candidates.append(expr(node, new_call))
        elif isinstance(node, ast.If | ast.While | ast.IfExp):
            test = source.text(*source.span(node.test))
            candidates.append(make(node.test, f"(not ({test}))"))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            candidates.append(make(node, "pass"))
        elif isinstance(node, ast.With):
            for item in node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and ast.unparse(call.func).endswith("atomic"):
                    nullcontext = "__import__('contextlib').nullcontext()"
                    candidates.append(make(call, nullcontext))
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            for decorator in node.decorator_list:
                start = source.offset(decorator.lineno, 0)
                end = source.offset(decorator.end_lineno or decorator.lineno, 0)
                end = source.data.index(b"\n", end) + 1
                candidates.append(make(decorator, "", span=(start, end)))
    for table in _module_level_tables(tree):
        if id(table) in skipped:
            continue
        if isinstance(table, ast.Dict):
            for key, value in zip(table.keys, table.values, strict=True):
                if key is not None:
                    start, _ = source.span(key)
                    _, end = source.span(value)
                    end = _past_comma(source, end)
                    candidates.append(make(key, "", span=(start, end)))
        else:
            assert isinstance(table, ast.Tuple | ast.List | ast.Set)
            if len(table.elts) > 1:
                for element in table.elts:
                    start, end = source.span(element)
                    candidates.append(make(element, "", span=(start, _past_comma(source, end))))
    found = sorted((m for m in candidates if m is not None), key=lambda m: m.line)
    yield from found


def _past_comma(source: _Source, end: int) -> int:
    """Just past the comma after a table entry, if there is one."""
    rest = source.data[end:]
    stripped = rest.lstrip(b" \t")
    if stripped.startswith(b","):
        return end + (len(rest) - len(stripped)) + 1
    return end


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
