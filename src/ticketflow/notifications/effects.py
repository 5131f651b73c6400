"""Receipt + effect in ONE transaction, so a repeated event takes effect once (lesson 13).

At-least-once delivery is a given: late ACK, worker loss, retries and the outbox relay
all deliver the same event again. ``apply_notification_once`` makes that harmless: it
inserts the ``NotificationReceipt`` (unique ``event_id``) and the ``BusinessTask`` in the
same transaction. The first delivery commits both; every later delivery finds the
receipt already there and changes nothing. Two deliveries racing on two connections are
decided by the database's unique constraint, not by a read-then-write check.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Connection, insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications import statements
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
                connection.execute(
                    statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
                )
        if applied:
            uow.commit()
        return applied  # not committed => leaving the block rolls back


def _apply_in_one_statement(connection: Connection, envelope: EventEnvelope) -> bool:
    """PostgreSQL: receipt and effect in one data-modifying CTE (one round trip).

    Same transaction, same rule: the business task is inserted only from the receipt row
    that this statement managed to insert, and the unique constraint decides races.
    """
    row = statements.business_task_row(envelope)
    row["received_at"] = row["created_at"]
    statement = statements.receipt_and_effect_postgresql()
    return connection.execute(statement, row).scalar_one_or_none() is not None


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
    statement = statements.receipt_upsert(connection.dialect.name)
    if statement is not None:
        return connection.execute(statement, values).scalar_one_or_none() is not None
    try:
        with session.begin_nested():
            connection.execute(insert(statements.RECEIPTS), values)
    except IntegrityError:
        return False
    return True


def make_notification_handler(transaction: SqlAlchemyEffectTransaction) -> NotificationHandler:
    """The ``notification_handler`` for ``register_tasks``: envelope -> applied?"""

    def handle(envelope: EventEnvelope) -> bool:
        return apply_notification_once(envelope, transaction)

    return handle
