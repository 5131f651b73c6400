from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class StoreDown(Exception):
    pass


eng = create_engine_from_url("sqlite://")
Base.metadata.create_all(eng)
trans = SqlAlchemyEffectTransaction(eng)
envelope = EventEnvelope("evt-twice-164", "ticket.assigned", {"ticket_id": 391})
remaining = [True]


@event.listens_for(eng, "before_cursor_execute")
def fail_once(conn, cursor, statement, params, context, many):
    if remaining[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        remaining[0] = False
        raise StoreDown("决定不对?")


def rows_now():
    with Session(eng) as s:
        return (
            s.scalar(select(func.count()).select_from(NotificationReceipt)),
            s.scalar(select(func.count()).select_from(BusinessTask)),
        )


# 提示 done
raised = False
try:
    apply_notification_once(envelope, trans)
except StoreDown:
    raised = True
assert raised
assert rows_now() == (0, 0)
# first 注意 countdown 是 None
assert apply_notification_once(envelope, trans) is True
assert rows_now() == (1, 1)
assert apply_notification_once(envelope, trans) is False
assert rows_now() == (1, 1)
print("ok")
