"""The dead-letter sink: where a delivery goes when we stop trying.

Every dead letter keeps the original body verbatim, the reason (``poison_message``,
``permanent_failure`` or ``retries_exhausted``), the attempt count and the error, so an
operator can fix the cause and replay it. Recording is idempotent: the same failure of
the same event (or the same unparseable body) recorded twice — say the worker died after
writing the dead letter but before the ACK — yields one row and the same id.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ticketflow.db.models import DeadLetter
from ticketflow.notifications.unit_of_work import SqlAlchemyEffectTransaction

DEAD_LETTER_REASONS = frozenset({"poison_message", "permanent_failure", "retries_exhausted"})


def original_body(event: Any) -> str:
    """The body as it arrived: bytes decoded as-is, anything else as compact JSON."""
    if isinstance(event, bytes | bytearray):
        return bytes(event).decode("utf-8", errors="replace")
    if isinstance(event, str):
        return event
    try:
        return json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(event)


def _usable_event_id(event: Any, event_id: object) -> str | None:
    if isinstance(event_id, str) and event_id.strip():
        return event_id
    if isinstance(event, Mapping):
        candidate = event.get("event_id")
        if isinstance(candidate, str) and candidate.strip():
            return candidate
    return None


class SqlAlchemyDeadLetterSink:
    """``record(**details) -> dead_letter_id``; usable as ``dead_letter_handler``."""

    def __init__(self, transaction: SqlAlchemyEffectTransaction) -> None:
        self._transaction = transaction

    def __call__(self, **details: Any) -> str:
        return self.record(**details)

    def record(
        self,
        *,
        event: Any,
        reason: str,
        attempts: int,
        error: str,
        event_id: str | None = None,
        cause: BaseException | None = None,
        **_extra: Any,
    ) -> str:
        if reason not in DEAD_LETTER_REASONS:
            raise ValueError(
                f"unknown dead-letter reason {reason!r}; use one of {sorted(DEAD_LETTER_REASONS)}"
            )
        body = original_body(event)
        usable_id = _usable_event_id(event, event_id)
        identity = f"event:{usable_id}" if usable_id else f"body:{body}"
        dedupe_key = hashlib.sha256(f"{reason}\n{identity}".encode()).hexdigest()
        with self._transaction as uow:
            session = uow.session
            existing = session.scalar(
                select(DeadLetter.id).where(DeadLetter.dedupe_key == dedupe_key)
            )
            if existing is not None:
                return existing
            letter_id = uuid.uuid4().hex
            session.add(
                DeadLetter(
                    id=letter_id,
                    dedupe_key=dedupe_key,
                    event_id=usable_id,
                    reason=reason,
                    body=body,
                    attempts=attempts,
                    error=error,
                    error_type=type(cause).__name__ if cause is not None else "",
                )
            )
            try:
                uow.commit()
            except IntegrityError:
                pass  # a concurrent delivery recorded the same failure first
            else:
                return letter_id
        with self._transaction as uow:
            return uow.session.scalars(
                select(DeadLetter.id).where(DeadLetter.dedupe_key == dedupe_key)
            ).one()
