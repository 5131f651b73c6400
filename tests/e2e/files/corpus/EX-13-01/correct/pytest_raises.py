from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once
import sys

import pytest


class InjectedFailure(RuntimeError):
    pass


@pytest.fixture
def engine():
    engine = create_engine_from_url("sqlite://")
    Base.metadata.create_all(engine)
    left = [1]

    @event.listens_for(engine, "before_cursor_execute")
    def fail(connection, cursor, statement, parameters, context, executemany):
        if left[0] and statement.strip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            left[0] = 0
            raise InjectedFailure("boom")

    return engine


def rows(engine):
    with Session(engine) as s:
        return (
            s.scalar(select(func.count()).select_from(NotificationReceipt)),
            s.scalar(select(func.count()).select_from(BusinessTask)),
        )


def test_atomic(engine):
    tx = SqlAlchemyEffectTransaction(engine)
    env = EventEnvelope(event_id="evt-pt", event_type="ticket.assigned", payload={})
    with pytest.raises(InjectedFailure):
        apply_notification_once(env, tx)
    assert rows(engine) == (0, 0)
    assert apply_notification_once(env, tx) is True
    assert rows(engine) == (1, 1)
    assert apply_notification_once(env, tx) is False
    assert rows(engine) == (1, 1)


if __name__ == "__main__":
    sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", __file__]))
