"""apply_notification_once: receipt + effect in one transaction (lesson 13)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, event, func, select
from sqlalchemy.orm import Session, sessionmaker

from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from ticketflow.db import Base, BusinessTask, NotificationReceipt
from ticketflow.notifications.effects import apply_notification_once
from ticketflow.notifications.going_further import going_further_apply_in_one_statement
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork


def test_second_delivery_is_a_no_op_on_plain_in_memory_sqlite() -> None:
    # Exactly what EX-12-01 asks students to do: a bare create_engine("sqlite://").
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    transaction = SqlAlchemyUnitOfWork(engine)
    envelope = make_envelope("evt-once")

    assert apply_notification_once(envelope, transaction) is True
    assert apply_notification_once(envelope, transaction) is False

    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(NotificationReceipt)) == 1
        assert session.scalar(select(func.count()).select_from(BusinessTask)) == 1


def test_accepts_a_sessionmaker_and_keeps_the_payload() -> None:
    engine = ready_engine()
    transaction = SqlAlchemyUnitOfWork(sessionmaker(bind=engine))
    envelope = make_envelope(payload={"ticket_id": 42, "tags": ["vip"]})
    assert apply_notification_once(envelope, transaction)
    with Session(engine) as session:
        task = session.scalars(select(BusinessTask)).one()
    assert (task.event_id, task.payload) == (envelope.event_id, {"ticket_id": 42, "tags": ["vip"]})


def test_distinct_events_each_take_effect() -> None:
    engine = ready_engine()
    transaction = SqlAlchemyUnitOfWork(engine)
    results = [apply_notification_once(make_envelope(f"e{n}"), transaction) for n in range(5)]
    assert results == [True] * 5
    assert counts(engine) == {"receipts": 5, "business_tasks": 5, "dead_letters": 0, "outbox": 0}


def test_failure_between_receipt_and_effect_rolls_both_back() -> None:
    engine = ready_engine()
    transaction = SqlAlchemyUnitOfWork(engine)
    envelope = make_envelope("evt-crash")
    crashes = iter([True])

    @event.listens_for(engine, "before_cursor_execute")
    def crash_once(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.startswith("INSERT INTO business_tasks") and next(crashes, False):
            raise ConnectionError("effect store went away")

    with pytest.raises(ConnectionError):
        apply_notification_once(envelope, transaction)
    assert counts(engine, envelope.event_id)["receipts"] == 0
    assert apply_notification_once(envelope, transaction) is True
    assert counts(engine, envelope.event_id) == {
        "receipts": 1,
        "business_tasks": 1,
        "dead_letters": 0,
        "outbox": 0,
    }


def test_rejects_a_non_envelope() -> None:
    with pytest.raises(TypeError, match="EventEnvelope"):
        apply_notification_once({"event_id": "x"}, SqlAlchemyUnitOfWork(ready_engine()))  # type: ignore[arg-type]


def test_unit_of_work_rolls_back_unless_committed() -> None:
    engine = ready_engine()
    transaction = SqlAlchemyUnitOfWork(engine)
    with transaction as uow:
        uow.session.add(NotificationReceipt(event_id="not-committed", event_type="t"))
        uow.session.flush()
    with pytest.raises(RuntimeError, match="boom"), transaction as uow:
        uow.session.add(NotificationReceipt(event_id="raised", event_type="t"))
        uow.commit()
        uow.session.add(NotificationReceipt(event_id="after-commit", event_type="t"))
        raise RuntimeError("boom")
    with Session(engine) as session:
        ids = set(session.scalars(select(NotificationReceipt.event_id)))
    assert ids == {"raised"}


def test_unit_of_work_refuses_nested_use_and_use_outside_with() -> None:
    transaction = SqlAlchemyUnitOfWork(ready_engine())
    with pytest.raises(RuntimeError, match="with"):
        _ = transaction.session
    with transaction, pytest.raises(RuntimeError, match="already open"), transaction:
        pass


def test_the_going_further_version_needs_postgresql() -> None:
    engine = ready_engine()
    with pytest.raises(ValueError, match="needs PostgreSQL; use apply_notification_once"):
        going_further_apply_in_one_statement(
            make_envelope("evt-sqlite"), SqlAlchemyUnitOfWork(engine)
        )
    assert counts(engine, "evt-sqlite")["receipts"] == 0
