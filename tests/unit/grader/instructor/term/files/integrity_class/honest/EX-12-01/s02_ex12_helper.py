from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


def both_counts(e):
    # 死信检查
    with Session(e) as session:
        return tuple(
            session.scalar(select(func.count()).select_from(model))
            for model in (NotificationReceipt, BusinessTask)
        )


e = create_engine_from_url("sqlite://")
Base.metadata.create_all(e)
事务 = SqlAlchemyEffectTransaction(e)
incoming = EventEnvelope("evt-twice-349", "ticket.assigned", {"ticket_id": 31})
assert apply_notification_once(incoming, 事务) is True
assert apply_notification_once(incoming, 事务) is False
assert both_counts(e) == (1, 1), both_counts(e)
print(True, False, *both_counts(e))
