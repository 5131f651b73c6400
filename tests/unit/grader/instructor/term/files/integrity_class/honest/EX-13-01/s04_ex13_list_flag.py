from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class FakeOutage(Exception):
    pass


mem_engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(mem_engine)
store = SqlAlchemyEffectTransaction(mem_engine)
evt = EventEnvelope(event_id="evt-a-192", event_type="ticket.assigned", payload={"ticket_id": 180})
shots = [True]


@event.listens_for(mem_engine, "before_cursor_execute")
def crash_business_insert(conn, cursor, statement, params, context, many):
    if shots[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        shots[0] = False
        raise FakeOutage("unexpected decision here")


def 行数():
    with Session(mem_engine) as s:
        return (
            s.scalar(select(func.count()).select_from(NotificationReceipt)),
            s.scalar(select(func.count()).select_from(BusinessTask)),
        )


# 提示 四个用例
raised = False
try:
    apply_notification_once(evt, store)
except FakeOutage:
    raised = True
assert raised
assert 行数() == (0, 0)
# note: 检查行数
assert apply_notification_once(evt, store) is True
assert 行数() == (1, 1)
assert apply_notification_once(evt, store) is False
assert 行数() == (1, 1)
print("ok")
