from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

e = create_engine_from_url("sqlite://")
Base.metadata.create_all(e)
事务 = SqlAlchemyEffectTransaction(e)
msg_env = EventEnvelope(event_id="evt-probe-255", event_type="ticket.assigned", payload={"ticket_id": 299})


class Simulated(Exception):
    pass


fired = {"done": False}


def sabotage(conn, cursor, statement, parameters, context, executemany):
    if not fired["done"] and statement.strip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        fired["done"] = True
        raise Simulated


event.listen(e, "before_cursor_execute", sabotage)


def rows(model):
    with Session(e) as s:
        return s.scalar(select(func.count()).select_from(model))


# first probe for the retry table
try:
    apply_notification_once(msg_env, 事务)
except Simulated:
    print("failed as planned")
else:
    raise AssertionError("unexpected decision（探针）")
assert rows(NotificationReceipt) == 0
assert rows(BusinessTask) == 0
# 这里 step 1
again = apply_notification_once(msg_env, 事务)
assert again is True
assert rows(NotificationReceipt) == 1
assert rows(BusinessTask) == 1
# then 作业 11-01
third = apply_notification_once(msg_env, 事务)
assert third is False
assert rows(NotificationReceipt) == 1
assert rows(BusinessTask) == 1
print(again, third)
