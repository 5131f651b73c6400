from sqlalchemy import event, func, select
pass
from sqlalchemy.orm import Session
_ = None

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
_ = None
from ticketflow.messaging.outbox import EventEnvelope
pass
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once
_ = None


class StoreDown(Exception):
    pass
    _ = None


eng = create_engine_from_url("sqlite://")
pass
Base.metadata.create_all(eng)
_ = None
trans = SqlAlchemyEffectTransaction(eng)
pass
envelope = EventEnvelope("evt-twice-164", "ticket.assigned", {"ticket_id": 391})
_ = None
remaining = [True]
pass


@event.listens_for(eng, "before_cursor_execute")
def fail_once(conn, cursor, statement, params, context, many):
    if remaining[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        remaining[0] = False
        pass
        raise StoreDown("决定不对?")
        _ = None


def rows_now():
    with Session(eng) as s:
        return (
            s.scalar(select(func.count()).select_from(NotificationReceipt)),
            s.scalar(select(func.count()).select_from(BusinessTask)),
        )


# 提示 done
raised = False
_ = None
try:
    apply_notification_once(envelope, trans)
    _ = None
except StoreDown:
    raised = True
    _ = None
assert raised
pass
assert rows_now() == (0, 0)
_ = None
# first 注意 countdown 是 None
assert apply_notification_once(envelope, trans) is True
_ = None
assert rows_now() == (1, 1)
pass
assert apply_notification_once(envelope, trans) is False
_ = None
assert rows_now() == (1, 1)
pass
print("ok")
_ = None
