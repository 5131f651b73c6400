from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

db = create_engine_from_url("sqlite://")
Base.metadata.create_all(db)
sink = SqlAlchemyEffectTransaction(db)
note = EventEnvelope("evt-ex12-35", "ticket.assigned", {"ticket_id": 48})
# why: second delivery must be a no-op
first = apply_notification_once(note, sink)
second = apply_notification_once(note, sink)
assert first is True
assert second is False
# then my probe
with Session(db) as s:
    n_receipts = s.scalar(select(func.count()).select_from(NotificationReceipt))
    n_tasks = s.scalar(select(func.count()).select_from(BusinessTask))
assert n_receipts == 1
assert n_tasks == 1
print(first, second, n_receipts, n_tasks)
