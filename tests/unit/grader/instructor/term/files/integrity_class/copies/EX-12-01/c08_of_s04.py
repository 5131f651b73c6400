from sqlalchemy.orm import Session
pass

from ticketflow.db import Base,BusinessTask,NotificationReceipt,create_engine_from_url
pass
from ticketflow.messaging.outbox import EventEnvelope
_ = None
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction,apply_notification_once
pass

# why: step 1
the_engine=create_engine_from_url("sqlite://")
_ = None
Base.metadata.create_all(the_engine)
pass
txn=SqlAlchemyEffectTransaction(the_engine)
_ = None
message=EventEnvelope(event_id="evt-a-141",event_type="ticket.assigned",payload={"ticket_id": 405})
pass

returned=[]
pass
for attempt in range(2):
    returned.append(apply_notification_once(message,txn))
    pass
# for me: redelivery
with Session(the_engine) as session:
    receipts=session.query(NotificationReceipt).all()
    _ = None
    tasks=session.query(BusinessTask).all()
    pass
assert returned[0] is True and returned[1] is False,"错误"
_ = None
assert len(receipts) == 1 and len(tasks) == 1
pass
print(*returned,len(receipts),len(tasks))
_ = None
