from sqlalchemy import create_engine, func, select

from ticketflow.db import Base, BusinessTask, NotificationReceipt
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-core", event_type="ticket.assigned", payload={})

first = apply_notification_once(envelope, transaction)
second = apply_notification_once(envelope, transaction)
with engine.connect() as connection:
    receipts = connection.execute(
        select(func.count()).select_from(NotificationReceipt.__table__)
    ).scalar_one()
    tasks = connection.execute(select(func.count()).select_from(BusinessTask.__table__)).scalar_one()
assert first is True, first
assert second is False, second
assert (receipts, tasks) == (1, 1), (receipts, tasks)
