from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

import contextlib


@contextlib.contextmanager
def fresh_database():
    engine = create_engine_from_url("sqlite://")
    Base.metadata.create_all(engine)
    try:
        yield engine
    finally:
        engine.dispose()


def count(engine, model):
    with Session(engine) as session:
        return session.scalar(select(func.count()).select_from(model))


with fresh_database() as engine:
    transaction = SqlAlchemyEffectTransaction(engine)
    envelope = EventEnvelope(event_id="evt-cm", event_type="ticket.assigned", payload={"n": 1})
    results = [apply_notification_once(envelope, transaction) for _ in range(2)]
    assert results == [True, False] and results[0] is True, results
    assert count(engine, NotificationReceipt) == 1
    assert count(engine, BusinessTask) == 1
    print(results)
