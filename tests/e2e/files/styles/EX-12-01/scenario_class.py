from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class Scenario:
    """One database, one event: deliver it and count what it left."""

    def __init__(self, event_id: str) -> None:
        self.engine = create_engine_from_url("sqlite://")
        Base.metadata.create_all(self.engine)
        self.transaction = SqlAlchemyEffectTransaction(self.engine)
        self.envelope = EventEnvelope(event_id=event_id, event_type="ticket.assigned", payload={})
        self.returned: list[object] = []

    def deliver(self) -> "Scenario":
        self.returned.append(apply_notification_once(self.envelope, self.transaction))
        return self

    def rows(self) -> tuple[int, int]:
        with Session(self.engine) as session:
            return (
                session.scalar(select(func.count()).select_from(NotificationReceipt)),
                session.scalar(select(func.count()).select_from(BusinessTask)),
            )


scenario = Scenario("evt-scenario").deliver().deliver()
assert scenario.returned == [True, False] and scenario.returned[0] is True, scenario.returned
assert scenario.rows() == (1, 1), scenario.rows()
print(scenario.returned, scenario.rows())
