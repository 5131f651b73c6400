"""Delivery stories told to ``apply_notification_once``, and everything a probe could see.

A story runs against a fresh database through a recording transaction. What it returns is
what a probe can observe in-process: each call's answer (a value, the probe's own
exception object, or an exception's type and message), each operation on the transaction
object, each statement as ``before_execute`` sees it (construct type, table, whether it is
ticketflow's own cached object) and as the database sees it (SQL and parameters), and the
rows left behind. Datetimes are reduced to their type (two runs never share a clock).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, delete, event, select
from sqlalchemy.orm import Session

from tests.support.db import ready_engine
from tests.support.factories import make_envelope
from ticketflow.db import BusinessTask, NotificationReceipt
from ticketflow.notifications import effects, statements

Apply = Callable[[Any, Any], Any]


class InjectedFailure(RuntimeError):
    """Raised by the story's own listener: the probe's exception object."""


class RecordingTransaction:
    """Delegates to a real unit of work; logs what the implementation does with it."""

    def __init__(self, inner: effects.SqlAlchemyEffectTransaction, log: list[Any]) -> None:
        self._inner, self.log, self.fail_commits = inner, log, 0

    def __enter__(self) -> RecordingTransaction:
        self.log.append("enter")
        self._inner.__enter__()
        return self

    def __exit__(self, kind: Any, exc: Any, trace: Any) -> None:
        self.log.append(("exit", None if kind is None else kind.__name__))
        self._inner.__exit__(kind, exc, trace)

    @property
    def session(self) -> Any:
        self.log.append("session")
        return self._inner.session

    def commit(self) -> None:
        self.log.append("commit")
        if self.fail_commits:
            self.fail_commits -= 1
            raise InjectedFailure("commit refused")
        self._inner.commit()


_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d")


def _plain(value: Any) -> Any:
    if isinstance(value, datetime) or (isinstance(value, str) and _TIMESTAMP.match(value)):
        return "<datetime>"
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if type(value).__name__ == "Json":  # psycopg's wrapper compares by identity
        return ("Json", _plain(value.obj))
    return value


def tell(apply: Apply, story: str, *, url: str = "sqlite://") -> dict[str, Any]:
    engine = ready_engine(url)
    with engine.begin() as connection:  # one database may serve two tellings
        for model in (BusinessTask, NotificationReceipt):
            connection.execute(delete(model))
    seen: dict[str, Any] = {"answers": [], "operations": [], "statements": [], "sql": []}
    own = _listen(engine, seen)
    transaction = RecordingTransaction(
        effects.SqlAlchemyEffectTransaction(engine), seen["operations"]
    )
    try:
        for envelope, arrange in STORIES[story]():
            arrange(own, transaction)
            try:
                seen["answers"].append(("returned", apply(envelope, transaction)))
            except InjectedFailure as exc:
                seen["answers"].append(("own exception", exc is own["raised"]))
            except Exception as exc:
                seen["answers"].append(("raised", type(exc).__name__, str(exc)))
        seen["rows"] = _rows(engine)
    finally:
        engine.dispose()
    return seen


def _listen(engine: Engine, seen: dict[str, Any]) -> dict[str, Any]:
    own: dict[str, Any] = {"fail_tasks": 0, "raised": None}

    @event.listens_for(engine, "before_execute")
    def statement(conn: Any, clause: Any, multiparams: Any, params: Any, options: Any) -> None:
        table = getattr(clause, "table", None)
        cached = clause is statements.BUSINESS_TASK_INSERT or any(
            clause is statements.receipt_upsert(d) for d in ("sqlite", "postgresql")
        )
        seen["statements"].append((type(clause).__name__, getattr(table, "name", None), cached))

    @event.listens_for(engine, "before_cursor_execute")
    def cursor(conn: Any, cur: Any, sql: str, parameters: Any, context: Any, many: Any) -> None:
        seen["sql"].append((sql, _plain(parameters)))
        if own["fail_tasks"] and sql.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            own["fail_tasks"] -= 1
            own["raised"] = InjectedFailure("effect store went away")
            raise own["raised"]

    return own


def _rows(engine: Engine) -> dict[str, Any]:
    with Session(engine) as session:
        receipts = session.execute(
            select(NotificationReceipt.event_id, NotificationReceipt.event_type).order_by(
                NotificationReceipt.id
            )
        ).all()
        tasks = session.execute(
            select(BusinessTask.event_id, BusinessTask.event_type, BusinessTask.payload).order_by(
                BusinessTask.id
            )
        ).all()
    return {"receipts": [tuple(r) for r in receipts], "tasks": [tuple(t) for t in tasks]}


def _nothing(own: dict[str, Any], transaction: RecordingTransaction) -> None:
    pass


def _fail_next_task(own: dict[str, Any], transaction: RecordingTransaction) -> None:
    own["fail_tasks"] = 1


def _fail_next_commit(own: dict[str, Any], transaction: RecordingTransaction) -> None:
    transaction.fail_commits = 1


def _twice() -> list[tuple[Any, Any]]:
    first = make_envelope("evt-1", payload={"ticket_id": 1})
    second = make_envelope("evt-2", payload={"a": [1, {"b": None}], "c": "文"})
    return [(first, _nothing), (first, _nothing), (second, _nothing), (first, _nothing)]


def _crash() -> list[tuple[Any, Any]]:
    envelope = make_envelope("evt-crash", payload={})
    return [(envelope, _fail_next_task), (envelope, _nothing), (envelope, _nothing)]


def _commit_refused() -> list[tuple[Any, Any]]:
    envelope = make_envelope("evt-commit", payload={"x": 1.5})
    return [(envelope, _fail_next_commit), (envelope, _nothing), (envelope, _nothing)]


def _not_an_envelope() -> list[tuple[Any, Any]]:
    return [({"event_id": "evt-dict"}, _nothing), (None, _nothing)]


STORIES: dict[str, Callable[[], list[tuple[Any, Any]]]] = {
    "twice": _twice,
    "crash": _crash,
    "commit_refused": _commit_refused,
    "not_an_envelope": _not_an_envelope,
}
