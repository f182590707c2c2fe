"""Writing many rows fast: straight into the tables and columns the models name (COPY on
PostgreSQL, ``executemany`` elsewhere), with the models' own indexes left out while the tables
fill and built once at the end, then the planner's statistics gathered.

A million rows go in about twice as fast without the models' own indexes (the ranking, recent
and per-player ones) kept up row by row. They are dropped only from empty tables and never inside
a transaction (as in the tests), and any that is missing is built again before anything is
measured, even after a fill killed midway.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.management.color import no_style
from django.db import connection
from django.db.models import Field, Index, Model

from bench.output import BenchError, Console

Models = Sequence[type[Model]]


class TableWriter:
    """Inserts tuples of the given attributes (in order) into a model's table.

    Every other concrete column gets its field default, computed once; a schema change that
    adds a required column without a default, or drops one of ``attnames``, fails loudly here.
    """

    def __init__(self, model: type[Model], attnames: Sequence[str]) -> None:
        fields: dict[str, Field[Any, Any]] = {
            f.attname: f for f in model._meta.concrete_fields if not getattr(f, "generated", False)
        }
        unknown = [name for name in attnames if name not in fields]
        if unknown:
            raise BenchError(f"{model.__name__} has no column for {unknown}: update bench/fill.py")
        tail_fields = []
        for name, f in fields.items():
            if name in attnames:
                continue
            if f.has_default() or f.null:
                tail_fields.append(f)
            elif f.has_db_default():
                continue  # the database fills it
            elif f.empty_strings_allowed:
                tail_fields.append(f)  # CharField and friends default to ""
            else:
                raise BenchError(
                    f"{model.__name__}.{name} is required and has no default: update bench/fill.py"
                )
        self.table = model._meta.db_table
        self.columns = [_column(fields[name]) for name in attnames]
        self.columns += [_column(f) for f in tail_fields]
        self.tail = tuple(f.get_db_prep_save(f.get_default(), connection) for f in tail_fields)

    def write(self, rows: Iterable[tuple[Any, ...]]) -> None:
        qn = connection.ops.quote_name
        tail = self.tail
        columns = ", ".join(qn(c) for c in self.columns)
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                raw = cursor.cursor  # the psycopg cursor under Django's wrapper
                with raw.copy(f"COPY {qn(self.table)} ({columns}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row + tail)
            else:
                marks = ", ".join(["%s"] * len(self.columns))
                cursor.executemany(
                    f"INSERT INTO {qn(self.table)} ({columns}) VALUES ({marks})",
                    [row + tail for row in rows],
                )


def _column(field: Field[Any, Any]) -> str:
    if field.column is None:  # only a field that is not in the table has none
        raise BenchError(f"{field} has no column")
    return field.column


def model_indexes(models: Models) -> list[tuple[type[Model], Index]]:
    return [(model, index) for model in models for index in model._meta.indexes]


def present_indexes(models: Models) -> dict[type[Model], set[str]]:
    """The names of the indexes and constraints each model's table has now."""
    with connection.cursor() as cursor:
        return {
            model: set(connection.introspection.get_constraints(cursor, model._meta.db_table))
            for model in models
        }


def drop_indexes(models: Models) -> bool:
    """Drop the models' own indexes if every table is empty; say whether they were dropped."""
    if connection.in_atomic_block or any(m._default_manager.exists() for m in models):
        return False
    present = present_indexes(models)
    with connection.schema_editor() as editor:
        for model, index in model_indexes(models):
            if index.name in present[model]:
                editor.remove_index(model, index)
    return True


def restore_indexes(models: Models, console: Console) -> None:
    """Build any of the models' own indexes that is missing (as after ``drop_indexes``, or after
    a fill killed midway)."""
    if connection.in_atomic_block:
        return
    started = time.perf_counter()
    present = present_indexes(models)
    missing = [(m, index) for m, index in model_indexes(models) if index.name not in present[m]]
    if not missing:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET maintenance_work_mem = '256MB'")
    with connection.schema_editor() as editor:
        for model, index in missing:
            editor.add_index(model, index)
    names = ", ".join(index.name for _, index in missing)
    console.line(f"  built indexes {names} in {time.perf_counter() - started:.1f} s")


def reset_sequences(models: Models) -> None:
    """Point the id sequences past the ids written by hand."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(sql)


def analyze(models: Models) -> None:
    """Gather the planner's statistics on the models' tables."""
    tables = [m._meta.db_table for m in models]
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # VACUUM also sets the visibility map, for index-only scans; not in a transaction.
            verb = "ANALYZE" if connection.in_atomic_block else "VACUUM (ANALYZE)"
            cursor.execute(f"{verb} {', '.join(qn(t) for t in tables)}")
        elif connection.vendor == "sqlite":
            cursor.execute("ANALYZE")
        else:
            for table in tables:
                cursor.execute(f"ANALYZE TABLE {qn(table)}")
