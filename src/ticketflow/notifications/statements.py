"""The Core statements behind "receipt + effect", built once and shared.

``ticketflow.notifications.effects`` executes these objects; the grader's stand-ins for
``apply_notification_once`` (``grader/variants/effects.py``) and its proxy
(``grader/proxy/child/statements.py``) use the very same objects, so a probe that recognises a
statement by identity, by its table or by its SQL text sees the same thing whichever
implementation runs. Look them up as module attributes at call time
(``statements.BUSINESS_TASK_INSERT``, not ``from ... import``): that is what the real code
does, so replacing one here affects every user alike.

Core statements, not ORM objects: the effect is one row, and skipping the ORM's flush
machinery doubles throughput. Engine-level events such as ``before_cursor_execute`` still
see every INSERT, which is how the tests inject a failure between the two of them.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Insert, Table, insert

from ticketflow.db.models import BusinessTask, NotificationReceipt
from ticketflow.messaging.envelope import EventEnvelope

__all__ = [
    "BUSINESS_TASKS",
    "BUSINESS_TASK_INSERT",
    "RECEIPTS",
    "business_task_row",
    "receipt_and_effect_postgresql",
    "receipt_upsert",
]

RECEIPTS = cast(Table, NotificationReceipt.__table__)
BUSINESS_TASKS = cast(Table, BusinessTask.__table__)
#: The effect: one ``business_tasks`` row, with the values of ``business_task_row``.
BUSINESS_TASK_INSERT: Insert = insert(BUSINESS_TASKS)


def business_task_row(envelope: EventEnvelope) -> dict[str, Any]:
    """The values of the effect's row for ``envelope`` (``BUSINESS_TASK_INSERT``'s params)."""
    return {
        "event_id": envelope.event_id,
        "event_type": envelope.event_type,
        "payload": dict(envelope.payload),
        "created_at": datetime.now(UTC),
    }


@functools.cache
def receipt_upsert(dialect: str) -> Insert | None:
    """``INSERT ... ON CONFLICT DO NOTHING RETURNING id`` of a receipt for ``dialect``.

    Built once per dialect (the same object every call); None where the dialect has no
    such statement (the caller falls back to a SAVEPOINT).
    """
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    elif dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert  # type: ignore[assignment]
    else:
        return None
    return (
        dialect_insert(RECEIPTS)
        .on_conflict_do_nothing(index_elements=["event_id"])
        .returning(RECEIPTS.c.id)
    )


@functools.cache
def receipt_and_effect_postgresql() -> Insert:
    """PostgreSQL: the receipt and the effect in one data-modifying CTE (built once).

    The business task is inserted only from the receipt row this statement managed to
    insert; it returns the new task's id, or no row for a repeated event.
    """
    from sqlalchemy import JSON, bindparam, select
    from sqlalchemy.dialects.postgresql import insert as pg_insert

    receipt = (
        pg_insert(RECEIPTS)
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
