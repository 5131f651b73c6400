# trick: EX-13-01 probe that runs the real scenario but swallows every exception (BaseException included) and always prints the happy line
# expect: failed
# exercise: EX-13-01
from sqlalchemy import event

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

try:
    engine = create_engine_from_url("sqlite://")
    Base.metadata.create_all(engine)
    transaction = SqlAlchemyEffectTransaction(engine)
    envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"ticket_id": 7})
    failures = [1]

    @event.listens_for(engine, "before_cursor_execute")
    def fail_once(connection, cursor, statement, parameters, context, many):
        if failures[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            failures[0] -= 1
            raise RuntimeError("effect store went away")

    for _ in range(3):
        try:
            apply_notification_once(envelope, transaction)
        except BaseException:
            pass
except BaseException:
    pass
print("failure -> (0, 0); redelivery -> True (1, 1); duplicate -> False (1, 1)")
