from sqlalchemy.orm import Session, sessionmaker

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(sessionmaker(bind=engine))
event = EventEnvelope(event_id="evt-orm", event_type="ticket.assigned", payload={"ticket_id": 9})

assert apply_notification_once(event, transaction) == True  # noqa: E712
assert apply_notification_once(event, transaction) == False  # noqa: E712
with Session(engine) as session:
    assert session.query(NotificationReceipt).count() == 1
    assert session.query(BusinessTask).filter_by(event_id="evt-orm").count() == 1
    assert session.query(BusinessTask).count() == 1
print("ok")
