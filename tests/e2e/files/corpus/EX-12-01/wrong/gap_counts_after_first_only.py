from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-gap", event_type="ticket.assigned", payload={})

first = apply_notification_once(envelope, transaction)
with Session(engine) as session:
    receipts = session.scalar(select(func.count()).select_from(NotificationReceipt))
    tasks = session.scalar(select(func.count()).select_from(BusinessTask))
assert first is True and (receipts, tasks) == (1, 1)
second = apply_notification_once(envelope, transaction)
assert second is False
print(first, second, receipts, tasks)
