"""Wrong: injects the failure with an ORM before_insert event, which Core inserts never fire."""

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class InjectedFailure(RuntimeError):
    pass


engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-13", event_type="ticket.assigned", payload={"ticket_id": 7})


def counts():
    with Session(engine) as session:
        return (
            session.scalar(select(func.count()).select_from(NotificationReceipt)),
            session.scalar(select(func.count()).select_from(BusinessTask)),
        )


armed = [True]


@event.listens_for(BusinessTask, "before_insert")
def fail_once(mapper, connection, target):
    if armed[0]:
        armed[0] = False
        raise InjectedFailure("effect store went away")


try:
    apply_notification_once(envelope, transaction)
except InjectedFailure:
    pass
else:
    raise AssertionError("the injected failure did not happen")
assert counts() == (0, 0)
