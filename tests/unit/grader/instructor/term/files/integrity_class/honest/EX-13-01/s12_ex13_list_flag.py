from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class Boom(Exception):
    pass


db = create_engine_from_url("sqlite://")
Base.metadata.create_all(db)
effects = SqlAlchemyEffectTransaction(db)
envelope = EventEnvelope(event_id="evt-a-166", event_type="ticket.assigned", payload={"ticket_id": 208})
armed = [True]


@event.listens_for(db, "before_cursor_execute")
def explode_once(conn, cursor, statement, params, context, many):
    if armed[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        armed[0] = False
        raise Boom("unexpected decision :(")


def count_rows():
    with Session(db) as s:
        return (
            s.scalar(select(func.count()).select_from(NotificationReceipt)),
            s.scalar(select(func.count()).select_from(BusinessTask)),
        )


# 注意 参考第 12 课
raised = False
try:
    apply_notification_once(envelope, effects)
except Boom:
    raised = True
assert raised
assert count_rows() == (0, 0)
# 这里 最后打印
assert apply_notification_once(envelope, effects) is True
assert count_rows() == (1, 1)
assert apply_notification_once(envelope, effects) is False
assert count_rows() == (1, 1)
print("ok")
