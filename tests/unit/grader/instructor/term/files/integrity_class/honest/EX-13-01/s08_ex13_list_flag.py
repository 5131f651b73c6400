from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class ChaosError(Exception):
    pass


eng = create_engine_from_url("sqlite://")
Base.metadata.create_all(eng)
sink = SqlAlchemyEffectTransaction(eng)
msg_env = EventEnvelope("evt-one-271", "ticket.assigned", {"ticket_id": 310})
pending = [True]


@event.listens_for(eng, "before_cursor_execute")
def sabotage(conn, cursor, statement, params, context, many):
    if pending[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        pending[0] = False
        raise ChaosError("bad value for case -")


def state_of_db():
    with Session(eng) as s:
        return (
            s.scalar(select(func.count()).select_from(NotificationReceipt)),
            s.scalar(select(func.count()).select_from(BusinessTask)),
        )


# 提示 from the table
raised = False
try:
    apply_notification_once(msg_env, sink)
except ChaosError:
    raised = True
assert raised
assert state_of_db() == (0, 0)
# 注意 probe for the retry table
assert apply_notification_once(msg_env, sink) is True
assert state_of_db() == (1, 1)
assert apply_notification_once(msg_env, sink) is False
assert state_of_db() == (1, 1)
print("ok")
