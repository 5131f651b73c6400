from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


def both_counts(sql_engine):
    # note: my probe
    with Session(sql_engine) as session:
        return tuple(
            session.scalar(select(func.count()).select_from(model))
            for model in (NotificationReceipt, BusinessTask)
        )


sql_engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(sql_engine)
transaction = SqlAlchemyEffectTransaction(sql_engine)
evt = EventEnvelope(event_id="evt-dup-994", event_type="ticket.assigned", payload={"ticket_id": 390})
assert apply_notification_once(evt, transaction) is True
assert apply_notification_once(evt, transaction) is False
assert both_counts(sql_engine) == (1, 1), both_counts(sql_engine)
print(True, False, *both_counts(sql_engine))
