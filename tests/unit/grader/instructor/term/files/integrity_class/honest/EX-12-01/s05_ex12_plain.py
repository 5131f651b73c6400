from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

mem_engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(mem_engine)
effect_tx = SqlAlchemyEffectTransaction(mem_engine)
note = EventEnvelope("evt-one-846", "ticket.assigned", {"ticket_id": 100})
# then one line per case
first = apply_notification_once(note, effect_tx)
second = apply_notification_once(note, effect_tx)
assert first is True
assert second is False
# here 这里是重点
with Session(mem_engine) as s:
    n_receipts = s.scalar(select(func.count()).select_from(NotificationReceipt))
    n_tasks = s.scalar(select(func.count()).select_from(BusinessTask))
assert n_receipts == 1
assert n_tasks == 1
print(first, second, n_receipts, n_tasks)
