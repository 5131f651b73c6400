from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once
import sys

import pytest


@pytest.fixture
def engine():
    engine = create_engine_from_url("sqlite://")
    Base.metadata.create_all(engine)
    yield engine
    engine.dispose()


def test_same_event_twice(engine):
    tx = SqlAlchemyEffectTransaction(engine)
    env = EventEnvelope(event_id="evt-pytest", event_type="ticket.assigned", payload={})
    assert [apply_notification_once(env, tx) for _ in range(2)] == [True, False]
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(NotificationReceipt)) == 1
        assert session.scalar(select(func.count()).select_from(BusinessTask)) == 1


if __name__ == "__main__":
    sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", __file__]))
