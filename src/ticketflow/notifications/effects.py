"""Receipt + effect in ONE transaction, so a repeated event takes effect once (lesson 13).

At-least-once delivery is a given: late ACK, worker loss, retries and the outbox relay
all deliver the same event again. ``apply_notification_once`` makes that harmless: it
inserts the ``NotificationReceipt`` (unique ``event_id``) and the ``BusinessTask`` in the
same unit of work. The first delivery commits both; every later delivery's receipt insert
conflicts with the first one's, and nothing is written. Two deliveries racing on two
connections are decided by the database's unique constraint, not by a read-then-write
check (``ticketflow.db.idempotent`` explains the technique).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications import statements
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork, UnitOfWork
from ticketflow.workers.tasks import NotificationHandler

__all__ = [
    "SqlAlchemyEffectTransaction",
    "apply_notification_once",
    "insert_receipt",
    "make_notification_handler",
]

#: The name the course's exercises use (EX-12-01, EX-13-01) for the unit of work.
SqlAlchemyEffectTransaction = SqlAlchemyUnitOfWork


def apply_notification_once(envelope: EventEnvelope, transaction: UnitOfWork) -> bool:
    """Apply the event's effect once. True the first time, False for every repeat."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.session.connection().execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
            uow.commit()
        return applied  # not committed => leaving the block rolls back


def insert_receipt(session: Session, envelope: EventEnvelope) -> bool:
    """Insert the receipt in the session's transaction; False if it already exists.

    ``INSERT ... ON CONFLICT (event_id) DO NOTHING``: the unique key decides
    (``ticketflow.db.idempotent``).
    """
    connection = session.connection()
    statement = statements.receipt_upsert(connection.dialect.name)
    inserted = connection.execute(statement, statements.receipt_row(envelope))
    return inserted.scalar_one_or_none() is not None


def make_notification_handler(transaction: UnitOfWork) -> NotificationHandler:
    """The ``notification_handler`` for ``register_tasks``: envelope -> applied?"""

    def handle(envelope: EventEnvelope) -> bool:
        return apply_notification_once(envelope, transaction)

    return handle
