"""Receipt + effect in ONE transaction, so a repeated event takes effect once (lesson 13).

At-least-once delivery is a given: late ACK, worker loss, retries and the outbox relay
all deliver the same event again. ``apply_notification_once`` makes that harmless: it
inserts the ``NotificationReceipt`` (unique ``event_id``) and the ``BusinessTask`` in the
same transaction. The first delivery commits both; every later delivery finds the
receipt already there and changes nothing. Two deliveries racing on two connections are
decided by the database's unique constraint, not by a read-then-write check.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ticketflow.db.models import BusinessTask, NotificationReceipt
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications.dead_letters import SqlAlchemyDeadLetterSink
from ticketflow.notifications.unit_of_work import SqlAlchemyEffectTransaction

NotificationHandler = Callable[[EventEnvelope], bool]

__all__ = [
    "SqlAlchemyDeadLetterSink",
    "SqlAlchemyEffectTransaction",
    "apply_notification_once",
    "insert_receipt",
    "make_notification_handler",
]


def apply_notification_once(
    envelope: EventEnvelope, transaction: SqlAlchemyEffectTransaction
) -> bool:
    """Apply the event's effect once. True the first time, False for every repeat."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        if connection.dialect.name == "postgresql":
            applied = _apply_in_one_statement(connection, envelope)
        else:
            applied = insert_receipt(uow.session, envelope)
            if applied:
                connection.execute(_BUSINESS_TASK_INSERT, _business_task_row(envelope))
        if applied:
            uow.commit()
        return applied  # not committed => leaving the block rolls back


def _business_task_row(envelope: EventEnvelope) -> dict[str, Any]:
    return {
        "event_id": envelope.event_id,
        "event_type": envelope.event_type,
        "payload": dict(envelope.payload),
        "created_at": datetime.now(UTC),
    }


def _apply_in_one_statement(connection: Connection, envelope: EventEnvelope) -> bool:
    """PostgreSQL: receipt and effect in one data-modifying CTE (one round trip).

    Same transaction, same rule: the business task is inserted only from the receipt row
    that this statement managed to insert, and the unique constraint decides races.
    """
    row = _business_task_row(envelope)
    row["received_at"] = row["created_at"]
    return connection.execute(_pg_receipt_and_effect(), row).scalar_one_or_none() is not None


def insert_receipt(session: Session, envelope: EventEnvelope) -> bool:
    """Insert the receipt in the session's transaction; False if it already exists.

    SQLite and PostgreSQL use ``INSERT ... ON CONFLICT DO NOTHING``: one statement, no
    exception, and on PostgreSQL no aborted transaction. Other databases fall back to a
    SAVEPOINT, so the ``IntegrityError`` only rolls back the receipt attempt.
    """
    values = {
        "event_id": envelope.event_id,
        "event_type": envelope.event_type,
        "received_at": datetime.now(UTC),
    }
    connection = session.connection()
    statement = _receipt_upsert(connection.dialect.name)
    if statement is not None:
        return connection.execute(statement, values).scalar_one_or_none() is not None
    try:
        with session.begin_nested():
            connection.execute(insert(_RECEIPTS), values)
    except IntegrityError:
        return False
    return True


_RECEIPTS = cast(Table, NotificationReceipt.__table__)
# Core statements, not ORM objects: the effect is one row, and skipping the ORM's flush
# machinery doubles throughput. (Engine-level events such as before_cursor_execute still
# see both INSERTs, which is how the tests inject a failure between them.)
_TASKS = cast(Table, BusinessTask.__table__)
_BUSINESS_TASK_INSERT = insert(_TASKS)


@functools.cache
def _pg_receipt_and_effect() -> Any:
    from sqlalchemy import JSON, bindparam, select
    from sqlalchemy.dialects.postgresql import insert as pg_insert

    tasks = _TASKS
    receipt = (
        pg_insert(_RECEIPTS)
        .values(
            event_id=bindparam("event_id"),
            event_type=bindparam("event_type"),
            received_at=bindparam("received_at"),
        )
        .on_conflict_do_nothing(index_elements=["event_id"])
        .returning(_RECEIPTS.c.event_id)
        .cte("receipt")
    )
    source = select(
        receipt.c.event_id,
        bindparam("event_type"),
        bindparam("payload", type_=JSON),
        bindparam("created_at"),
    )
    return (
        insert(tasks)
        .from_select(["event_id", "event_type", "payload", "created_at"], source)
        .returning(tasks.c.id)
    )


@functools.cache
def _receipt_upsert(dialect: str) -> Any:
    """The ON CONFLICT DO NOTHING insert for ``dialect``, built once (None if unsupported)."""
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    elif dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert  # type: ignore[assignment]
    else:
        return None
    return (
        dialect_insert(_RECEIPTS)
        .on_conflict_do_nothing(index_elements=["event_id"])
        .returning(_RECEIPTS.c.id)
    )


def make_notification_handler(transaction: SqlAlchemyEffectTransaction) -> NotificationHandler:
    """The ``notification_handler`` for ``register_tasks``: envelope -> applied?"""

    def handle(envelope: EventEnvelope) -> bool:
        return apply_notification_once(envelope, transaction)

    return handle
