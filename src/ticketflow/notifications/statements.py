"""The Core statements behind "receipt + effect", built once.

Core statements, not ORM objects: the effect is one row, and skipping the ORM's flush
machinery doubles throughput. Engine-level events such as ``before_cursor_execute`` still
see every INSERT, which is how the tests inject a failure between the two of them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TypedDict, cast

from sqlalchemy import Insert, Table, insert

from ticketflow.db.idempotent import insert_once
from ticketflow.db.models import BusinessTask, NotificationReceipt
from ticketflow.messaging.envelope import EventEnvelope, JSONObject

__all__ = [
    "BUSINESS_TASKS",
    "BUSINESS_TASK_INSERT",
    "RECEIPTS",
    "BusinessTaskRow",
    "ReceiptRow",
    "business_task_row",
    "receipt_row",
    "receipt_upsert",
]

RECEIPTS = cast(Table, NotificationReceipt.__table__)
BUSINESS_TASKS = cast(Table, BusinessTask.__table__)
#: The effect: one ``business_tasks`` row, with the values of ``business_task_row``.
BUSINESS_TASK_INSERT: Insert = insert(BUSINESS_TASKS)


class ReceiptRow(TypedDict):
    event_id: str
    event_type: str
    received_at: datetime


class BusinessTaskRow(TypedDict):
    event_id: str
    event_type: str
    payload: JSONObject
    created_at: datetime


def receipt_row(envelope: EventEnvelope) -> ReceiptRow:
    """The values of the receipt for ``envelope`` (``receipt_upsert``'s params)."""
    return {
        "event_id": envelope.event_id,
        "event_type": envelope.event_type,
        "received_at": datetime.now(UTC),
    }


def business_task_row(envelope: EventEnvelope) -> BusinessTaskRow:
    """The values of the effect's row for ``envelope`` (``BUSINESS_TASK_INSERT``'s params)."""
    return {
        "event_id": envelope.event_id,
        "event_type": envelope.event_type,
        "payload": dict(envelope.payload),
        "created_at": datetime.now(UTC),
    }


def receipt_upsert(dialect: str) -> Insert:
    """The receipt's insert for ``dialect``: unique ``event_id``, the conflict decides
    (``ticketflow.db.idempotent``). Returns the receipt's id, or no row for a repeat."""
    return insert_once(RECEIPTS, "event_id", dialect)
