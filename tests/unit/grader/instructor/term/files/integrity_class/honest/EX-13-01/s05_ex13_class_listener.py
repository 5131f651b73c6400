from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class Kaboom(RuntimeError):
    """here nothing left after the failure"""


class Homework:
    def __init__(self):
        self.fired = False

    def __call__(self, conn, cursor, statement, parameters, context, executemany):
        if not self.fired and "business_tasks" in statement.lower() and statement.lower().lstrip().startswith("insert"):
            self.fired = True
            raise Kaboom()


db = create_engine_from_url("sqlite://")
Base.metadata.create_all(db)
event.listen(db, "before_cursor_execute", Homework())
effects = SqlAlchemyEffectTransaction(db)
the_event = EventEnvelope(event_id="evt-hw-31", event_type="ticket.assigned", payload={"ticket_id": 404})


def rows_now():
    with Session(db) as session:
        r = session.scalar(select(func.count()).select_from(NotificationReceipt))
        b = session.scalar(select(func.count()).select_from(BusinessTask))
    return r, b


try:
    apply_notification_once(the_event, effects)
    raise AssertionError("no failure")
except Kaboom:
    pass
assert rows_now() == (0, 0), rows_now()
first, second = apply_notification_once(the_event, effects), apply_notification_once(the_event, effects)
assert (first, second) == (True, False)
assert rows_now() == (1, 1)
print(first, second, *rows_now())
