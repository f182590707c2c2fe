"""The solved tables on disk, one per solved kind (Classic, whose table Triple's heuristic reads
too, and Yatzy): a versioned header, then the value of every state as float64, memory-mapped
read-only so every worker process of a server shares one copy.

A file whose header does not match this code (format version, rule convention, size) is never
read: ``load_table`` raises ``StaleTable`` and ``ensure_table`` builds it again.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from games.rules.scoring import CLASSIC, YATZY, GameKind
from games.strategy import yatzy
from games.strategy.dice import FloatArray
from games.strategy.solver import solve
from games.strategy.states import TABLE_SIZE, Convention, State, state_index

SOLVED: Final = (CLASSIC, YATZY)
"""The kinds with a table of their own."""

FORMAT_VERSION: Final = 1
"""Bump when the solver, the state layout or the scoring it assumes changes."""
MAGIC: Final = b"YAHTZEE-STRATEGY-TABLE\n"
HEADER_SIZE: Final = 4096
"""Header bytes, padded to a page so the values start page-aligned."""


class StaleTable(ValueError):
    """The table file is missing, or was written by another version or for another rule."""


def _size(kind: GameKind) -> int:
    return yatzy.TABLE_SIZE if kind is YATZY else TABLE_SIZE


def _solved(kind: GameKind) -> GameKind:
    if kind not in SOLVED:
        raise ValueError(f"{kind.name} has no table of its own.")
    return kind


@dataclass(frozen=True)
class StrategyTable:
    """Every reachable state's expected points still to come, ``values[state_index(...)]``
    (``yatzy.state_index`` for a Yatzy table); ``convention`` is Classic's Joker rule."""

    convention: Convention
    values: FloatArray
    path: Path | None = None
    kind: GameKind = CLASSIC

    @property
    def new_game(self) -> float:
        """The expected final score of a new game played perfectly (index 0 in every layout)."""
        return float(self.values[state_index(0, 0, False)])

    def value(self, state: State) -> float:
        return float(self.values[state.index])


def table_path(
    directory: str | Path, convention: Convention = Convention.FORCED, kind: GameKind = CLASSIC
) -> Path:
    if _solved(kind) is YATZY:
        return Path(directory) / "strategy-yatzy.bin"
    return Path(directory) / f"strategy-{convention.value}.bin"


def _header(convention: Convention, kind: GameKind = CLASSIC) -> dict[str, object]:
    if kind is YATZY:  # no Joker, so no convention
        return {
            "format": FORMAT_VERSION,
            "kind": kind.key,
            "states": yatzy.TABLE_SIZE,
            "dtype": "<f8",
        }
    return {
        "format": FORMAT_VERSION,
        "convention": convention.value,
        "states": TABLE_SIZE,
        "dtype": "<f8",
    }


def save_table(table: StrategyTable, path: Path) -> None:
    """Write atomically: a reader sees the old file or the whole new one, never half."""
    header = json.dumps(_header(table.convention, table.kind)).encode() + b"\n"
    raw = MAGIC + header
    if len(raw) > HEADER_SIZE:
        raise ValueError("table header too long")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(raw.ljust(HEADER_SIZE, b" "))
            out.write(np.ascontiguousarray(table.values, dtype="<f8").tobytes())
        os.chmod(tmp, 0o644)  # every server worker reads it
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_table(
    path: str | Path, convention: Convention = Convention.FORCED, kind: GameKind = CLASSIC
) -> StrategyTable:
    """Memory-map a table file, after checking its header says what this code expects."""
    path, size_wanted, expected = Path(path), _size(kind), _header(convention, _solved(kind))
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_SIZE)
        size = os.path.getsize(path)
    except FileNotFoundError as exc:
        raise StaleTable(f"no strategy table at {path}") from exc
    if not head.startswith(MAGIC):
        raise StaleTable(f"{path} is not a strategy table")
    try:
        header = json.loads(head[len(MAGIC) :].split(b"\n", 1)[0])
    except ValueError as exc:
        raise StaleTable(f"{path} has an unreadable header") from exc
    if header != expected:
        raise StaleTable(f"{path} was written for {header}, not {expected}")
    if size != HEADER_SIZE + size_wanted * 8:
        raise StaleTable(f"{path} is {size} bytes, not {HEADER_SIZE + size_wanted * 8}")
    values = np.memmap(path, dtype="<f8", mode="r", offset=HEADER_SIZE, shape=(size_wanted,))
    return StrategyTable(convention, values, path, kind)


def compute_table(
    convention: Convention = Convention.FORCED, *, processes: int = 2, kind: GameKind = CLASSIC
) -> StrategyTable:
    if _solved(kind) is YATZY:
        return StrategyTable(convention, yatzy.solve(processes=processes), kind=YATZY)
    return StrategyTable(convention, solve(convention, processes=processes))


@dataclass(frozen=True)
class Build:
    """What ``ensure_table`` did: the table, whether it was computed now, and how long that took
    (``solve_seconds`` the computation alone, ``seconds`` with writing and loading, both wall
    clock; ``cpu_seconds`` the processor time of the computation over all its processes, which a
    busy machine does not inflate the way it does the wall clock)."""

    table: StrategyTable
    built: bool
    solve_seconds: float
    seconds: float
    cpu_seconds: float = 0.0


def ensure_table(
    directory: str | Path,
    convention: Convention = Convention.FORCED,
    *,
    force: bool = False,
    processes: int = 2,
    kind: GameKind = CLASSIC,
) -> Build:
    """Load ``kind``'s table from ``directory``, computing and storing it first when it is
    missing, stale, or ``force`` says so (Yatzy's ignores ``convention``)."""
    started = time.perf_counter()
    path = table_path(directory, convention, kind)
    if not force:
        try:
            table = load_table(path, convention, kind)
            return Build(table, False, 0.0, time.perf_counter() - started)
        except StaleTable:
            pass
    cpu_before = _cpu()
    computed = compute_table(convention, processes=processes, kind=kind)
    solved, cpu = time.perf_counter(), _cpu() - cpu_before
    save_table(computed, path)
    table = load_table(path, convention, kind)
    return Build(table, True, solved - started, time.perf_counter() - started, cpu)


def _cpu() -> float:
    """Processor seconds of this process and its finished children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
