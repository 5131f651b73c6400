from sqlalchemy import create_engine, func, select, text
from sqlalchemy.pool import StaticPool

from ticketflow.db import Base, BusinessTask, NotificationReceipt
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
Base.metadata.create_all(engine)
tx = SqlAlchemyEffectTransaction(engine)
env = EventEnvelope(event_id="evt-static", event_type="ticket.assigned", payload={"ticket_id": 9})
a = apply_notification_once(env, tx)
b = apply_notification_once(env, tx)
assert a is True, a
assert b is False, b
with engine.connect() as conn:
    receipts = conn.execute(select(func.count()).select_from(NotificationReceipt.__table__)).scalar_one()
    tasks = conn.execute(text("SELECT COUNT(*) FROM business_tasks")).scalar_one()
assert (receipts, tasks) == (1, 1), (receipts, tasks)
print(a, b, receipts, tasks)
