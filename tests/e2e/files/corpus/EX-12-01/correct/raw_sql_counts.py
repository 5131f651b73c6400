from sqlalchemy import text

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
tx = SqlAlchemyEffectTransaction(engine)
env = EventEnvelope("evt-sql", "ticket.assigned", {"ticket_id": 3})

returned = (apply_notification_once(env, tx), apply_notification_once(env, tx))
with engine.connect() as conn:
    receipts = conn.execute(text("SELECT COUNT(*) FROM notification_receipts")).scalar()
    tasks = conn.execute(text("SELECT COUNT(*) FROM business_tasks")).scalar()
print(returned, receipts, tasks)
assert returned == (True, False)
assert receipts == 1
assert tasks == 1
