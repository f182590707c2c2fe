"""The writes every move makes, and the reads of the busiest pages, as SQL built once per process.

A roll writes two rows and a score three, all from ``games.store`` (this module's only writer).
Django's ``save()`` spends most of a write building its SQL; measured on this machine
(2026-12-03, 3,000 writes in a transaction, best of five): a game's ``save(update_fields=…)``
0.146 ms against 0.037 ms here, a ``Move`` insert 0.161 against 0.081 ms on SQLite; 0.70
against 0.52 and 0.33 against 0.26 ms on PostgreSQL. So the two statements of a move (update
these fields of this row; insert this row) are built here once per model and set of fields,
and each value still goes through its field exactly as ``save()`` sends it (``pre_save`` for
``auto_now`` dates, ``get_db_prep_save`` for JSON and dates). A write is made, then run by
``send``, which the store calls once a save with all of its writes: on PostgreSQL they go as
one statement list (one round trip; 0.2–0.3 ms a move in ``make bench``), and whichever fails
raises there, in the save that made it, never later in code that did not. Only for models
whose ``save()`` does nothing else (``Game``, ``Seat``, ``Move``: no custom ``save()``, no save
signals, asked at every write); any other is refused, and so is a value that is an expression
(the ORM's job).

Reads are the same story: the ORM spends longer compiling a ``values_list()`` than the database
spends answering it (0.39 of the dashboard's 2.0 ms went to SQLite). ``rows`` compiles a
queryset once per process, with a stand-in for the one value that changes from call to call,
and afterwards only runs its SQL and passes each column through the converters the ORM itself
chose (dates, JSON), so the rows are what ``list(queryset)`` gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet, signals
from django.db.models.expressions import DatabaseDefault
from django.db.models.query import ValuesListIterable

Write = tuple[str, list[Any], str | None]
"""A write made: its SQL, its parameters, and for an UPDATE the row it must find."""


def update(instance: Model, fields: Sequence[str]) -> Write:
    """``instance.save(update_fields=fields)``, made (``send`` runs it): those columns of its
    row, and nothing else."""
    model, db = type(instance), _database()
    _check_plain(model)
    sql, columns = _update_sql(model, tuple(fields), db.vendor)
    params = [_prepared(field, field.pre_save(instance, False), db) for field in columns]
    return sql, [*params, instance.pk], f"{model.__name__} {instance.pk}"


def insert(instance: Model) -> Write:
    """``instance.save(force_insert=True)``, made (``send`` runs it), for a new row whose id is
    never read back. A field left to its ``db_default`` (and a generated one) is left out, for
    the database to fill."""
    model, db = type(instance), _database()
    _check_plain(model)
    # Pairs, not a dict keyed by field: a Field's hash is Python code, run twice a column.
    values = [
        (field, field.pre_save(instance, True))
        for field in model._meta.concrete_fields
        if not field.primary_key and not field.generated
    ]
    left = tuple(f.name for f, value in values if isinstance(value, DatabaseDefault))
    sql, _ = _insert_sql(model, left, db.vendor)
    params = [_prepared(field, value, db) for field, value in values if field.name not in left]
    return sql, params, None


def send(*writes: Write) -> None:
    """Run ``writes`` now, in order: on PostgreSQL as one statement list (one round trip for
    a move's two or three writes), elsewhere one by one. Raises here, at the first that fails
    (the database's own error), or ``DatabaseError`` when an UPDATE found no row."""
    db = _database()
    if db.vendor == "postgresql" and len(writes) > 1:
        batches = [list(writes)]
    else:
        batches = [[write] for write in writes]
    with db.cursor() as cursor:
        for batch in batches:
            cursor.execute(
                "; ".join(sql for sql, _, _ in batch), [p for _, ps, _ in batch for p in ps]
            )
            for index, (_, _, row) in enumerate(batch):
                if index:
                    cursor.nextset()
                if row is not None and cursor.rowcount != 1:
                    raise DatabaseError(f"{row} was not updated.")


def _prepared(field: Field[Any, Any], value: Any, db: BaseDatabaseWrapper) -> Any:
    if hasattr(value, "resolve_expression"):  # F(), Now(), a db_default in an update
        raise TypeError(f"{field.name} holds an expression: save it with the ORM.")
    return field.get_db_prep_save(value, db)


def _database() -> BaseDatabaseWrapper:
    """This thread's connection itself, looked up once for a whole read or write: through
    ``django.db.connection`` (a proxy) every attribute a field asks for while it prepares a value
    is a look-up in asgiref's ``Local`` (14 for a ``Move``'s insert, a third of its time)."""
    return connections[DEFAULT_DB_ALIAS]


Columns = list[Field[Any, Any]]


def _check_plain(model: type[Model]) -> None:
    """Refuse a model whose saving does more than write its row: this module would skip it.
    Asked at every write, so a receiver connected at any time is never silently skipped."""
    if model.save is not Model.save or any(
        signal.has_listeners(model) for signal in (signals.pre_save, signals.post_save)
    ):
        raise TypeError(f"{model.__name__} does more on save(): save it with the ORM.")


def _column(field: Field[Any, Any]) -> str:
    assert field.column is not None, f"{field.name} has no column"
    return connection.ops.quote_name(field.column)


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, Columns]:
    meta, quote = model._meta, connection.ops.quote_name
    fields: Columns = []
    for name in names:
        field = meta.get_field(name)
        if not (isinstance(field, Field) and field.concrete) or field.generated:
            raise TypeError(f"{model.__name__}.{name} is not a column this module may write.")
        fields.append(field)
    assignments = ", ".join(f"{_column(field)} = %s" for field in fields)
    assert isinstance(meta.pk, Field)
    where = f"{_column(meta.pk)} = %s"
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {where}", fields


@cache
def _insert_sql(model: type[Model], left: tuple[str, ...], vendor: str) -> tuple[str, Columns]:
    """The INSERT of every column of ``model`` but its key, generated ones and those ``left``
    to their database default."""
    meta, quote = model._meta, connection.ops.quote_name
    fields: Columns = [
        field
        for field in meta.concrete_fields
        if not field.primary_key and not field.generated and field.name not in left
    ]
    columns = ", ".join(_column(field) for field in fields)
    values = ", ".join("%s" for _ in fields)
    return f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({values})", fields


# --- Reads ---------------------------------------------------------------------------------------

STAND_IN = -7_346_121
"""What ``rows`` builds a queryset with: a key no row has, replaced by the real one in the SQL's
parameters (an id, so a negative one is never a real row's)."""

Build = Callable[[int], "QuerySet[Any, tuple[Any, ...]]"]


Read = tuple[Build, int, int | None]  # a values_list() of one id, the id, a LIMIT or None


def rows(build: Build, key: int, *, limit: int | None = None) -> list[tuple[Any, ...]]:
    """``list(build(key)[:limit])`` for a ``values_list()`` queryset, compiled once per process
    (and limit).

    ``build`` is a module-level function of one id; each place it uses the id becomes a
    parameter of the SQL (refused otherwise), and only those change from call to call."""
    return rows_together((build, key, limit))[0]


def rows_together(*reads: Read) -> list[list[tuple[Any, ...]]]:
    """The rows of each read, as ``rows`` gives them; on PostgreSQL all read in one round trip
    (one statement list, a result set each, in order)."""
    db = _database()
    compiled = [(_compiled(build, limit, db.vendor), key) for build, key, limit in reads]
    statements = []
    for (sql, fixed, slots, _), key in compiled:
        params = list(fixed)
        for slot in slots:
            params[slot] = key
        statements.append((sql, params))
    found: list[list[tuple[Any, ...]]] = []
    with db.cursor() as cursor:
        if db.vendor == "postgresql" and len(statements) > 1:
            cursor.execute(
                "; ".join(sql for sql, _ in statements), [p for _, ps in statements for p in ps]
            )
            for index in range(len(statements)):
                if index:
                    cursor.nextset()
                found.append(cursor.fetchall())
        else:
            for sql, params in statements:
                cursor.execute(sql, params)
                found.append(cursor.fetchall())
    return [
        _converted(answer, converters, db)
        for answer, ((_, _, _, converters), _) in zip(found, compiled, strict=True)
    ]


def _converted(
    found: list[tuple[Any, ...]], converters: Converters, db: BaseDatabaseWrapper
) -> list[tuple[Any, ...]]:
    if not converters:
        return found
    converted = []
    for row in found:
        values = list(row)
        for position, (functions, expression) in converters:
            value = values[position]
            for function in functions:
                value = function(value, expression, db)
            values[position] = value
        converted.append(tuple(values))
    return converted


Converters = list[tuple[int, tuple[list[Callable[..., Any]], Any]]]


@cache
def _compiled(
    build: Build, limit: int | None, vendor: str
) -> tuple[str, tuple[Any, ...], list[int], Converters]:
    queryset = build(STAND_IN)[:limit]
    if queryset._iterable_class is not ValuesListIterable:
        raise TypeError(f"{build.__name__}: rows() reads a values_list() of tuples")
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    slots = [index for index, param in enumerate(params) if param == STAND_IN]
    if not slots:
        raise TypeError(f"{build.__name__}: its one id must be a parameter of its SQL")
    selected = [expression for expression, _, _ in compiler.select[: compiler.col_count]]
    converters = list(compiler.get_converters(selected).items())
    return sql, tuple(params), slots, converters
