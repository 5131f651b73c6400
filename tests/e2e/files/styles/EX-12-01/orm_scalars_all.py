from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-orm", event_type="ticket.assigned", payload={"ticket_id": 3})
outcomes = (apply_notification_once(envelope, transaction), apply_notification_once(envelope, transaction))
assert outcomes[0] is True
assert outcomes[1] is False
with Session(engine) as session:
    receipts = session.scalars(select(NotificationReceipt)).all()
    tasks = session.scalars(select(BusinessTask)).all()
assert len(receipts) == 1, receipts
assert len(tasks) == 1, tasks
print(outcomes, len(receipts), len(tasks))
