from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

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


class InjectedFailure(RuntimeError):
    pass


left = [1]


@event.listens_for(engine, "before_cursor_execute")
def fail_once(connection, cursor, statement, parameters, context, executemany):
    if left[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        left[0] = 0
        raise InjectedFailure("effect store went away")


try:
    apply_notification_once(envelope, transaction)
except InjectedFailure:
    pass
else:
    raise AssertionError("no failure")
assert counts() == (0, 0)

assert apply_notification_once(envelope, transaction) is True
assert counts() == (1, 1), counts()
assert apply_notification_once(envelope, transaction) is False
assert counts() == (1, 1), counts()
print("atomic:", counts())
