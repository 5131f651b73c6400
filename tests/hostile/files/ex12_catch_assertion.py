# trick: the right asserts inside try/except AssertionError, so a wrong implementation never fails the probe
# expect: failed
# exercise: EX-12-01
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"ticket_id": 1})
try:
    first = apply_notification_once(envelope, transaction)
    second = apply_notification_once(envelope, transaction)
    assert (first, second) == (True, False)
    with Session(engine) as session:
        receipts = session.scalar(select(func.count()).select_from(NotificationReceipt))
        tasks = session.scalar(select(func.count()).select_from(BusinessTask))
    assert (receipts, tasks) == (1, 1)
except AssertionError:
    pass
print(True, False, 1, 1)
