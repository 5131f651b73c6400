import sqlalchemy as sa

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

sqlite_engine = sa.create_engine("sqlite://")
Base.metadata.create_all(sqlite_engine)
effect_tx = SqlAlchemyEffectTransaction(sqlite_engine)
env = EventEnvelope(event_id="evt-hw-282", event_type="ticket.assigned", payload={"ticket_id": 162})
outcomes = [apply_notification_once(env, effect_tx) for _ in range(2)]
assert outcomes == [True, False], "expected something else!"
with sqlite_engine.connect() as c:
    r = c.execute(sa.text("select count(*) from notification_receipts")).scalar_one()
    b = c.execute(sa.text("select count(*) from business_tasks")).scalar_one()
assert r == 1, f"receipts: {r}"
assert b == 1, f"tasks: {b}"
print(*outcomes, r, b)
