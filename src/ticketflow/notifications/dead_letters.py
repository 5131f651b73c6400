"""The dead-letter sink: where a delivery goes when we stop trying.

Every dead letter keeps the original body verbatim, the reason (a ``DeadLetterReason``),
the attempt count and the error, so an operator can fix the cause and replay it.
Recording is idempotent, the same way receipts are (``ticketflow.db.idempotent``): the
row is inserted under a unique ``dedupe_key`` (the reason and the event's id, or the body
when it has no usable id), and the conflict decides. The same failure recorded twice (say
the worker died after writing the dead letter but before the ACK) yields one row and the
same id.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from typing import cast, get_args

from sqlalchemy import Table, select

from ticketflow.db.idempotent import insert_once
from ticketflow.db.models import DeadLetter
from ticketflow.notifications.unit_of_work import UnitOfWork
from ticketflow.workers.policy import DeadLetterReason

__all__ = ["SqlAlchemyDeadLetterSink", "original_body"]

DEAD_LETTERS = cast(Table, DeadLetter.__table__)


def original_body(event: object) -> str:
    """The body as it arrived: bytes decoded as-is, anything else as compact JSON."""
    if isinstance(event, bytes | bytearray):
        return bytes(event).decode("utf-8", errors="replace")
    if isinstance(event, str):
        return event
    try:
        return json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(event)


def _usable_event_id(event: object, event_id: str | None) -> str | None:
    if event_id is not None and event_id.strip():
        return event_id
    if isinstance(event, Mapping):
        candidate = event.get("event_id")
        if isinstance(candidate, str) and candidate.strip():
            return candidate
    return None


class SqlAlchemyDeadLetterSink:
    """``sink(event=..., reason=..., ...) -> dead_letter_id``: a ``DeadLetterHandler``."""

    def __init__(self, transaction: UnitOfWork) -> None:
        self._transaction = transaction

    def record(
        self,
        *,
        event: object,
        reason: DeadLetterReason,
        attempts: int,
        error: str,
        event_id: str | None = None,
        cause: BaseException | None = None,
    ) -> str:
        """Record the failure once; return its dead letter's id (the first one's, if any)."""
        if reason not in get_args(DeadLetterReason):
            raise ValueError(
                f"unknown dead-letter reason {reason!r}; use one of {get_args(DeadLetterReason)}"
            )
        body = original_body(event)
        usable_id = _usable_event_id(event, event_id)
        identity = f"event:{usable_id}" if usable_id else f"body:{body}"
        dedupe_key = hashlib.sha256(f"{reason}\n{identity}".encode()).hexdigest()
        row = {
            "id": uuid.uuid4().hex,
            "dedupe_key": dedupe_key,
            "event_id": usable_id,
            "reason": reason,
            "body": body,
            "attempts": attempts,
            "error": error,
            "error_type": type(cause).__name__ if cause is not None else "",
        }
        with self._transaction as uow:
            connection = uow.session.connection()
            statement = insert_once(DEAD_LETTERS, "dedupe_key", connection.dialect.name)
            letter_id = connection.execute(statement, row).scalar_one_or_none()
            if letter_id is None:  # recorded before: the first record's id
                letter_id = connection.execute(
                    select(DEAD_LETTERS.c.id).where(DEAD_LETTERS.c.dedupe_key == dedupe_key)
                ).scalar_one()
            uow.commit()
            return str(letter_id)

    __call__ = record
