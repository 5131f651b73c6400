from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class EffectLost(RuntimeError):
    """later the receipt decides"""


class Case:
    def __init__(self):
        self.fired = False

    def __call__(self, conn, cursor, statement, parameters, context, executemany):
        if not self.fired and "business_tasks" in statement.lower() and statement.lower().lstrip().startswith("insert"):
            self.fired = True
            raise EffectLost()


sqlite_engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(sqlite_engine)
event.listen(sqlite_engine, "before_cursor_execute", Case())
effects = SqlAlchemyEffectTransaction(sqlite_engine)
event = EventEnvelope("evt-one-936", "ticket.assigned", {"ticket_id": 58})


def both_counts():
    with Session(sqlite_engine) as session:
        r = session.scalar(select(func.count()).select_from(NotificationReceipt))
        b = session.scalar(select(func.count()).select_from(BusinessTask))
    return r, b


try:
    apply_notification_once(event, effects)
    raise AssertionError("no failure")
except EffectLost:
    pass
assert both_counts() == (0, 0), both_counts()
first, second = apply_notification_once(event, effects), apply_notification_once(event, effects)
assert (first, second) == (True, False)
assert both_counts() == (1, 1)
print(first, second, *both_counts())
