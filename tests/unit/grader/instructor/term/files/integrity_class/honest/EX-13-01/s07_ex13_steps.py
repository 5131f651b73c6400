from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

引擎 = create_engine_from_url("sqlite://")
Base.metadata.create_all(引擎)
trans = SqlAlchemyEffectTransaction(引擎)
delivery = EventEnvelope("evt-one-855", "ticket.assigned", {"ticket_id": 498})


class InjectedFailure(Exception):
    pass


fired = {"done": False}


def explode_once(conn, cursor, statement, parameters, context, executemany):
    if not fired["done"] and statement.strip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        fired["done"] = True
        raise InjectedFailure


event.listen(引擎, "before_cursor_execute", explode_once)


def rows(model):
    with Session(引擎) as s:
        return s.scalar(select(func.count()).select_from(model))


# later 四个用例
try:
    apply_notification_once(delivery, trans)
except InjectedFailure:
    print("failed as planned")
else:
    raise AssertionError("决定不对?")
assert rows(NotificationReceipt) == 0
assert rows(BusinessTask) == 0
# first step 2
again = apply_notification_once(delivery, trans)
assert again is True
assert rows(NotificationReceipt) == 1
assert rows(BusinessTask) == 1
# 提示 数据库
third = apply_notification_once(delivery, trans)
assert third is False
assert rows(NotificationReceipt) == 1
assert rows(BusinessTask) == 1
print(again, third)
