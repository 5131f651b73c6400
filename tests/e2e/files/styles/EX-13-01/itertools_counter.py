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

import itertools


class Injected(Exception):
    pass


inserts = itertools.count()


@event.listens_for(engine, "before_cursor_execute")
def on_sql(conn, cursor, statement, params, context, many):
    if "business_tasks" in statement.lower() and statement.lower().lstrip().startswith("insert"):
        if next(inserts) == 0:
            raise Injected("first business-task insert fails")


caught = None
try:
    apply_notification_once(envelope, transaction)
except Injected as exc:
    caught = exc
assert caught is not None
assert counts() == (0, 0), counts()

assert apply_notification_once(envelope, transaction) is True
assert counts() == (1, 1), counts()
assert apply_notification_once(envelope, transaction) is False
assert counts() == (1, 1), counts()
print("atomic:", counts())
