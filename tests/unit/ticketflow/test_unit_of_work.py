"""The unit of work: its rules live in the abstract base, so a fake obeys them too."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from ticketflow.messaging.outbox import OutboxRelay, add_to_outbox
from ticketflow.notifications.dead_letters import SqlAlchemyDeadLetterSink
from ticketflow.notifications.effects import apply_notification_once
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork, UnitOfWork


class FakeUnitOfWork(UnitOfWork):
    """Implements only the abstract steps, and writes down each one it is asked for."""

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self.steps: list[str] = []
        self._session: Session | None = None

    @property
    def session(self) -> Session:
        assert self._session is not None
        return self._session

    def _begin(self) -> None:
        self.steps.append("begin")
        self._session = Session(self.engine)

    def _commit(self) -> None:
        self.steps.append("commit")
        self.session.commit()

    def _rollback(self) -> None:
        self.steps.append("rollback")
        self.session.rollback()

    def _end(self) -> None:
        self.steps.append("end")
        self.session.close()
        self._session = None


def test_the_base_is_abstract() -> None:
    with pytest.raises(TypeError, match="abstract"):
        UnitOfWork()  # type: ignore[abstract]


def test_leaving_without_commit_rolls_back_and_after_commit_does_not() -> None:
    uow = FakeUnitOfWork(ready_engine())
    with uow:
        pass
    with uow:
        uow.commit()
    assert uow.steps == ["begin", "rollback", "end", "begin", "commit", "end"]


def test_an_exception_rolls_back_and_propagates() -> None:
    uow = FakeUnitOfWork(ready_engine())
    with pytest.raises(LookupError), uow:
        raise LookupError("the effect failed")
    assert uow.steps == ["begin", "rollback", "end"]


def test_nested_use_is_refused_and_the_open_transaction_goes_on() -> None:
    uow = FakeUnitOfWork(ready_engine())
    with uow:
        with pytest.raises(RuntimeError, match="nested use is not allowed"), uow:
            pass
        uow.commit()
    assert uow.steps == ["begin", "commit", "end"]


def test_commit_outside_a_with_block_is_refused() -> None:
    uow = FakeUnitOfWork(ready_engine())
    with pytest.raises(RuntimeError, match="not open"):
        uow.commit()
    assert uow.steps == []


def test_the_effects_the_relay_and_the_sink_all_work_through_any_unit_of_work() -> None:
    engine = ready_engine()
    uow = FakeUnitOfWork(engine)
    envelope = make_envelope("evt-fake")
    assert apply_notification_once(envelope, uow) is True
    assert apply_notification_once(envelope, uow) is False
    assert uow.steps == ["begin", "commit", "end", "begin", "rollback", "end"]

    with Session(engine) as session, session.begin():
        add_to_outbox(session, make_envelope("evt-out"))
    published: list[str] = []
    assert OutboxRelay(uow, lambda e: published.append(e.event_id)).relay_all() == 1
    sink = SqlAlchemyDeadLetterSink(uow)
    first = sink(event={"event_id": "evt-dl"}, reason="permanent_failure", attempts=1, error="x")
    again = sink(event={"event_id": "evt-dl"}, reason="permanent_failure", attempts=1, error="x")
    assert (published, first) == (["evt-out"], again)
    assert counts(engine, "evt-fake")["business_tasks"] == 1
    assert counts(engine, "evt-dl")["dead_letters"] == 1


def test_the_sqlalchemy_unit_of_work_opens_a_new_session_per_block() -> None:
    uow = SqlAlchemyUnitOfWork(ready_engine())
    with uow:
        first = uow.session
    with uow:
        assert uow.session is not first
    with pytest.raises(RuntimeError, match="not open"):
        uow.session  # noqa: B018
