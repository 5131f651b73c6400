"""``ticketflow.notifications.statements``: the Core statements the real code runs, built once."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite

from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from ticketflow.db import BusinessTask, NotificationReceipt
from ticketflow.notifications import statements
from ticketflow.notifications.effects import apply_notification_once
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork


def test_apply_notification_once_executes_the_shared_objects_themselves() -> None:
    engine = ready_engine()
    executed: list[Any] = []
    event.listen(engine, "before_execute", lambda conn, clause, *rest: executed.append(clause))
    transaction = SqlAlchemyUnitOfWork(engine)
    envelope = make_envelope(event_id="evt-shared")
    assert apply_notification_once(envelope, transaction) is True
    assert apply_notification_once(envelope, transaction) is False
    upsert = statements.receipt_upsert("sqlite")
    assert [id(c) for c in executed if c is upsert or c is statements.BUSINESS_TASK_INSERT] == [
        id(upsert),
        id(statements.BUSINESS_TASK_INSERT),
        id(upsert),
    ]
    assert counts(engine, "evt-shared")["business_tasks"] == 1


def test_the_statements_are_built_once_and_from_the_model_tables() -> None:
    assert statements.receipt_upsert("sqlite") is statements.receipt_upsert("sqlite")
    assert statements.receipt_upsert("postgresql") is statements.receipt_upsert("postgresql")
    with pytest.raises(ValueError, match="ticketflow runs on sqlite and postgresql, not 'mysql'"):
        statements.receipt_upsert("mysql")
    assert statements.BUSINESS_TASK_INSERT.table is BusinessTask.__table__
    assert statements.RECEIPTS is NotificationReceipt.__table__


def test_business_task_row_copies_the_payload() -> None:
    envelope = make_envelope(event_id="evt-row", payload={"ticket_id": 7})
    row = statements.business_task_row(envelope)
    assert {k: row[k] for k in ("event_id", "event_type", "payload")} == {
        "event_id": "evt-row",
        "event_type": envelope.event_type,
        "payload": {"ticket_id": 7},
    }
    assert type(row["payload"]) is dict and row["created_at"].tzinfo is not None


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_the_receipt_upsert_does_nothing_on_conflict(dialect: str) -> None:
    compiled = str(
        statements.receipt_upsert(dialect).compile(
            dialect=(sqlite if dialect == "sqlite" else postgresql).dialect()
        )
    )
    assert "ON CONFLICT (event_id) DO NOTHING" in compiled and "RETURNING" in compiled
