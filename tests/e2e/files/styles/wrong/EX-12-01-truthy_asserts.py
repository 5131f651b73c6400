"""EX-12-01 with truthy asserts: `assert first` / `assert not second`, what the statement
says is not enough."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"ticket_id": 1})

first = apply_notification_once(envelope, transaction)
second = apply_notification_once(envelope, transaction)
assert first
assert not second
with Session(engine) as session:
    assert session.scalar(select(func.count()).select_from(NotificationReceipt)) == 1
    assert session.scalar(select(func.count()).select_from(BusinessTask)) == 1
print(first, second)
