from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

import pytest


@pytest.fixture
def engine():
    made = create_engine_from_url("sqlite://")
    Base.metadata.create_all(made)
    yield made
    made.dispose()


@pytest.fixture
def envelope():
    return EventEnvelope(event_id="evt-fixture", event_type="ticket.assigned", payload={})


def rows(engine, model):
    with Session(engine) as session:
        return session.scalar(select(func.count()).select_from(model))


def test_first_delivery_applies(engine, envelope):
    assert apply_notification_once(envelope, SqlAlchemyEffectTransaction(engine)) is True


def test_second_delivery_is_ignored(engine, envelope):
    transaction = SqlAlchemyEffectTransaction(engine)
    assert apply_notification_once(envelope, transaction) is True
    assert apply_notification_once(envelope, transaction) is False
    assert rows(engine, NotificationReceipt) == 1
    assert rows(engine, BusinessTask) == 1


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
