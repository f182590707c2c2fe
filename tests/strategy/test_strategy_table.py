"""The table file: versioned, memory-mapped, never misread, rebuilt when stale."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from games.strategy import (
    Convention,
    StaleTable,
    StrategyTable,
    ensure_table,
    load_table,
    save_table,
    table_path,
)
from games.strategy import table as table_module
from games.strategy.states import TABLE_SIZE


def test_the_stored_table_is_memory_mapped_read_only(table: StrategyTable) -> None:
    assert isinstance(table.values, np.memmap)
    assert table.values.mode == "r"
    with pytest.raises(ValueError):
        table.values[0] = 1.0


def test_a_valid_table_is_loaded_not_rebuilt(strategy_dir: Path, table: StrategyTable) -> None:
    build = ensure_table(strategy_dir, Convention.FORCED)
    assert not build.built
    assert build.table.new_game == table.new_game


def fake(convention: Convention) -> StrategyTable:
    return StrategyTable(convention, np.arange(TABLE_SIZE, dtype=np.float64))


def test_a_saved_table_loads_back(tmp_path: Path) -> None:
    path = table_path(tmp_path, Convention.FREE)
    save_table(fake(Convention.FREE), path)
    assert np.array_equal(load_table(path, Convention.FREE).values, fake(Convention.FREE).values)


def test_a_table_of_the_other_convention_is_not_read(tmp_path: Path) -> None:
    path = table_path(tmp_path, Convention.FORCED)
    save_table(fake(Convention.FREE), path)
    with pytest.raises(StaleTable):
        load_table(path, Convention.FORCED)


def test_a_table_of_another_format_version_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = table_path(tmp_path)
    monkeypatch.setattr(table_module, "FORMAT_VERSION", table_module.FORMAT_VERSION - 1)
    save_table(fake(Convention.FORCED), path)
    monkeypatch.undo()
    with pytest.raises(StaleTable, match="written for"):
        load_table(path)


@pytest.mark.parametrize(
    "damage", [lambda b: b[:-8], lambda b: b"not a table" + b[11:], lambda b: b""]
)
def test_a_truncated_or_foreign_file_is_not_read(tmp_path: Path, damage: object) -> None:
    path = table_path(tmp_path)
    save_table(fake(Convention.FORCED), path)
    path.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    with pytest.raises(StaleTable):
        load_table(path)


def test_a_stale_table_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = table_path(tmp_path)
    path.write_bytes(b"an old table")
    monkeypatch.setattr(
        table_module, "compute_table", lambda convention, processes, kind: fake(convention)
    )
    build = ensure_table(tmp_path)
    assert build.built
    assert build.table.values[5] == 5.0
