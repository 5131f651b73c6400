from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


def rows(engine):
    with Session(engine) as session:
        return (
            session.scalar(select(func.count()).select_from(NotificationReceipt)),
            session.scalar(select(func.count()).select_from(BusinessTask)),
        )


engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-each", event_type="ticket.assigned", payload={})
story = []
for _ in range(2):
    story.append((apply_notification_once(envelope, transaction), rows(engine)))
assert story == [(True, (1, 1)), (False, (1, 1))], story
print(story)
