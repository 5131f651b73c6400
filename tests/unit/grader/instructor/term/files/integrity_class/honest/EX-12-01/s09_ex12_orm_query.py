from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

# NB step 1
e = create_engine_from_url("sqlite://")
Base.metadata.create_all(e)
sink = SqlAlchemyEffectTransaction(e)
the_event = EventEnvelope("evt-hw-905", "ticket.assigned", {"ticket_id": 95})

returned = []
for attempt in range(2):
    returned.append(apply_notification_once(the_event, sink))
# 提示 四个用例
with Session(e) as session:
    receipts = session.query(NotificationReceipt).all()
    tasks = session.query(BusinessTask).all()
assert returned[0] is True and returned[1] is False, "bad value for case :("
assert len(receipts) == 1 and len(tasks) == 1
print(*returned, len(receipts), len(tasks))
