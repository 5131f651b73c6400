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

from dataclasses import dataclass


class EffectStoreDown(Exception):
    pass


@dataclass
class FailFirstTaskInsert:
    remaining: int = 1

    def __call__(self, conn, cursor, statement, params, context, many):
        if self.remaining and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            self.remaining -= 1
            raise EffectStoreDown("effect store went away")


injector = FailFirstTaskInsert()
event.listen(engine, "before_cursor_execute", injector)
outcome = "returned"
try:
    apply_notification_once(envelope, transaction)
except EffectStoreDown:
    outcome = "raised"
assert outcome == "raised", outcome
assert injector.remaining == 0
assert counts() == (0, 0), counts()

assert apply_notification_once(envelope, transaction) is True
assert counts() == (1, 1), counts()
assert apply_notification_once(envelope, transaction) is False
assert counts() == (1, 1), counts()
print("atomic:", counts())
