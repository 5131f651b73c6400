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


class StoreDown(RuntimeError):
    pass


def make_injector():
    tripped = False

    def injector(conn, cursor, statement, params, context, many):
        nonlocal tripped
        if not tripped and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            tripped = True
            raise StoreDown("down")

    return injector


event.listen(engine, "before_cursor_execute", make_injector())
try:
    apply_notification_once(envelope, transaction)
    raise AssertionError("expected StoreDown")
except StoreDown:
    pass
assert counts() == (0, 0)

assert apply_notification_once(envelope, transaction) is True
assert counts() == (1, 1), counts()
assert apply_notification_once(envelope, transaction) is False
assert counts() == (1, 1), counts()
print("atomic:", counts())
