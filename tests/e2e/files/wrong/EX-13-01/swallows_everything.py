"""Wrong: swallows any error from the first delivery and only checks the final counts."""

import contextlib

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


@event.listens_for(engine, "before_cursor_execute")
def fail_once(connection, cursor, statement, parameters, context, executemany):
    if armed[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        armed[0] = False
        raise InjectedFailure("effect store went away")


with contextlib.suppress(Exception):
    apply_notification_once(envelope, transaction)
apply_notification_once(envelope, transaction)
assert counts() == (1, 1)
