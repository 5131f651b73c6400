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
from typing import Any

from sqlalchemy import insert
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
        if not insert_receipt(uow.session, envelope):
            return False  # leaving the block rolls back: nothing of ours was written
        uow.session.add(
            BusinessTask(
                event_id=envelope.event_id,
                event_type=envelope.event_type,
                payload=dict(envelope.payload),
            )
        )
        uow.commit()
        return True


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
    dialect = session.get_bind().dialect.name
    if dialect in ("sqlite", "postgresql"):
        statement = (
            _upsert_insert(dialect)(NotificationReceipt)
            .values(**values)
            .on_conflict_do_nothing(index_elements=["event_id"])
            .returning(NotificationReceipt.id)
        )
        return session.execute(statement).scalar_one_or_none() is not None
    try:
        with session.begin_nested():
            session.execute(insert(NotificationReceipt).values(**values))
    except IntegrityError:
        return False
    return True


def _upsert_insert(dialect: str) -> Any:
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert
    from sqlalchemy.dialects.postgresql import insert as postgresql_insert

    return postgresql_insert


def make_notification_handler(transaction: SqlAlchemyEffectTransaction) -> NotificationHandler:
    """The ``notification_handler`` for ``register_tasks``: envelope -> applied?"""

    def handle(envelope: EventEnvelope) -> bool:
        return apply_notification_once(envelope, transaction)

    return handle
