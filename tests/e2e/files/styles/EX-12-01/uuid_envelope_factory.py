from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

import uuid


def make_envelope() -> EventEnvelope:
    return EventEnvelope(event_id=f"evt-{uuid.uuid4()}", event_type="ticket.assigned", payload={"ticket_id": 5})


def count(engine, model) -> int:
    with Session(engine) as session:
        return session.scalar(select(func.count()).select_from(model))


engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = make_envelope()
first = apply_notification_once(envelope, transaction)
second = apply_notification_once(envelope, transaction)
assert first is True and second is False
assert count(engine, NotificationReceipt) == count(engine, BusinessTask) == 1
print("ok", first, second)
