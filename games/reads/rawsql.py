"""Plain INSERT and UPDATE for the match writer's hot path.

Every move appends one or more events and updates one match row; building those
statements through the ORM cost more CPU than the rest of the move (measured with
py-spy on daphne). On PostgreSQL both go in one statement (one round trip): the
match's UPDATE as a data-modifying WITH clause that the events' INSERT reads from.
Values are prepared by the model fields themselves, so the statements work on SQLite too.
"""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.db.models import Model

Statement = tuple[str, list[Any]]


# Statement texts and their fields, worked out once per shape (model, columns, rows,
# database): the quoting and typing of names cost as much as running the statement.
_texts: dict[tuple[Any, ...], tuple[str, str, list[Any]]] = {}


def _insert(model: type[Model], rows: list[dict[str, Any]],
            cast: bool = False) -> tuple[str, str, list[Any]]:
    """One INSERT of several rows (all with the same fields), as its head (``INSERT INTO
    t (columns)``), its VALUES list and the parameters; ``cast`` types each value (needed
    where the VALUES are a subquery, which takes no types from the columns)."""
    names = tuple(rows[0])
    key = ("insert", model, names, len(rows), cast, connection.vendor)
    if key not in _texts:
        meta = model._meta
        fields = [meta.get_field(name) for name in names]
        columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
        if cast:
            marks = "(" + ", ".join(f"CAST(%s AS {f.cast_db_type(connection)})"
                                    for f in fields) + ")"
        else:
            marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
        table = connection.ops.quote_name(meta.db_table)
        _texts[key] = (f"INSERT INTO {table} ({columns})", ", ".join([marks] * len(rows)),
                       fields)
    head, values, fields = _texts[key]
    params = [f.get_db_prep_save(row[f.name], connection) for row in rows for f in fields]
    return head, values, params


def _update(instance: Model, names: list[str], only_if: tuple[str, ...] = ()) -> Statement:
    """UPDATE ``names`` of ``instance``; ``only_if``: columns whose stored values must still
    be the given ones (appended to the parameters by the caller, in that order)."""
    meta = instance._meta
    key = ("update", type(instance), tuple(names), only_if, connection.vendor)
    if key not in _texts:
        fields = [meta.get_field(name) for name in names]
        assignments = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in fields)
        table = connection.ops.quote_name(meta.db_table)
        sql = (f"UPDATE {table} SET {assignments} "
               f"WHERE {connection.ops.quote_name(meta.pk.column)} = %s")
        for name in only_if:
            sql += f" AND {connection.ops.quote_name(meta.get_field(name).column)} = %s"
        _texts[key] = (sql, "", fields)
    sql, _, fields = _texts[key]
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    params.append(meta.pk.get_db_prep_value(instance.pk, connection))
    return sql, params


def insert(model: type[Model], rows: list[dict[str, Any]]) -> None:
    if rows:
        head, values, params = _insert(model, rows)
        with connection.cursor() as cursor:
            cursor.execute(f"{head} VALUES {values}", params)


def update_and_insert(instance: Model, names: list[str], model: type[Model],
                      rows: list[dict[str, Any]], only_if: dict[str, Any] | None = None) -> bool:
    """UPDATE ``names`` of ``instance`` and INSERT ``rows`` of ``model``, atomically;
    ``only_if``: only while the row's stored values of those columns are the given ones.

    False, and nothing written, when the row did not match (someone wrote it since). On
    PostgreSQL one statement, in autocommit too: the UPDATE (which takes the row lock and
    checks the values) feeds the INSERT, so the events go in only with the row.
    """
    conditions = only_if or {}
    update_sql, update_params = _update(instance, names, only_if=tuple(conditions))
    update_params += list(conditions.values())
    if connection.vendor == "postgresql" and rows:
        head, values, insert_params = _insert(model, rows, cast=True)
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH updated AS ({update_sql} RETURNING 1) "
                f"{head} SELECT v.* FROM (VALUES {values}) AS v, updated",
                update_params + insert_params)
            return cursor.rowcount > 0
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(update_sql, update_params)
        if cursor.rowcount != 1:
            return False
        if rows:
            head, values, insert_params = _insert(model, rows)
            cursor.execute(f"{head} VALUES {values}", insert_params)
    return True


_conversions: dict[tuple[type[Model], str], list[tuple[Any, list[Any]]]] = {}


def _converters(model: type[Model]) -> list[tuple[Any, list[Any]]]:
    """Each column's expression and conversions (the backend's, then the field's own), as
    the ORM applies them; worked out once per model and database."""
    key = (model, connection.vendor)
    if key not in _conversions:
        out = []
        for field in model._meta.concrete_fields:
            column = field.get_col(model._meta.db_table)
            out.append((column, connection.ops.get_db_converters(column)
                        + column.get_db_converters(connection)))
        _conversions[key] = out
    return _conversions[key]


def select_one(model: type[Model], joins: str, where: str, params: list[Any],
               extra: list[str], lock: str = "") -> Model | None:
    """One row of ``model`` (all its columns, alias ``m``) with ``extra`` expressions set
    as attributes named after their aliases; None when there is no such row."""
    meta = model._meta
    fields = list(meta.concrete_fields)
    columns = ", ".join(f"m.{connection.ops.quote_name(f.column)}" for f in fields)
    select = ", ".join([columns, *extra])
    sql = (f"SELECT {select} FROM {connection.ops.quote_name(meta.db_table)} m {joins} "
           f"WHERE {where}{lock}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row[:len(fields)])
    for index, (column, converters) in enumerate(_converters(model)):
        for convert in converters:
            values[index] = convert(values[index], column, connection)
    instance = model.from_db(connection.alias, [f.attname for f in fields], values)
    for expression, value in zip(extra, row[len(fields):], strict=True):
        setattr(instance, expression.rsplit(" AS ", 1)[1], value)
    return instance
