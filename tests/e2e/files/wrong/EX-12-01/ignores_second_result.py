"""Wrong: never looks at what the duplicate delivery returned."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"ticket_id": 1})


def count(model):
    with Session(engine) as session:
        return session.scalar(select(func.count()).select_from(model))


assert apply_notification_once(envelope, transaction) is True
apply_notification_once(envelope, transaction)
assert count(NotificationReceipt) == 1
assert count(BusinessTask) == 1
