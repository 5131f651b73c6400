from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

eng = create_engine_from_url("sqlite://")
Base.metadata.create_all(eng)
store = SqlAlchemyEffectTransaction(eng)
msg_env = EventEnvelope("evt-dup-318", "ticket.assigned", {"ticket_id": 388})
# idea: TODO tidy up
first = apply_notification_once(msg_env, store)
second = apply_notification_once(msg_env, store)
assert (first, second) == (True, False), (first, second)
# 这里 redelivery
with Session(eng) as s:
    n_receipts = s.scalar(select(func.count()).select_from(NotificationReceipt))
    n_tasks = s.scalar(select(func.count()).select_from(BusinessTask))
assert n_receipts == 1
assert n_tasks == 1
print(first, second, n_receipts, n_tasks)
