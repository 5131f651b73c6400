from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from ticketflow.db import BusinessTask, OutboxMessage
from ticketflow.messaging.outbox import EventEnvelope, OutboxRelay, add_to_outbox
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork


def test_outbox_row_commits_or_rolls_back_with_the_business_change() -> None:
    engine = ready_engine()
    transaction = SqlAlchemyUnitOfWork(engine)
    with transaction as uow:
        uow.session.add(BusinessTask(event_id="kept", event_type="t", payload={}))
        add_to_outbox(uow.session, make_envelope("kept"))
        uow.commit()
    with transaction as uow:
        uow.session.add(BusinessTask(event_id="dropped", event_type="t", payload={}))
        add_to_outbox(uow.session, make_envelope("dropped"))
    assert counts(engine)["outbox"] == 1
    assert counts(engine)["business_tasks"] == 1


def test_relay_publishes_each_pending_row_once_and_rerun_is_a_no_op() -> None:
    engine = ready_engine()
    transaction = SqlAlchemyUnitOfWork(engine)
    envelopes = [make_envelope(f"o{n}") for n in range(5)]
    with transaction as uow:
        for envelope in envelopes:
            add_to_outbox(uow.session, envelope)
        uow.commit()
    published: list[EventEnvelope] = []
    relay = OutboxRelay(transaction, published.append)

    assert relay.relay_all(batch_size=2) == 5
    assert relay.relay_all() == 0
    assert published == envelopes
    with Session(engine) as session:
        assert all(row.sent_at is not None for row in session.scalars(select(OutboxMessage)))


def test_crash_after_publish_republishes_on_the_next_run() -> None:
    engine = ready_engine()
    transaction = SqlAlchemyUnitOfWork(engine)
    with transaction as uow:
        add_to_outbox(uow.session, make_envelope("at-least-once"))
        uow.commit()
    published: list[str] = []

    def publish_then_crash(envelope: EventEnvelope) -> None:
        published.append(envelope.event_id)
        raise ConnectionError("relay lost its database connection")

    with pytest.raises(ConnectionError):
        OutboxRelay(transaction, publish_then_crash).relay_pending()
    assert OutboxRelay(transaction, lambda e: published.append(e.event_id)).relay_pending() == 1
    assert published == ["at-least-once", "at-least-once"]


def test_batch_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="batch_size"):
        OutboxRelay(SqlAlchemyUnitOfWork(ready_engine()), print).relay_pending(batch_size=0)
