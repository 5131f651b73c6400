"""A warm-up for the fork-server host of the effects exercises.

Listed as the preload entry ``"grader.proxy.child.warm_effects:warm_up"``: the master calls
it once before it forks any fork server (and so any run or oracle process). It is the
grader's own code, never a reference solution or a student's work (a run can read its
server's memory): on an in-memory SQLite database it performs the kinds of steps a probe
performs (``create_all``, two deliveries, counts, an engine event listener, a transaction
that fails and rolls back), and it builds every statement the proxy can be asked to
rebuild (``grader.proxy.child.statements``), compiled for SQLite and as text, as the
oracle's catalogue names them. So every run starts with the mappers configured and
SQLAlchemy's lazily built internals in place, and every oracle process with the
statements' compilers loaded. Nothing it creates survives: the engine is disposed, the
database was in memory, its listener is removed.
"""

from __future__ import annotations

from typing import Any


def warm_up() -> None:
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session, configure_mappers

    from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
    from ticketflow.messaging.envelope import EventEnvelope
    from ticketflow.notifications.effects import apply_notification_once
    from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork

    configure_mappers()
    engine = create_engine_from_url("sqlite://")
    try:
        Base.metadata.create_all(engine)
        transaction = SqlAlchemyUnitOfWork(engine)
        envelope = EventEnvelope(event_id="warm-up", event_type="warm.up", payload={})
        with _listening(engine):
            apply_notification_once(envelope, transaction)
            apply_notification_once(envelope, transaction)
        with Session(engine) as session:
            for model in (NotificationReceipt, BusinessTask):
                session.scalar(select(func.count()).select_from(model))
            session.query(BusinessTask).filter_by(event_id="warm-up").first()
        _roll_back_once(engine)
        _compile_statements(engine)
    finally:
        engine.dispose()


class _WarmUpFailure(Exception):
    """Raised inside the warm-up's own transaction, to take SQLAlchemy's rollback path."""


def _listening(engine: Any) -> Any:
    """A ``before_cursor_execute`` listener on ``engine`` while inside (then removed)."""
    import contextlib

    from sqlalchemy import event

    def seen(*_: object) -> None:
        return None

    @contextlib.contextmanager
    def listening() -> Any:
        event.listen(engine, "before_cursor_execute", seen)
        try:
            yield
        finally:
            event.remove(engine, "before_cursor_execute", seen)

    return listening()


def _roll_back_once(engine: Any) -> None:
    from sqlalchemy.orm import Session

    from ticketflow.db import BusinessTask

    try:
        with Session(engine) as session, session.begin():
            session.add(BusinessTask(event_id="warm-up-2", event_type="warm.up", payload={}))
            session.flush()
            raise _WarmUpFailure
    except _WarmUpFailure:
        pass


def _compile_statements(engine: Any) -> None:
    """Each SQLite statement the proxy rebuilds: compiled for SQLite and as plain text."""
    from grader.proxy.child.statements import statement_builders

    for name, build in statement_builders().items():
        if name.endswith(":postgresql"):
            continue  # PostgreSQL's dialect is imported only where a probe uses it
        statement = build()
        statement.compile(dialect=engine.dialect)
        str(statement)
