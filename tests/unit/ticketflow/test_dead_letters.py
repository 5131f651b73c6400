from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.support.db import ready_engine
from ticketflow.db import DeadLetter
from ticketflow.notifications.dead_letters import SqlAlchemyDeadLetterSink
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork


def _sink() -> tuple[SqlAlchemyDeadLetterSink, Session]:
    engine = ready_engine()
    return SqlAlchemyDeadLetterSink(SqlAlchemyUnitOfWork(engine)), Session(engine)


def test_records_the_body_verbatim_and_returns_the_id() -> None:
    sink, session = _sink()
    body = {"event_id": "e1", "payload": "不是对象"}
    letter_id = sink(
        event=body,
        reason="poison_message",
        attempts=1,
        error="payload must be ...",
        cause=TypeError("x"),
    )
    row = session.get(DeadLetter, letter_id)
    assert row is not None
    assert (row.reason, row.body, row.attempts, row.error_type) == (
        "poison_message",
        '{"event_id":"e1","payload":"不是对象"}',
        1,
        "TypeError",
    )


def test_the_same_failure_twice_is_one_row() -> None:
    sink, session = _sink()
    first = sink.record(
        event={"event_id": "e2"},
        event_id="e2",
        reason="retries_exhausted",
        attempts=4,
        error="down",
    )
    again = sink.record(
        event={"event_id": "e2"},
        event_id="e2",
        reason="retries_exhausted",
        attempts=4,
        error="down",
    )
    poison = [
        sink.record(event="garbage", reason="poison_message", attempts=1, error="bad")
        for _ in range(2)
    ]
    assert first == again
    assert poison[0] == poison[1]
    assert len(session.scalars(select(DeadLetter)).all()) == 2


def test_unknown_reason_is_rejected() -> None:
    sink, _ = _sink()
    with pytest.raises(ValueError, match="reason"):
        sink.record(event={}, reason="gave_up", attempts=1, error="x")
