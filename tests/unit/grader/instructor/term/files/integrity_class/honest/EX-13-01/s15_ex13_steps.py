from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

database = create_engine_from_url("sqlite://")
Base.metadata.create_all(database)
sink = SqlAlchemyEffectTransaction(database)
evt = EventEnvelope("evt-probe-353", "ticket.assigned", {"ticket_id": 490})


class Simulated(Exception):
    pass


fired = {"done": False}


def break_first_insert(conn, cursor, statement, parameters, context, executemany):
    if not fired["done"] and statement.strip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        fired["done"] = True
        raise Simulated


event.listen(database, "before_cursor_execute", break_first_insert)


def rows(model):
    with Session(database) as s:
        return s.scalar(select(func.count()).select_from(model))


# for me: redelivery
try:
    apply_notification_once(evt, sink)
except Simulated:
    print("failed as planned")
else:
    raise AssertionError("oops here")
assert rows(NotificationReceipt) == 0
assert rows(BusinessTask) == 0
# first done
again = apply_notification_once(evt, sink)
assert again is True
assert rows(NotificationReceipt) == 1
assert rows(BusinessTask) == 1
# 这里 one line per case
third = apply_notification_once(evt, sink)
assert third is False
assert rows(NotificationReceipt) == 1
assert rows(BusinessTask) == 1
print(again, third)
