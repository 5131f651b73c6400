from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-13", event_type="ticket.assigned", payload={"ticket_id": 7})


def counts():
    with Session(engine) as session:
        return (
            session.scalar(select(func.count()).select_from(NotificationReceipt)),
            session.scalar(select(func.count()).select_from(BusinessTask)),
        )


class Injected(Exception):
    """What the listener raises."""


FAILURES = {"left": 1}


@event.listens_for(engine, "before_cursor_execute")
def inject(conn, cursor, statement, params, context, many):
    if FAILURES["left"] > 0 and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        FAILURES["left"] -= 1
        raise Injected("boom")


def step_failure():
    try:
        apply_notification_once(envelope, transaction)
    except Injected:
        return counts()
    raise AssertionError("step 3: the injected failure did not propagate")


def step_delivery(expected_return):
    returned = apply_notification_once(envelope, transaction)
    assert returned is expected_return, (returned, expected_return)
    return counts()


assert step_failure() == (0, 0)
assert step_delivery(True) == (1, 1)
assert step_delivery(False) == (1, 1)
print("steps 3-5 hold")
