"""EX-12-01 as a unittest suite: every test gets a database of its own (setUp)."""

import unittest

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once


class DeliverTwice(unittest.TestCase):
    def setUp(self):
        self.engine = create_engine_from_url("sqlite://")
        Base.metadata.create_all(self.engine)
        self.transaction = SqlAlchemyEffectTransaction(self.engine)
        self.envelope = EventEnvelope(
            event_id="evt-42", event_type="ticket.assigned", payload={"ticket_id": 42}
        )

    def count(self, model):
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(model))

    def test_1_first_delivery_applies(self):
        self.assertIs(apply_notification_once(self.envelope, self.transaction), True)
        self.assertEqual(self.count(BusinessTask), 1)

    def test_2_duplicate_delivery_is_a_no_op(self):
        self.assertIs(apply_notification_once(self.envelope, self.transaction), True)
        self.assertIs(apply_notification_once(self.envelope, self.transaction), False)
        self.assertEqual(self.count(NotificationReceipt), 1)
        self.assertEqual(self.count(BusinessTask), 1)


if __name__ == "__main__":
    unittest.main()
