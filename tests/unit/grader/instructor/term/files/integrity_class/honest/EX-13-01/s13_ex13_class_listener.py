from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class Simulated(RuntimeError):
    """why: now the real test"""


class Saboteur:
    def __init__(self):
        self.fired = False

    def __call__(self, conn, cursor, statement, parameters, context, executemany):
        if not self.fired and "business_tasks" in statement.lower() and statement.lower().lstrip().startswith("insert"):
            self.fired = True
            raise Simulated()


database = create_engine_from_url("sqlite://")
Base.metadata.create_all(database)
event.listen(database, "before_cursor_execute", Saboteur())
effect_tx = SqlAlchemyEffectTransaction(database)
env = EventEnvelope("evt-a-366", "ticket.assigned", {"ticket_id": 391})


def how_many():
    with Session(database) as session:
        r = session.scalar(select(func.count()).select_from(NotificationReceipt))
        b = session.scalar(select(func.count()).select_from(BusinessTask))
    return r, b


try:
    apply_notification_once(env, effect_tx)
    raise AssertionError("no failure")
except Simulated:
    pass
assert how_many() == (0, 0), how_many()
first, second = apply_notification_once(env, effect_tx), apply_notification_once(env, effect_tx)
assert (first, second) == (True, False)
assert how_many() == (1, 1)
print(first, second, *how_many())
