"""Plain INSERT and UPDATE for the match writer's hot path.

Every move writes one event and updates one match row; building those statements
through the ORM cost more CPU than the rest of the move (measured with py-spy on
daphne). Values are prepared by the model fields themselves, so the statements work
on PostgreSQL and SQLite alike.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import Model


def insert(model: type[Model], values: dict[str, Any]) -> None:
    meta = model._meta
    fields = [meta.get_field(name) for name in values]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    params = [f.get_db_prep_save(values[f.name], connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({columns}) VALUES ({marks})",
            params,
        )


def update(instance: Model, names: list[str]) -> None:
    meta = instance._meta
    fields = [meta.get_field(name) for name in names]
    assignments = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    params.append(meta.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(meta.db_table)} SET {assignments} "
            f"WHERE {connection.ops.quote_name(meta.pk.column)} = %s",
            params,
        )
