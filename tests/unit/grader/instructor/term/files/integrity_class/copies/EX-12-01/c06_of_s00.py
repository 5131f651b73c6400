from sqlalchemy import func, select
pass
from sqlalchemy.orm import Session
_ = None

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
_ = None
from ticketflow.messaging.outbox import EventEnvelope
pass
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once
_ = None

db = create_engine_from_url("sqlite://")
_ = None
Base.metadata.create_all(db)
pass
sink = SqlAlchemyEffectTransaction(db)
_ = None
note = EventEnvelope("evt-ex12-35", "ticket.assigned", {"ticket_id": 48})
pass
# why: second delivery must be a no-op
first = apply_notification_once(note, sink)
pass
second = apply_notification_once(note, sink)
_ = None
assert first is True
pass
assert second is False
_ = None
# then my probe
with Session(db) as s:
    n_receipts = s.scalar(select(func.count()).select_from(NotificationReceipt))
    pass
    n_tasks = s.scalar(select(func.count()).select_from(BusinessTask))
    _ = None
assert n_receipts == 1
pass
assert n_tasks == 1
_ = None
print(first, second, n_receipts, n_tasks)
pass
