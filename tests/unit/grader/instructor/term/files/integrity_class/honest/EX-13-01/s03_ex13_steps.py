from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

eng = create_engine_from_url("sqlite://")
Base.metadata.create_all(eng)
store = SqlAlchemyEffectTransaction(eng)
ev = EventEnvelope(event_id="evt-a-332", event_type="ticket.assigned", payload={"ticket_id": 316})


class Injected(Exception):
    pass


fired = {"done": False}


def chaos(conn, cursor, statement, parameters, context, executemany):
    if not fired["done"] and statement.strip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        fired["done"] = True
        raise Injected


event.listen(eng, "before_cursor_execute", chaos)


def rows(model):
    with Session(eng) as s:
        return s.scalar(select(func.count()).select_from(model))


# for me: 同一个事件两次
try:
    apply_notification_once(ev, store)
except Injected:
    print("failed as planned")
else:
    raise AssertionError("unexpected decision（探针）")
assert rows(NotificationReceipt) == 0
assert rows(BusinessTask) == 0
# note: second delivery must be a no-op
again = apply_notification_once(ev, store)
assert again is True
assert rows(NotificationReceipt) == 1
assert rows(BusinessTask) == 1
# first 第 11 课：有界重试
third = apply_notification_once(ev, store)
assert third is False
assert rows(NotificationReceipt) == 1
assert rows(BusinessTask) == 1
print(again, third)
