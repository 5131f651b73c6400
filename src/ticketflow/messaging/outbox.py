"""The transactional outbox (lesson 13), and the envelope it carries.

``add_to_outbox`` writes an ``OutboxMessage`` row in the caller's session, so the message
is committed in the same transaction as the business change that caused it: both or
neither. ``OutboxRelay`` later publishes the pending rows and marks them sent.

The relay is *at least once*: if it crashes after publishing but before committing
``sent_at``, the next run publishes the row again. That is safe because the consumer
dedupes by ``event_id`` (see ``ticketflow.notifications.effects``).

The course imports ``EventEnvelope`` from here; it is defined (and stays light) in
``ticketflow.messaging.envelope``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from ticketflow.db.models import OutboxMessage
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications.unit_of_work import UnitOfWork

__all__ = ["EventEnvelope", "OutboxRelay", "Publisher", "add_to_outbox"]

Publisher = Callable[[EventEnvelope], object]


def add_to_outbox(session: Session, envelope: EventEnvelope) -> OutboxMessage:
    """Stage ``envelope`` for publishing in the caller's (still open) transaction."""
    message = OutboxMessage(
        event_id=envelope.event_id,
        event_type=envelope.event_type,
        body=envelope.to_json_bytes().decode("utf-8"),
        created_at=datetime.now(UTC),
    )
    session.add(message)
    return message


class OutboxRelay:
    """Publish pending outbox rows, oldest first, and mark each one sent."""

    def __init__(self, transaction: UnitOfWork, publish: Publisher) -> None:
        self._transaction = transaction
        self._publish = publish

    def relay_pending(self, *, batch_size: int = 100) -> int:
        """Publish up to ``batch_size`` pending rows; return how many were published.

        On PostgreSQL the rows are locked with ``FOR UPDATE SKIP LOCKED`` so two relays
        running at once never publish the same row in the same pass.
        """
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        with self._transaction as uow:
            rows = uow.session.scalars(
                select(OutboxMessage)
                .where(OutboxMessage.sent_at.is_(None))
                .order_by(OutboxMessage.id)
                .limit(batch_size)
                .with_for_update(skip_locked=True)
            ).all()
            for row in rows:
                row.attempts += 1
                self._publish(EventEnvelope.from_json_bytes(row.body.encode("utf-8")))
                row.sent_at = datetime.now(UTC)
            uow.commit()
            return len(rows)

    def relay_all(self, *, batch_size: int = 100) -> int:
        """Relay until nothing is pending; return the total published."""
        total = 0
        while published := self.relay_pending(batch_size=batch_size):
            total += published
        return total
