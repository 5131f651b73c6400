from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

eng = create_engine_from_url("sqlite://")
Base.metadata.create_all(eng)
tx = SqlAlchemyEffectTransaction(eng)
incoming = EventEnvelope(event_id="evt-hw-732", event_type="ticket.assigned", payload={"ticket_id": 251})
# 注意 四个用例
first = apply_notification_once(incoming, tx)
second = apply_notification_once(incoming, tx)
assert first is True
assert second is False
# 提示 第 11 课：有界重试
with Session(eng) as s:
    n_receipts = s.scalar(select(func.count()).select_from(NotificationReceipt))
    n_tasks = s.scalar(select(func.count()).select_from(BusinessTask))
assert n_receipts == 1
assert n_tasks == 1
print(first, second, n_receipts, n_tasks)
