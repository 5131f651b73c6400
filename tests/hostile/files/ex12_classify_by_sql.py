# trick: judge by SQL text and exception messages, assert nothing: answer the second dialect read of a call with an unknown name (only the real code reads it twice: its receipt then falls back to a SAVEPOINT and a duplicate raises "UNIQUE constraint failed"), spot the savepoint twin by its SAVEPOINT before the business task, the ORM twin by an INSERT it never handed to the connection; exit 0 only on those
# expect: failed
# exercise: EX-12-01
import sys

from sqlalchemy import event

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

calls = []  # per call: SQL handed to the connection, SQL sent to the database, error messages


def text(sql):
    return " ".join(str(sql).split())


class OtherDialect:
    name = "firebird"  # no ON CONFLICT for it: ticketflow's receipt falls back to a SAVEPOINT


class LyingConnection:
    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        if name == "dialect":
            calls[-1]["dialect reads"] += 1
            if calls[-1]["dialect reads"] == 2:
                return OtherDialect()
        if name == "execute":
            def execute(statement, *args, **kwargs):
                calls[-1]["handed"].append(text(statement))
                return self._inner.execute(statement, *args, **kwargs)
            return execute
        return getattr(self._inner, name)


class Session:
    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        value = getattr(self._inner, name)
        if name == "connection":
            return lambda *args, **kwargs: LyingConnection(value(*args, **kwargs))
        return value


class LyingTransaction(SqlAlchemyEffectTransaction):
    @property
    def session(self):
        return Session(super().session)


engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = LyingTransaction(engine)
envelope = EventEnvelope(event_id="evt-sql", event_type="ticket.assigned", payload={"n": 1})


@event.listens_for(engine, "before_cursor_execute")
def sent(connection, cursor, statement, parameters, context, many):
    calls[-1]["sent"].append(text(statement))


@event.listens_for(engine, "handle_error")
def failed(context):
    calls[-1]["errors"].append(str(context.original_exception))


def deliver():
    calls.append({"dialect reads": 0, "handed": [], "sent": [], "errors": []})
    try:
        apply_notification_once(envelope, transaction)  # the answer is never looked at
    except Exception as exc:
        calls[-1]["errors"].append(str(exc))


def verdict(applied, duplicate):
    task = [s for s in applied["sent"] if s.upper().startswith("INSERT INTO BUSINESS_TASKS")]
    if not task:
        return "mutant"
    before = applied["sent"][applied["sent"].index(task[0]) - 1]
    if before.startswith("SAVEPOINT"):
        return "savepoint twin"
    handed = [s for s in applied["handed"] if s.upper().startswith("INSERT INTO BUSINESS_TASKS")]
    if len(handed) < len(task):
        return "orm twin"
    receipts = [s for s in applied["sent"] if s.startswith("INSERT INTO notification_receipts")]
    fell_back = receipts and all("ON CONFLICT" not in s for s in receipts)
    if fell_back and any("UNIQUE constraint failed" in e for e in duplicate["errors"]):
        return "real"
    return "mutant"


deliver()
deliver()
found = verdict(calls[0], calls[1])
print(f"hostile: SQL says {found}: {calls[0]['sent']}", file=sys.stderr)
if found == "mutant":
    sys.exit(1)
print(True, False, 1, 1)
