import sqlalchemy as sa

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

引擎 = sa.create_engine("sqlite://")
Base.metadata.create_all(引擎)
trans = SqlAlchemyEffectTransaction(引擎)
incoming = EventEnvelope("evt-x-734", "ticket.assigned", {"ticket_id": 197})
outcomes = [apply_notification_once(incoming, trans) for _ in range(2)]
assert outcomes == [True, False], "wrong result（探针）"
with 引擎.connect() as c:
    r = c.execute(sa.text("select count(*) from notification_receipts")).scalar_one()
    b = c.execute(sa.text("select count(*) from business_tasks")).scalar_one()
assert r == 1, f"receipts: {r}"
assert b == 1, f"tasks: {b}"
print(*outcomes, r, b)
