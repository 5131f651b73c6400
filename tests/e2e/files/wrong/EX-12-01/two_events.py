"""Wrong: delivers two different events, so it never exercises deduplication."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"ticket_id": 1})


def count(model):
    with Session(engine) as session:
        return session.scalar(select(func.count()).select_from(model))


other = EventEnvelope(event_id="evt-2", event_type="ticket.assigned", payload={"ticket_id": 2})
assert apply_notification_once(envelope, transaction) is True
assert apply_notification_once(other, transaction) is True
assert count(NotificationReceipt) == 2
