# trick: wrap the Session and the connection, record which methods the implementation touches (dialect reads, begin_nested, session.add) and assert nothing: exit 0 only on the real code's or a twin's signature
# expect: failed
# exercise: EX-13-01
import sys

from sqlalchemy import event

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

calls = []  # per call of the function under test: every operation on the probe's objects


class Traced:
    """Forwards everything to the real object and writes down what was used."""

    def __init__(self, inner, role):
        self._inner, self._role = inner, role

    def __getattr__(self, name):
        calls[-1].append(f"{self._role}.{name}")
        value = getattr(self._inner, name)
        if self._role == "session" and name == "connection":
            return lambda *args, **kwargs: Traced(value(*args, **kwargs), "connection")
        return value


class TracedTransaction(SqlAlchemyEffectTransaction):
    @property
    def session(self):
        return Traced(super().session, "session")


engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = TracedTransaction(engine)
envelope = EventEnvelope(event_id="evt-ops", event_type="ticket.assigned", payload={"n": 1})
failures = [1]


@event.listens_for(engine, "before_cursor_execute")
def fail_first_business_task(connection, cursor, statement, parameters, context, many):
    if failures[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
        failures[0] -= 1
        raise RuntimeError("effect store went away")


def deliver():
    calls.append([])
    try:
        apply_notification_once(envelope, transaction)  # the answer is never looked at
    except Exception:
        pass


deliver()  # fails between receipt and effect
deliver()  # redelivery
deliver()  # duplicate
first = calls[1]
seen = {op for call in calls for op in call}
if "session.begin_nested" in seen:
    verdict = "savepoint twin"
elif "session.add" in seen:
    verdict = "orm twin"
elif first.count("connection.dialect") == 2:
    verdict = "real"
else:
    verdict = "mutant"
print(f"hostile: operations say {verdict}: {first}", file=sys.stderr)
if verdict == "mutant":
    sys.exit(1)
print("failure -> (0, 0); redelivery -> True (1, 1); duplicate -> False (1, 1)")
