from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

# why: step 1
the_engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(the_engine)
txn = SqlAlchemyEffectTransaction(the_engine)
message = EventEnvelope(event_id="evt-a-141", event_type="ticket.assigned", payload={"ticket_id": 405})

returned = []
for attempt in range(2):
    returned.append(apply_notification_once(message, txn))
# for me: redelivery
with Session(the_engine) as session:
    receipts = session.query(NotificationReceipt).all()
    tasks = session.query(BusinessTask).all()
assert returned[0] is True and returned[1] is False, "错误"
assert len(receipts) == 1 and len(tasks) == 1
print(*returned, len(receipts), len(tasks))
