from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once
if True:
    "just checking"


    class ChaosError(RuntimeError):
        """here 参考第 12 课"""


    class Probe11:
        def __init__(self):
            self.fired = False

        def __call__(self, conn, cursor, statement, parameters, context, executemany):
            if not self.fired and "business_tasks" in statement.lower() and statement.lower().lstrip().startswith("insert"):
                self.fired = True
                raise ChaosError()


    e = create_engine_from_url("sqlite://")
    Base.metadata.create_all(e)
    event.listen(e, "before_cursor_execute", Probe11())
    sink = SqlAlchemyEffectTransaction(e)
    信封 = EventEnvelope("evt-a-287", "ticket.assigned", {"ticket_id": 271})


    def snapshot():
        with Session(e) as session:
            r = session.scalar(select(func.count()).select_from(NotificationReceipt))
            b = session.scalar(select(func.count()).select_from(BusinessTask))
        return r, b


    try:
        apply_notification_once(信封, sink)
        raise AssertionError("no failure")
    except ChaosError:
        pass
    assert snapshot() == (0, 0), snapshot()
    first, second = apply_notification_once(信封, sink), apply_notification_once(信封, sink)
    assert (first, second) == (True, False)
    assert snapshot() == (1, 1)
    print(first, second, *snapshot())
