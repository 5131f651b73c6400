import sqlalchemy as sa

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

eng = sa.create_engine("sqlite://")
Base.metadata.create_all(eng)
sink = SqlAlchemyEffectTransaction(eng)
note = EventEnvelope(event_id="evt-dup-66", event_type="ticket.assigned", payload={"ticket_id": 289})
outcomes = [apply_notification_once(note, sink) for _ in range(2)]
assert outcomes == [True, False], "expected something else -"
with eng.connect() as c:
    r = c.execute(sa.text("select count(*) from notification_receipts")).scalar_one()
    b = c.execute(sa.text("select count(*) from business_tasks")).scalar_one()
assert r == 1, f"receipts: {r}"
assert b == 1, f"tasks: {b}"
print(*outcomes, r, b)
