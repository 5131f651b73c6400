from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from ticketflow.db import Base, BusinessTask, NotificationReceipt, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications.effects import SqlAlchemyEffectTransaction, apply_notification_once

import unittest


class Injected(Exception):
    pass


class Atomicity(unittest.TestCase):
    def setUp(self):
        self.engine = create_engine_from_url("sqlite://")
        Base.metadata.create_all(self.engine)
        self.tx = SqlAlchemyEffectTransaction(self.engine)
        self.env = EventEnvelope(event_id="evt-u", event_type="ticket.assigned", payload={})

    def rows(self):
        with Session(self.engine) as s:
            return (
                s.scalar(select(func.count()).select_from(NotificationReceipt)),
                s.scalar(select(func.count()).select_from(BusinessTask)),
            )

    def test_a_plain_delivery_applies(self):
        self.assertIs(apply_notification_once(self.env, self.tx), True)
        self.assertEqual(self.rows(), (1, 1))

    def test_b_failure_then_redelivery_then_duplicate(self):
        armed = [True]

        @event.listens_for(self.engine, "before_cursor_execute")
        def fail(conn, cursor, statement, params, context, many):
            if armed[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
                armed[0] = False
                raise Injected("gone")

        with self.assertRaises(Injected):
            apply_notification_once(self.env, self.tx)
        self.assertEqual(self.rows(), (0, 0))
        self.assertIs(apply_notification_once(self.env, self.tx), True)
        self.assertEqual(self.rows(), (1, 1))
        self.assertIs(apply_notification_once(self.env, self.tx), False)
        self.assertEqual(self.rows(), (1, 1))


if __name__ == "__main__":
    unittest.main()
