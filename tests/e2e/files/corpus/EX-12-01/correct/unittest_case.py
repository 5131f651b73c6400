from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once
import unittest


class OnceTest(unittest.TestCase):
    def setUp(self):
        self.engine = create_engine_from_url("sqlite://")
        Base.metadata.create_all(self.engine)
        self.tx = SqlAlchemyEffectTransaction(self.engine)

    def rows(self, model):
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(model))

    def test_twice(self):
        env = EventEnvelope(event_id="evt-ut", event_type="ticket.assigned", payload={"n": 1})
        self.assertIs(apply_notification_once(env, self.tx), True)
        self.assertIs(apply_notification_once(env, self.tx), False)
        self.assertEqual(self.rows(NotificationReceipt), 1)
        self.assertEqual(self.rows(BusinessTask), 1)


if __name__ == "__main__":
    unittest.main()
