"""EX-12-01: deliver the same event twice; it must take effect exactly once.

Run from the course root:  python exercises/EX-12-01/notification_once_probe.py
Check it:                  grader check EX-12-01
"""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

# BEGIN SOLUTION
engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(
    event_id="evt-ex12-01", event_type="ticket.assigned", payload={"ticket_id": 42}
)

first = apply_notification_once(envelope, transaction)
second = apply_notification_once(envelope, transaction)
assert (first, second) == (True, False), f"returned {first!r}, {second!r}"

with Session(engine) as session:
    receipts = session.scalar(select(func.count()).select_from(NotificationReceipt))
    tasks = session.scalar(select(func.count()).select_from(BusinessTask))
assert (receipts, tasks) == (1, 1), f"{receipts} receipt(s), {tasks} business task(s)"
print(first, second, receipts, tasks)
# END SOLUTION
