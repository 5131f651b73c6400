"""Going further (not lesson 13's code): receipt and effect in ONE statement, on PostgreSQL.

``apply_notification_once`` sends two INSERTs in one transaction, which works on every
database ticketflow runs on. PostgreSQL can do the same work in one data-modifying CTE,
one round trip instead of two:

.. code-block:: sql

    WITH receipt AS (
        INSERT INTO notification_receipts (event_id, event_type, received_at)
        VALUES (:event_id, :event_type, :received_at)
        ON CONFLICT (event_id) DO NOTHING
        RETURNING event_id)
    INSERT INTO business_tasks (event_id, event_type, payload, created_at)
    SELECT receipt.event_id, :event_type, :payload, :created_at FROM receipt
    RETURNING business_tasks.id

Same rule, same transaction: the business task is inserted only from the receipt row
this statement managed to insert, and the unique key decides races. It is a performance
choice, not a correctness one; ``benchmarks/bench_effects.py`` measures both side by side.
"""

from __future__ import annotations

from sqlalchemy import JSON, Insert, bindparam, insert, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications.statements import BUSINESS_TASKS, RECEIPTS, business_task_row
from ticketflow.notifications.unit_of_work import UnitOfWork

__all__ = ["RECEIPT_AND_EFFECT_POSTGRESQL", "going_further_apply_in_one_statement"]


def _receipt_and_effect() -> Insert:
    receipt = (
        postgresql_insert(RECEIPTS)
        .values(
            event_id=bindparam("event_id"),
            event_type=bindparam("event_type"),
            received_at=bindparam("received_at"),
        )
        .on_conflict_do_nothing(index_elements=["event_id"])
        .returning(RECEIPTS.c.event_id)
        .cte("receipt")
    )
    source = select(
        receipt.c.event_id,
        bindparam("event_type"),
        bindparam("payload", type_=JSON),
        bindparam("created_at"),
    )
    return (
        insert(BUSINESS_TASKS)
        .from_select(["event_id", "event_type", "payload", "created_at"], source)
        .returning(BUSINESS_TASKS.c.id)
    )


#: The statement above; it returns the new task's id, or no row for a repeated event.
RECEIPT_AND_EFFECT_POSTGRESQL = _receipt_and_effect()


def going_further_apply_in_one_statement(envelope: EventEnvelope, transaction: UnitOfWork) -> bool:
    """``apply_notification_once`` in one statement (PostgreSQL only): True the first time."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        if connection.dialect.name != "postgresql":
            raise ValueError("this version needs PostgreSQL; use apply_notification_once")
        row = business_task_row(envelope)
        params = {**row, "received_at": row["created_at"]}
        result = connection.execute(RECEIPT_AND_EFFECT_POSTGRESQL, params)
        applied = result.scalar_one_or_none() is not None
        if applied:
            uow.commit()
        return applied
