"""The shape of the house, read from the code itself: the store knows no feature, the door is
the only caller of the store's save, the registry between them imports no room, and the rules
a feature once checked beside the Match are the Match's alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("daily", "home", "play", "quickplay", "ratings", "review", "scores", "strategy", "tables",
         "tournaments", "trainer", "watching")  # fmt: skip
"""The feature rooms of ``games/``: nothing below them imports any of them."""


def imports(path: Path) -> set[str]:
    """The modules ``path`` imports (``from a import b`` gives ``a`` and ``a.b``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def python_files() -> list[Path]:
    return [
        path
        for folder in ("games", "accounts", "yahtzee_site", "bench")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    ]


@pytest.mark.parametrize(
    "module", ["games/store.py", "games/seating.py", "games/events.py", "games/moves.py"]
)
def test_below_the_rooms_nothing_imports_a_room(module: str) -> None:
    rooms = {f"games.{room}" for room in ROOMS}
    found = imports(ROOT / module)
    reached = {name for name in found if any(name == r or name.startswith(f"{r}.") for r in rooms)}
    assert reached == set(), f"{module} imports {sorted(reached)}"


def test_the_store_imports_no_account_room_but_the_user() -> None:
    accounts = {name for name in imports(ROOT / "games/store.py") if name.startswith("accounts")}
    assert accounts <= {"accounts.models", "accounts.models.User"}


def calls(path: Path, owner: str, name: str) -> list[int]:
    """The lines of ``path`` that call ``owner.name(...)``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == name
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == owner
        ):
            found.append(node.lineno)
    return found


def test_only_the_door_saves_a_move() -> None:
    callers = {
        str(path.relative_to(ROOT)): lines
        for path in python_files()
        if (lines := calls(path, "store", "save"))
    }
    assert set(callers) == {"games/play/actions.py"}
    # ... and there, once: in the one function every action ends in.
    assert len(callers["games/play/actions.py"]) == 1


def test_the_help_a_challenge_refuses_is_decided_by_the_match_alone() -> None:
    """ "No hints in a challenge" was decided in three places, the seat limit in two: now only
    the rules say either (a room asks ``can_hint``, ``can_coach``, ``verify_table``)."""
    outside = []
    for path in python_files():
        if path.is_relative_to(ROOT / "games" / "rules"):
            continue
        text = path.read_text()
        for needle in ("No hints", "challenge_day is None", "> MAX_SEATS", ">= MAX_SEATS"):
            if needle in text:
                outside.append(f"{path.relative_to(ROOT)}: {needle}")
    assert outside == []
