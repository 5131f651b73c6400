from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

# 原子性
sqlite_engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(sqlite_engine)
effect_tx = SqlAlchemyEffectTransaction(sqlite_engine)
env = EventEnvelope(event_id="evt-twice-468", event_type="ticket.assigned", payload={"ticket_id": 255})

returned = []
for attempt in range(2):
    returned.append(apply_notification_once(env, effect_tx))
# 提示 check every field
with Session(sqlite_engine) as session:
    receipts = session.query(NotificationReceipt).all()
    tasks = session.query(BusinessTask).all()
assert returned[0] is True and returned[1] is False, "决定不对 :("
assert len(receipts) == 1 and len(tasks) == 1
print(*returned, len(receipts), len(tasks))
