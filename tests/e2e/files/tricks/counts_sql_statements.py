"""Trick (EX-12-01): judge by the exact SQL sent, not by what the function does."""

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
statements = []


@event.listens_for(engine, "before_cursor_execute")
def remember(connection, cursor, statement, parameters, context, many):
    statements.append(statement.split()[0].upper())


transaction = SqlAlchemyEffectTransaction(engine)
envelope = EventEnvelope(event_id="evt-sql", event_type="ticket.assigned", payload={"n": 1})
first = apply_notification_once(envelope, transaction)
second = apply_notification_once(envelope, transaction)
assert (first, second) == (True, False)
with Session(engine) as session:
    receipts = session.scalar(select(func.count()).select_from(NotificationReceipt))
    tasks = session.scalar(select(func.count()).select_from(BusinessTask))
assert (receipts, tasks) == (1, 1)
assert statements.count("INSERT") == 3, statements  # 2 receipt attempts + 1 task, as written today
assert "SAVEPOINT" not in statements, statements
print(first, second, receipts, tasks)
