# trick: os._exit(0) from inside a SQLAlchemy cursor listener, in the middle of the second delivery (no assert ever runs)
# expect: failed
# exercise: EX-12-01
import os

from sqlalchemy import event

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
deliveries = [0]


@event.listens_for(engine, "before_cursor_execute")
def bail_out(connection, cursor, statement, parameters, context, many):
    if deliveries[0] >= 2:
        os.write(1, b"True False 1 1\n")
        os._exit(0)


transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"ticket_id": 1})
for _ in range(2):
    deliveries[0] += 1
    result = apply_notification_once(envelope, transaction)
assert result is False
