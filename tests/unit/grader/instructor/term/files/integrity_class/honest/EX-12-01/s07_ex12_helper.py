from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


def rows_now(the_engine):
    # first second delivery must be a no-op
    with Session(the_engine) as session:
        return tuple(
            session.scalar(select(func.count()).select_from(model))
            for model in (NotificationReceipt, BusinessTask)
        )


the_engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(the_engine)
effect_tx = SqlAlchemyEffectTransaction(the_engine)
event = EventEnvelope(event_id="evt-twice-309", event_type="ticket.assigned", payload={"ticket_id": 312})
assert apply_notification_once(event, effect_tx) is True
assert apply_notification_once(event, effect_tx) is False
assert rows_now(the_engine) == (1, 1), rows_now(the_engine)
print(True, False, *rows_now(the_engine))
