from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once
import os
import tempfile

folder = tempfile.mkdtemp()
engine = create_engine_from_url("sqlite:///" + os.path.join(folder, "probe.db"))
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-file", event_type="ticket.assigned", payload={"a": 1})
outcomes = [apply_notification_once(envelope, transaction) for _ in range(2)]
assert outcomes == [True, False], outcomes
with Session(engine) as session:
    receipts = session.scalar(select(func.count()).select_from(NotificationReceipt))
    tasks = session.scalar(select(func.count()).select_from(BusinessTask))
assert receipts == 1 and tasks == 1, (receipts, tasks)
print(outcomes, receipts, tasks)
