from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

import pytest


class Injected(RuntimeError):
    pass


def test_atomic_effect():
    engine = create_engine_from_url("sqlite://")
    Base.metadata.create_all(engine)
    tx = SqlAlchemyEffectTransaction(engine)
    env = EventEnvelope(event_id="evt-p", event_type="ticket.assigned", payload={"ticket_id": 1})
    armed = {"on": True}

    @event.listens_for(engine, "before_cursor_execute")
    def fail(conn, cursor, statement, params, context, many):
        if armed["on"] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            armed["on"] = False
            raise Injected("effect store went away")

    def rows():
        with Session(engine) as s:
            return tuple(s.scalar(select(func.count()).select_from(m)) for m in (NotificationReceipt, BusinessTask))

    with pytest.raises(Injected, match="went away"):
        apply_notification_once(env, tx)
    assert rows() == (0, 0)
    assert apply_notification_once(env, tx) is True
    assert rows() == (1, 1)
    assert apply_notification_once(env, tx) is False
    assert rows() == (1, 1)


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
