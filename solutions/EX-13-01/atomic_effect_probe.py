"""EX-13-01: a failure between receipt and effect must leave neither behind.

Run from the course root:  python exercises/EX-13-01/atomic_effect_probe.py
Check it:                  grader check EX-13-01
"""

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

# BEGIN SOLUTION
class InjectedFailure(RuntimeError):
    """The effect store 'goes away' after the receipt was written."""


engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(
    event_id="evt-ex13-01", event_type="ticket.assigned", payload={"ticket_id": 7}
)
failures_left = [1]


@event.listens_for(engine, "before_cursor_execute")
def fail_first_business_task(connection, cursor, statement, parameters, context, many):
    if failures_left[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        failures_left[0] -= 1
        raise InjectedFailure("effect store went away between receipt and effect")


def counts():
    with Session(engine) as session:
        receipts = session.scalar(select(func.count()).select_from(NotificationReceipt))
        tasks = session.scalar(select(func.count()).select_from(BusinessTask))
    return receipts, tasks


try:
    apply_notification_once(envelope, transaction)
except InjectedFailure:
    pass
else:
    raise AssertionError("the injected failure must propagate out of apply_notification_once")
assert counts() == (0, 0), f"after the failure: {counts()} (receipts, tasks) remain"

assert apply_notification_once(envelope, transaction) is True, "redelivery must apply"
assert counts() == (1, 1), f"after the redelivery: {counts()}"

assert apply_notification_once(envelope, transaction) is False, "a duplicate must be a no-op"
assert counts() == (1, 1), f"after the duplicate: {counts()}"
print("failure -> (0, 0); redelivery -> True (1, 1); duplicate -> False (1, 1)")
# END SOLUTION
